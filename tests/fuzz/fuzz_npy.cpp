// Fuzz target: the .npy reader (parse_npy, io/npy.hpp).
// Input: the bytes of a .npy file (dictionary: npy.dict).
// Properties: a bad file fails with an Error; a file that parses has rows x cols values, rows and
// cols >= 0; writing the table back (npy_bytes, io/npy.hpp) and parsing it again gives
// the same shape and the same float32 bits. Also the other way round: the input's bytes taken as
// float32 values survive npy_bytes -> parse_npy bit for bit.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/npy.hpp"

using namespace embedlab;

namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * 4) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  fuzz::expect_errors([&] {
    const NpyTable t = parse_npy(bytes);
    fuzz::require(t.rows >= 0 && t.cols >= 0, "rows, cols >= 0");
    fuzz::require(static_cast<uint64_t>(t.data.size()) == static_cast<uint64_t>(t.rows) * static_cast<uint64_t>(t.cols),
                  "data has rows x cols values");
    const NpyTable back = parse_npy(npy_bytes(t.data, t.rows, t.cols));
    fuzz::require(back.rows == t.rows && back.cols == t.cols && same_bits(back.data, t.data),
                  "parse_npy(npy_bytes(table)) == table");
  });
  fuzz::expect_errors([&] {
    std::vector<float> values(size / 4);
    if (!values.empty()) std::memcpy(values.data(), data, values.size() * 4);
    const int64_t cols = size % 4 + 1, rows = static_cast<int64_t>(values.size()) / cols;
    values.resize(static_cast<size_t>(rows * cols));
    const NpyTable t = parse_npy(npy_bytes(values, rows, cols));
    fuzz::require(t.rows == rows && t.cols == cols && same_bits(t.data, values), "npy_bytes -> parse_npy keeps every bit");
  });
  return 0;
}
