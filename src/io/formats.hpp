// The table formats, behind one registry: every format the engine reads or writes registers one
// TableFormat in its own file (io/npy.cpp, io/safetensors.cpp, io/projector_tsv.cpp,
// io/word2vec.cpp (text and binary), io/glove.cpp, io/savetxt.cpp) and one line in
// io/format_list.inc. The import and export lists, format_for_name, detect_format, the CLI's
// --format choices and default extensions, and the bindings' M.tableFormats() all iterate it.
//
// Reads (format names are also the values of `format`; "" detects the format from the bytes):
//   "npy"             .npy float32/float64/float16, C or Fortran order (io/npy.hpp)
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
// or failed with its message; else detected from the bytes (detect_format). Detection runs the
// formats' detect in ascending detect_rank, in two stages: first those that look at signatures
// (kSignature: "\x93NUMPY" -> npy; an 8-byte little-endian length then '{' -> safetensors; a
// first line "N D" -> savetxt when every line is numbers and line 2 is not a word and D numbers,
// else word2vec, text when line 2 holds a word and D numbers or is not laid out as binary
// records, else binary); then, unless a control byte in the first 4096 bytes of text says no
// text table (an error), those that look at the text's layout (kLayout: a first line of
// tab-separated fields or of one field -> tsv; numbers on every line -> savetxt; else a first
// line ending in a number -> glove). A UTF-8 byte order mark before a text format is skipped.
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
// Writes (the formats with a write: "npy" | "tsv" | "word2vec-text" | "word2vec-binary"):
// export_table. word2vec text writes each value as numpy's repr of a float32 (float_repr), byte
// for byte what gensim 4.2 writes, so float32 tables round-trip bit-exactly through every format.
// It does not read pickles, integer tables, or tensors of more than 2 dimensions. Labels files
// (metadata.tsv: io/projector_tsv.hpp, vocabularies: io/vocab.hpp) and coordinates
// (io/coordinates_csv.hpp) are not tables and are not in the registry.
//
// Adding a format: its file (read, write, detect and `const TableFormat& NAME_format()`), one
// line in io/format_list.inc, its tests, docs/formats.md (and the ExportFormat/TableFormatName
// unions of web/embedlab.d.ts, which tests/js/table-formats.test.mjs checks against the registry).
//
// Intended usage:
//   ImportedTable t = import_table(read_file("--table", path));          // any format
//   ImportedTable w = import_table(bytes, "safetensors", "wte.weight");  // one tensor
//   attach_metadata(t, read_file("--metadata", "metadata.tsv"));         // labels + columns
//   std::string out = export_table(t, "word2vec-binary");
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/table.hpp"

namespace embedlab {

// What a detector looks at (see the header comment): the raw bytes' signature, or the text's layout.
enum class DetectStage { kSignature, kLayout };

// The bytes a detector sees, raw (as read) and as text (after a UTF-8 byte order mark), and the
// stage it is asked about; a format answers false for a stage it does not detect in.
struct DetectInput {
  std::string_view bytes;
  std::string_view text;
  DetectStage stage;
};

struct TableFormat {
  std::string name;                     // "word2vec-text": the value of `format` everywhere
  std::string label;                    // "word2vec text (gensim binary=False)": for people
  std::vector<std::string> extensions;  // lower-case, no dot: names that select it on read ("vec")
  std::string out_extension;            // convert's default for OUT (no dot), "" = none
  // the name in read messages ("read word2vec: ..."), shared by the formats of one family; a
  // name's extension selecting one of a family lets the bytes pick among its members
  std::string family;
  bool tensors = false;                 // a file holds named tensors (`tensor` picks one)
  int detect_rank = 0;                  // detectors run in ascending rank within a stage
  bool (*detect)(const DetectInput&) = nullptr;
  // bytes, tensor ("" = the file's only table) -> the table (rows, cols); format and checks
  // (check_table_not_empty) are added by import_table
  ImportedTable (*read)(std::string_view bytes, const std::string& tensor) = nullptr;
  // the table's bytes in this format; nullptr for a read-only format
  std::string (*write)(const ImportedTable& t) = nullptr;
  // the tensors of a file; nullptr: one entry {"", "text", {rows, cols}} after a full read
  std::vector<TensorInfo> (*list)(std::string_view bytes) = nullptr;
};

// Every format, in the order of import_formats() (npy, safetensors, tsv, word2vec-text,
// word2vec-binary, glove, savetxt).
const std::vector<const TableFormat*>& table_formats();
// The format named `name`, or nullptr.
const TableFormat* find_format(const std::string& name);

// The formats import_table reads, and those export_table writes (registry order).
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

// format "" = the name's, else detect; tensor: the safetensors tensor ("" = the only 2-D tensor,
// else an error listing them); name: the file's name (only its extension is used).
ImportedTable import_table(std::string_view bytes, const std::string& format = "", const std::string& tensor = "",
                           const std::string& name = "");

// npy: one entry named ""; safetensors: all tensors; text formats: one entry (dtype "text").
std::vector<TensorInfo> list_tensors(std::string_view bytes, const std::string& format = "",
                                     const std::string& name = "");

// format "npy" | "tsv" (vectors.tsv only) | "word2vec-text" | "word2vec-binary" -> the file's
// bytes. word2vec words are the labels (row numbers when there are none); a label holding a
// space, tab or line break cannot be a word2vec word and is refused naming its row.
std::string export_table(const ImportedTable& t, const std::string& format);

}  // namespace embedlab
