// Tables from other tools, in and out: one entry point for every format the engine reads, and
// the writers for the formats it can write back.
//
// Reads (format names are also the values of `format`; "" detects the format from the bytes):
//   "npy"             .npy float32/float64/float16, C or Fortran order (io/table_readers.hpp)
//   "safetensors"     F32, F16, BF16, F64 tensors; only the chosen tensor's bytes are decoded
//                     (io/safetensors.hpp)
//   "tsv"             the Embedding Projector's vectors.tsv: tab-separated numbers, one row per
//                     line; a first line without any number is a header and skipped
//   "word2vec-text"   "N D" then N lines "word v1 ... vD" (gensim's save_word2vec_format, binary=False)
//   "word2vec-binary" "N D\n" then N times "word " and D little-endian float32 (binary=True;
//                     a '\n' after each vector, as the original word2vec C tool writes, is accepted)
//   "glove"           lines "word v1 ... vD", no header; D from the first line
//   "savetxt"         numpy.savetxt's output: lines of numbers separated by spaces, no labels
// The format: the one asked for; else the one the file's name names (format_for_name: .npy,
// .safetensors, .tsv, .bin and .vec, whose bytes then say text or binary), read as that format
// or failed with its message; else detected from the bytes (detect_format): "\x93NUMPY" -> npy;
// an 8-byte little-endian length then '{' -> safetensors; a first line "N D" -> word2vec (text
// when line 2 holds a word and D numbers or is not laid out as binary records, else binary); a
// first line of tab-separated fields -> tsv; numbers on every line -> savetxt; else glove.
// A UTF-8 byte order mark before a text format is skipped.
// Malformed input fails naming the format, the line or byte offset, what was expected and what
// was found; a file that ends early says it is cut short:
//   "read word2vec: line 3: expected 100 numbers after the word, got 99"
//   "read safetensors: byte 8: expected '{' to start the JSON header, got 'x'"
//   "read npy: the data has 40 bytes, expected 5 x 4 x 4 = 80: the file is cut short"
// A table with no rows or no columns is refused (check_table_not_empty). Every size is checked
// against the input's bytes and planned (core/memory.hpp) before anything is allocated: a table
// read from text is never more than 2 float32 bytes per byte of the file. An import returns a
// complete table or throws; nothing is half-loaded.
//
// Writes ("npy" | "tsv" | "word2vec-text" | "word2vec-binary"): export_table. word2vec text
// writes each value as numpy's repr of a float32 (the shortest text that reads back to the same
// float32, positional for 1e-4 <= |x| < 1e16: "0.1", "1.0", "1e-05"), byte for byte what gensim
// 4.2 writes, so float32 tables round-trip bit-exactly through every format here.
// It does not read pickles, integer tables, or tensors of more than 2 dimensions.
//
// Intended usage:
//   ImportedTable t = import_table(read_file("--table", path));          // any format
//   ImportedTable w = import_table(bytes, "safetensors", "wte.weight");  // one tensor
//   attach_metadata(t, read_file("--metadata", "metadata.tsv"));         // labels + columns
//   std::string out = export_table(t, "word2vec-binary");
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// One tensor of a file. dtype "F32" | "F16" | "BF16" | "F64" | ... (safetensors names; a .npy
// '<f4' is "F32"); [begin, end) is the byte range of its data in the file.
struct TensorInfo {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

// A table (rows, cols) float32 row-major, with what the file said about its rows.
struct ImportedTable {
  std::vector<float> data;
  int64_t rows = 0, cols = 0;
  std::vector<std::string> labels;                    // one per row, or empty
  std::vector<std::string> metadata_header;           // column names of multi-column metadata
  std::vector<std::vector<std::string>> metadata;     // (rows, columns): every column, labels' too
  std::string format;                                 // the format it was read from
  std::string tensor;                                 // the safetensors tensor it came from
  std::string recognised;                             // "gpt2 token table", ... (known_tables.hpp) or ""
};

// The formats import_table reads, and those export_table writes.
const std::vector<std::string>& import_formats();
const std::vector<std::string>& export_formats();

// bytes -> its format name, or fails saying why none fits.
std::string detect_format(std::string_view bytes);

// The format a file name's extension names, or "" (".txt" holds word2vec text, GloVe or savetxt).
// Example: "model.SafeTensors" -> "safetensors"; "w2v.bin" -> "word2vec-binary";
// "vectors.txt" -> "".
std::string format_for_name(const std::string& name);

// The format to read: format when given (checked), else the name's (a .bin or .vec with a
// word2vec header: text or binary as its bytes are laid out), else detect_format(bytes).
std::string resolve_format(std::string_view bytes, const std::string& format, const std::string& name);

// Fails unless the table has a row and a column:
// "<where>: the table is 0 x 4: it has no rows; a table needs at least one row and one column".
void check_table_not_empty(const std::string& where, int64_t rows, int64_t cols);

// format "" = the name's, else detect; tensor: the safetensors tensor ("" = the only 2-D tensor,
// else an error listing them); name: the file's name (only its extension is used).
ImportedTable import_table(std::string_view bytes, const std::string& format = "", const std::string& tensor = "",
                           const std::string& name = "");

// npy: one entry named ""; safetensors: all tensors; text formats: one entry (dtype "text").
std::vector<TensorInfo> list_tensors(std::string_view bytes, const std::string& format = "",
                                     const std::string& name = "");

// safetensors_header_size(first 8 bytes) -> 8 + N (N: the JSON header's length).
uint64_t safetensors_header_size(std::string_view first8);
// The first 8 + N bytes of a safetensors file -> its tensors with absolute byte ranges; throws
// naming how many bytes are needed when `head` is shorter, and when two tensors share a name or
// their data ranges overlap or leave a gap (the data is packed, from its first byte).
std::vector<TensorInfo> safetensors_header(std::string_view head);
// The same for a file of file_size bytes: also fails when the file is cut short (the header or a
// tensor's data runs past its end) or holds bytes after the last tensor's data.
std::vector<TensorInfo> safetensors_header(std::string_view head, uint64_t file_size);

// The little-endian bytes of one tensor (exactly end - begin) -> float32 (rows, cols); a 1-D
// shape becomes (n, 1); 0-D and 3-D or more are refused, and so is an empty table. dtype F32,
// F16, BF16 or F64. Messages start "read safetensors: "; fewer bytes than the shape needs are
// "the file is cut short".
// Example: dtype "BF16", shape {2}, bytes 80 3F 00 C0 -> rows 2, cols 1, data {1.0f, -2.0f}.
ImportedTable decode_tensor(std::string_view bytes, const std::string& dtype, const std::vector<int64_t>& shape);

// Projector metadata.tsv -> t.labels (and t.metadata_header, t.metadata when it has more than one
// column). One row per line; the first line is a header iff there is more than one column;
// labels are the column named "label", "word" or "token" if there is one, else the first.
// Fields are unescaped (\t \n \r \\). Fails unless there is one row per table row.
// Example: "word\tcount\nthe\t12\ncat\t3\n" on a 2-row table -> labels {"the", "cat"},
// metadata_header {"word", "count"}, metadata {{"the", "12"}, {"cat", "3"}}.
void attach_metadata(ImportedTable& t, std::string_view metadata_tsv);

// A vocabulary file: one token per line, taken as written (a trailing '\r' dropped) -> t.labels.
void attach_vocab(ImportedTable& t, std::string_view vocab_text);

// format "npy" | "tsv" (vectors.tsv only) | "word2vec-text" | "word2vec-binary" -> the file's
// bytes. word2vec words are the labels (row numbers when there are none); a label holding a
// space, tab or line break cannot be a word2vec word and is refused naming its row.
std::string export_table(const ImportedTable& t, const std::string& format);

// The metadata.tsv for t: its columns with the header when it has them, else one label a line
// (projector_metadata_tsv); "" when t has no labels.
std::string metadata_tsv(const ImportedTable& t);

}  // namespace embedlab
