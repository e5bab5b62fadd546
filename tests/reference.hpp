// Test helpers: load the reference JSON files in tests/reference/ (see SOURCE.md there),
// compare float tables, draw random test vectors.
#pragma once

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/rng.hpp"

namespace embedlab::testing {

inline nlohmann::json load_reference(const std::string& name) {
  const std::string path = std::string(EMBEDLAB_SOURCE_DIR) + "/tests/reference/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return nlohmann::json::parse(in);
}

inline std::string read_text(const std::string& relative) {
  const std::string path = std::string(EMBEDLAB_SOURCE_DIR) + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Flattens a JSON array of arrays (or a flat array) of numbers.
inline std::vector<double> flatten(const nlohmann::json& j) {
  std::vector<double> out;
  for (const auto& row : j) {
    if (row.is_array()) {
      for (const auto& v : row) out.push_back(v.get<double>());
    } else {
      out.push_back(row.get<double>());
    }
  }
  return out;
}

inline double max_abs_diff(const std::vector<double>& a, const float* b, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n && i < a.size(); ++i) m = std::max(m, std::abs(a[i] - static_cast<double>(b[i])));
  return a.size() == n ? m : 1e30;
}

// n values from N(0, 1) drawn by g.
inline std::vector<float> randn(Generator& g, size_t n) {
  std::vector<float> v(n);
  if (n) g.normal(v.data(), n);
  return v;
}

// True when a and b hold the same float32 bit patterns.
// subtle: an empty vector's data() may be nullptr, and memcmp(nullptr, ..., 0) is undefined
// behaviour (UBSan's nonnull-attribute check), so empty vectors are compared by size alone.
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  return a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace embedlab::testing
