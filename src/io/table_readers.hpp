// Readers for the table files `embedlab train` writes (src/io/table_writers.hpp has the writers):
// a NumPy .npy matrix and the Embedding Projector's metadata.tsv labels.
//
//   parse_npy(bytes)   -> NpyTable {data (rows, cols) float32, rows, cols}. Accepts format
//                         versions 1.0 and 2.0 (4-byte header length), a 2-D C-order array of
//                         '<f4' (copied) or '<f8' (rounded to float32), as numpy/lib/format.py
//                         writes them; a 1-D array is read as (n, 1).
//   read_npy(path)     -> the same from a file.
//   parse_labels(text) -> one label per line of a single-column metadata.tsv, with the escapes
//                         table_writers' tsv_escape writes (\t \n \r \\) undone.
//   read_labels(path)  -> the same from a file.
// Files are read with core/file.hpp's read_file (size-limited); the declared shape x dtype width
// of a .npy file is checked against its bytes (in 64 bits) before the table is allocated.
// They do not read Fortran-order, big-endian, integer or pickled arrays (each fails naming
// what it found), or multi-column metadata with a header row.
//
// Intended usage (the CLI's `neighbours`):
//   NpyTable t = read_npy("table.npy");
//   std::vector<std::string> words = read_labels("out/metadata.tsv");  // words.size() == t.rows
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace embedlab {

struct NpyTable {
  std::vector<float> data;  // (rows, cols) row-major
  int64_t rows = 0, cols = 0;
};

NpyTable parse_npy(const std::string& bytes, const std::string& where = "read_npy");
NpyTable read_npy(const std::string& path);

// Example: the metadata line "a\\tb" (a, backslash, t, b) -> the label "a\tb" (a, tab, b).
std::string tsv_unescape(const std::string& field);
// Example: "a\nb\r\n" -> {"a", "b"}; "" -> {}.
std::vector<std::string> parse_labels(const std::string& text);
std::vector<std::string> read_labels(const std::string& path);

}  // namespace embedlab
