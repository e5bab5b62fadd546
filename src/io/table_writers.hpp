// Writers for trained tables: NumPy .npy files and the Embedding Projector's TSV pair.
//
//   npy_bytes(data, rows, cols)     -> the bytes of a float32 .npy file (format version 1.0:
//                                      "\x93NUMPY", 1, 0, uint16 header length, then the
//                                      header dict padded with spaces to a multiple of 64
//                                      bytes and ended by '\n', then the rows, little-endian;
//                                      numpy/lib/format.py). np.load reads it as (rows, cols).
//   write_npy(path, ...)            -> the same bytes written to path.
//   projector_vectors_tsv(data, ...)-> the text of vectors.tsv: one row per line, tab-separated,
//                                      %.9g so float32 values round-trip ("0.5\t-1e-05\n").
//   projector_metadata_tsv(labels)  -> the text of metadata.tsv: one label per line, no header
//                                      (the single-column form projector.tensorflow.org expects).
//                                      Tabs, newlines, carriage returns and backslashes in labels
//                                      are written as \t \n \r \\ so every label stays on its
//                                      own line; an empty label is an empty line (no tokenizer
//                                      here makes an empty token; read_labels reads it back as "").
//   write_projector_tsv(dir, ...)   -> dir/vectors.tsv and dir/metadata.tsv with the same text.
// The CLI writes files with them; the page gets the same text and bytes through the bindings
// (M.projectorTsv, M.npyBytes). They do not read files back, and they do not choose labels
// (callers pass token strings).
//
// Intended usage:
//   write_npy("table.npy", w2v.input_table(), w2v.vocab_size(), w2v.dim());
//   std::string v = projector_vectors_tsv(w2v.input_table(), W, D);   // the text, for the page
//   write_projector_tsv("out", w2v.input_table(), W, D, labels);   // out/vectors.tsv + metadata.tsv
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

// data (rows, cols) float32 row-major -> .npy bytes.
std::string npy_bytes(std::span<const float> data, int64_t rows, int64_t cols);
void write_npy(const std::string& path, std::span<const float> data, int64_t rows, int64_t cols);

// A label as it appears in metadata.tsv. Example: "a\tb\n" -> "a\\tb\\n".
std::string tsv_escape(const std::string& label);

// data (rows, cols) float32 -> vectors.tsv text. Example: {0.5, -1e-5}, 1 x 2 -> "0.5\t-9.99999975e-06\n".
std::string projector_vectors_tsv(std::span<const float> data, int64_t rows, int64_t cols);

// labels (rows) -> metadata.tsv text. Example: {"the", "a\tb", ""} -> "the\na\\tb\n\n".
std::string projector_metadata_tsv(const std::vector<std::string>& labels);

// data (rows, cols), labels (rows) -> dir/vectors.tsv and dir/metadata.tsv (dir is created).
void write_projector_tsv(const std::string& dir, std::span<const float> data, int64_t rows,
                         int64_t cols, const std::vector<std::string>& labels);

}  // namespace embedlab
