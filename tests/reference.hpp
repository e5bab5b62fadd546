// Test helpers: load the reference JSON files in tests/reference/ (see SOURCE.md there),
// compare float tables, draw random test vectors.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/file.hpp"
#include "core/rng.hpp"

namespace embedlab::testing {

// Files are read by the engine's one reader (core/file.hpp), which names the path on failure.
inline std::string read_text(const std::string& relative) {
  return read_file("test", std::string(EMBEDLAB_SOURCE_DIR) + "/" + relative);
}

inline nlohmann::json load_reference(const std::string& name) {
  return nlohmann::json::parse(read_text("tests/reference/" + name));
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
inline bool same_bits(std::span<const float> a, std::span<const float> b) {
  if (a.size() != b.size()) return false;
  return a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A V x D table of values in [-1, 1) from an LCG, the same for the same seed (the PCA and
// neighbour tests' tables).
inline std::vector<float> lcg_table(int64_t V, int64_t D, uint32_t seed) {
  std::vector<float> t(static_cast<size_t>(V * D));
  for (float& x : t) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(seed >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
  }
  return t;
}

// rows of `clusters` Gaussian clusters: centre N(0, spread^2) per coordinate plus N(0, 1) noise;
// labels (n) receive each row's cluster (row i is in cluster i % clusters).
inline std::vector<float> clustered(int64_t n, int64_t D, int64_t clusters, float spread, uint64_t seed,
                                    std::vector<int32_t>* labels = nullptr) {
  Generator g(seed);
  std::vector<float> centres(static_cast<size_t>(clusters * D)), t(static_cast<size_t>(n * D));
  g.normal(centres.data(), centres.size(), 0.0f, spread);
  g.normal(t.data(), t.size());
  if (labels) labels->resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = i % clusters;
    if (labels) (*labels)[i] = static_cast<int32_t>(c);
    for (int64_t d = 0; d < D; ++d) t[i * D + d] += centres[c * D + d];
  }
  return t;
}

// A training stream for the next-token tests: ids in [0, V) with some order to learn (each id
// mostly follows from the one before), the same for the same seed.
inline std::vector<int32_t> id_stream(int32_t V, size_t n, uint32_t seed) {
  std::vector<int32_t> ids(n);
  uint32_t r = seed;
  int32_t prev = 0;
  for (size_t i = 0; i < n; ++i) {
    r = r * 1664525u + 1013904223u;
    prev = (r >> 28) < 12 ? (prev * 3 + 1) % V : static_cast<int32_t>((r >> 8) % static_cast<uint32_t>(V));
    ids[i] = prev;
  }
  return ids;
}

// count sentences of 9 ids each from id_stream(30, count * 9, 99), with their start offsets
// (starts[0] = 0, starts[count] = ids.size()): the word2vec checkpoint tests' corpus.
struct IdSentences {
  std::vector<int32_t> ids;
  std::vector<int64_t> starts{0};
};

inline IdSentences id_sentences(int count) {
  IdSentences c;
  const std::vector<int32_t> ids = id_stream(30, static_cast<size_t>(count) * 9, 99);
  for (int s = 0; s < count; ++s) {
    c.ids.insert(c.ids.end(), ids.begin() + s * 9, ids.begin() + s * 9 + 9);
    c.starts.push_back(static_cast<int64_t>(c.ids.size()));
  }
  return c;
}

}  // namespace embedlab::testing
