// Readers for the table files `embedlab train` writes (src/io/table_writers.hpp has the writers):
// a NumPy .npy matrix and the Embedding Projector's metadata.tsv labels.
//
//   parse_npy(bytes)   -> NpyTable {data (rows, cols) float32, rows, cols}. Accepts format
//                         versions 1.0, 2.0 and 3.0 (4-byte header length), a 2-D array of
//                         '<f4' (copied), '<f8' (rounded to float32) or '<f2' (widened, exact), as
//                         numpy/lib/format.py writes them; a Fortran-order array is transposed
//                         into row-major order; a 1-D array is read as (n, 1).
//   parse_npy_header(bytes) -> descr, fortran_order, shape and where the data starts, without
//                         reading or checking the data (`embedlab inspect`).
//   read_npy(path)     -> the same from a file.
//   parse_labels(text) -> one label per line of a single-column metadata.tsv, with the escapes
//                         table_writers' tsv_escape writes (\t \n \r \\) undone.
//   read_labels(path)  -> the same from a file.
// Files are read with core/file.hpp's read_file (size-limited); the declared shape x dtype width
// of a .npy file is checked against its bytes (in 64 bits) before the table is allocated.
// They do not read big-endian, integer or pickled arrays (each fails naming what it found), or multi-column metadata with a header row.
//
// Intended usage (the CLI's `neighbours`):
//   NpyTable t = read_npy("table.npy");
//   std::vector<std::string> words = read_labels("out/metadata.tsv");  // words.size() == t.rows
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

struct NpyTable {
  std::vector<float> data;  // (rows, cols) row-major
  int64_t rows = 0, cols = 0;
};

// The header of a .npy file. Example: np.save of a (3, 2) float32 array ->
// {descr "'<f4'", fortran_order false, shape {3, 2}, shape_text "(3, 2)", data_offset 128}.
struct NpyHeader {
  std::string descr;       // as written, quotes included: "'<f4'"
  bool fortran_order = false;
  std::vector<int64_t> shape;
  std::string shape_text;  // "(3, 2)"
  size_t data_offset = 0;  // the first byte of the data
};
NpyHeader parse_npy_header(std::string_view bytes, const std::string& where = "read_npy");

// bytes of a .npy file -> (rows, cols) float32, row-major whatever the file's order.
NpyTable parse_npy(std::string_view bytes, const std::string& where = "read_npy");
NpyTable read_npy(const std::string& path);

// Example: the metadata line "a\\tb" (a, backslash, t, b) -> the label "a\tb" (a, tab, b).
std::string tsv_unescape(const std::string& field);
// The lines of a text without their '\n' and a trailing '\r'; a last line without '\n' counts.
// Example: "a\nb\r\nc" -> {"a", "b", "c"}; "" -> {}. The views point into text.
std::vector<std::string_view> split_lines(const char* where, std::string_view text);
// Example: "a\nb\r\n" -> {"a", "b"}; "" -> {}; a leading UTF-8 byte order mark is skipped.
std::vector<std::string> parse_labels(const std::string& text);
std::vector<std::string> read_labels(const std::string& path);

}  // namespace embedlab
