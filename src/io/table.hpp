// The table every format reads into and writes from, and the tensor list a file declares.
// It holds data only: the formats are in io/formats.hpp, each in its own file (io/npy.hpp, ...).
//
// Shapes: ImportedTable.data is (rows, cols) float32 row-major; labels is (rows) or empty;
// metadata is (rows, metadata_header.size()) or empty.
#pragma once

#include <cstdint>
#include <span>
#include <string>
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

// Fails unless the table has a row and a column:
// "<where>: the table is 0 x 4: it has no rows; a table needs at least one row and one column".
void check_table_not_empty(const std::string& where, int64_t rows, int64_t cols);

// Fails unless rows >= 0, cols >= 1 and data holds rows x cols values (counted in 64 bits):
// "<where>: table of 5 values is not 2 x 3".
void check_table_shape(const char* where, std::span<const float> data, int64_t rows, int64_t cols);

}  // namespace embedlab
