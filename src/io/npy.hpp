// The NumPy .npy format (numpy/lib/format.py), read and written, and its TableFormat "npy".
//
//   parse_npy(bytes)   -> NpyTable {data (rows, cols) float32, rows, cols}. Accepts format
//                         versions 1.0, 2.0 and 3.0 (4-byte header length), a 2-D array of
//                         '<f4' (copied), '<f8' (rounded to float32) or '<f2' (widened, exact), as
//                         numpy/lib/format.py writes them; a Fortran-order array is transposed
//                         into row-major order; a 1-D array is read as (n, 1).
//   parse_npy_header(bytes) -> descr, fortran_order, shape and where the data starts, without
//                         reading or checking the data (`embedlab inspect`).
//   read_npy(path)     -> the same from a file (core/file.hpp's read_file, size-limited).
//   npy_bytes(data, rows, cols) -> the bytes of a float32 .npy file (format version 1.0:
//                         "\x93NUMPY", 1, 0, uint16 header length, then the header dict padded
//                         with spaces to a multiple of 64 bytes and ended by '\n', then the rows,
//                         little-endian). np.load reads it as (rows, cols).
//   write_npy(path, ...) -> the same bytes written to path.
// The declared shape x dtype width is checked against the bytes (in 64 bits) before the table is
// allocated. It does not read big-endian, integer or pickled arrays (each fails naming what it
// found).
//
// Intended usage (the CLI's `neighbours`):
//   NpyTable t = read_npy("table.npy");
//   write_npy("table.npy", w2v.input_table(), w2v.vocab_size(), w2v.dim());
#pragma once

#include <cstdint>
#include <span>
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

// data (rows, cols) float32 row-major -> .npy bytes.
std::string npy_bytes(std::span<const float> data, int64_t rows, int64_t cols);
void write_npy(const std::string& path, std::span<const float> data, int64_t rows, int64_t cols);

}  // namespace embedlab
