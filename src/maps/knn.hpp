// k-nearest-neighbour graphs of a table's rows, for the map algorithms (maps/registry.hpp): exact for small
// tables, NN-descent with a random-projection-tree start above a size, cosine or euclidean.
//
// Shapes: table (n, D) float32 row-major; a graph holds, for each row, its k nearest other
// rows (the row itself left out): ids (n, k) int32 and dists (n, k) float32, nearest first.
//
//   KnnRows x(table, n, D, Metric::Cosine, "map");  // a working copy prepared for the metric
//   KnnGraph g = knn_graph(x, k, KnnMethod::Auto, seed);
//   KnnGraph q = knn_query(x, queries (m, D), m, k);  // rows of x nearest each query (exact)
//   KnnBuild b(x, k, KnnMethod::Auto, seed);          // the same graph in pieces of bounded work:
//   while (b.advance(1 << 21), !b.done()) show(b.progress());  // ~2^21 multiply-adds a call
//   KnnGraph g2 = b.take();                           //   (g2 == g, bit for bit, at any slicing)
//
// Distances: cosine 1 - cos(x, y) (rows are unit-normalised once, so it is 1 - x.y; a zero row
// stays zero and is at distance 1 from everything), euclidean |x - y| computed as
// sqrt(|x|^2 + |y|^2 - 2 x.y) on rows centred on their mean (which does not change distances
// and keeps the cancellation small). Every dot product is dense::dot_rows / kernels::dot with
// its fixed 8-way order, and every choice (tree splits, candidate sampling, heap order) is made
// by integer arithmetic from FastRng, so the graph is the same, bit for bit, in the native and
// the wasm build. subtle: nothing here uses std::partition, std::nth_element or
// std::uniform_int_distribution, whose results differ between libstdc++ (native) and libc++
// (emscripten); sorts use total orders (distance, then id).
//
// Methods:
//   Exact    every pair once (n^2 / 2 dot products of length D, in tiles of 128 x 128 rows
//            that stay in cache), kept in per-row max-heaps ordered by (distance, id).
//   Descent  NN-descent (Dong, Moses & Li 2011, "Efficient k-nearest neighbor graph
//            construction for generic similarity measures") as pynndescent 0.5 runs it for
//            its best-known caller: a forest of min(64, 5 + round(sqrt(n) / 20)) random-projection
//            trees (that caller's n_trees; angular hyperplanes for cosine, euclidean ones otherwise;
//            leaves of at most max(10, k + 1) rows) gives each row
//            candidates from its leaves, then rounds of local joins over sampled new/old
//            candidate lists (at most kMaxCandidates each; forward and reverse neighbours) until
//            a round changes fewer than delta k n = 0.001 k n entries or after
//            max(5, round(log2 n)) rounds. A pair whose rows already list each other is not
//            measured again.
//   Auto     Exact below kExactBelow rows, Descent from there.
// Recall of Descent against Exact: >= 0.9 on the sets of the tests tagged [knn]. subtle: recall is not
// the whole story. A list without a single true neighbour cannot be repaired by local joins,
// which only meet the neighbours' neighbours, and that row's edges pull two clusters together
// in the map; fewer trees than the reference count (2 + round(sqrt(n) / 20) instead of 5 + ...)
// left such rows in some seeds at the same recall. Rounds, distance evaluations and times:
// docs/benchmarks.md, "kNN".
//
// Threads (core/parallel.hpp, the same bits at every count): Exact runs rounds of tiles that share
// no rows (a round-robin tournament of row blocks); knn_query blocks of new rows, each writing
// its own heaps; Descent measures each unit's joins in parallel blocks and applies them in row
// order with the serial filter; the trees and the candidate sampling stay serial.
//
// It does not: search an index for new points (knn_query scans all rows: O(m n D)), or support
// metrics other than cosine and euclidean.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "analysis/neighbours.hpp"  // Metric

namespace embedlab {

// A small deterministic generator for sampling (splitmix64; Steele, Lea & Flood 2014): the
// same sequence on every platform, unlike the std distributions.
struct FastRng {
  uint64_t state;
  explicit FastRng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // an integer in [0, n), n >= 1: the high 32 bits times n, shifted (Lemire 2019; no division,
  // bias below n / 2^32)
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  // a float in [0, 1) with 24 random bits
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
};

enum class KnnMethod { Auto, Exact, Descent };
const char* knn_method_name(KnnMethod m);  // "auto" | "exact" | "nn-descent"

inline constexpr int64_t kExactBelow = 4096;     // Auto: Exact for n < this
inline constexpr int64_t kMaxCandidates = 30;    // NN-descent: new/old candidates per row and round

// The rows of a table prepared for one metric (see the file comment). Holds a copy: the table
// may be freed after construction.
class KnnRows {
 public:
  // table (n, D) float32; fails on a size mismatch or a non-finite value ("<where>: ...").
  KnnRows(std::span<const float> table, int64_t rows, int64_t dim, Metric metric, const char* where);

  int64_t rows() const { return rows_; }
  int64_t dim() const { return dim_; }
  Metric metric() const { return metric_; }
  const float* row(int64_t i) const { return data_.data() + i * dim_; }

  // The search's monotone stand-in for the distance: cosine 1 - x.y, euclidean |x - y|^2
  // (never negative).
  float proxy(int64_t i, int64_t j) const;
  // out[c] = the proxy between prepared vector q (D) with squared norm q_sq and rows ids[c]
  // (dense::dot_rows; ptrs is scratch of at least count entries).
  void proxies(const float* q, float q_sq, const int32_t* ids, size_t count, float* out, const float** ptrs) const;
  // The metric's distance for a proxy: cosine as is, euclidean its square root.
  float distance(float proxy) const;
  // A vector (D) in the table's space prepared like the rows (unit length, or centred).
  std::vector<float> prepare(const float* v) const;
  float squared_norm(int64_t i) const { return sq_.empty() ? 1.0f : sq_[static_cast<size_t>(i)]; }

 private:
  int64_t rows_, dim_;
  Metric metric_;
  std::vector<float> data_;  // (n, D) unit rows (cosine) or centred rows (euclidean)
  std::vector<float> sq_;    // (n) squared norms of the centred rows (euclidean only)
  std::vector<float> mean_;  // (D) the mean that was subtracted (euclidean only)
};

struct KnnGraph {
  int64_t n = 0, k = 0;
  std::vector<int32_t> ids;  // (n, k) nearest first; ties: the lower id first
  std::vector<float> dists;  // (n, k) metric distances, ascending per row
};

struct KnnStats {
  KnnMethod method = KnnMethod::Exact;  // the method that ran
  int rounds = 0;                       // NN-descent rounds
  int64_t distances = 0;                // distance evaluations
};

// knn_graph in pieces, so a caller can interrupt it or show progress between them. Each
// advance(work) runs whole units until their cost (in multiply-adds, about D per distance) reaches
// `work`, at least one unit: Exact one row against the rows after it; Descent one node of a
// random-projection tree (a split or a leaf's joins), the rows left without a full heap, one
// round's candidate lists, or one row's local joins; then, for both, a block of rows sorted into
// the graph. The units and their order do not depend on `work`, so every slicing gives the graph
// of knn_graph, bit for bit. Holds a reference to x: x must outlive it.
class KnnBuild {
 public:
  // Validates k (in [1, n - 1]) and plans and allocates the heaps (fails before allocating).
  KnnBuild(const KnnRows& x, int64_t k, KnnMethod method, uint64_t seed);
  ~KnnBuild();
  KnnBuild(KnnBuild&&) noexcept;
  KnnBuild& operator=(KnnBuild&&) noexcept;
  // Runs units until `work` multiply-adds are spent (at least one unit, none when done);
  // -> the multiply-adds spent.
  int64_t advance(int64_t work);
  bool done() const;
  // A monotone estimate in [0, 1] of the share of the work done (1 when done).
  double progress() const;
  // The graph, once done (fails before); the build is empty afterwards.
  KnnGraph take(KnnStats* stats = nullptr);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// k nearest other rows of every row, k in [1, n - 1] (KnnBuild run to the end).
KnnGraph knn_graph(const KnnRows& x, int64_t k, KnnMethod method, uint64_t seed, KnnStats* stats = nullptr);

// queries (m, D) in the table's original space -> for each, its k nearest rows of x (exact).
KnnGraph knn_query(const KnnRows& x, std::span<const float> queries, int64_t m, int64_t k);

// The share of (row, neighbour) pairs of `exact` also listed by `approx` (same n and k).
double knn_recall(const KnnGraph& approx, const KnnGraph& exact);

}  // namespace embedlab
