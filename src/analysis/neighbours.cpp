#include "analysis/neighbours.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"

namespace embedlab {

namespace {

// Rows per block of the scan (a fixed size: the blocks, and so the results, never depend on the
// thread count): 2,048 rows of 768 floats are 6 MiB, enough work to outweigh a block's hand-off.
constexpr int64_t kScanBlock = 2048;

struct Candidate {
  float score;
  int32_t id;
};

bool all_zero(std::span<const float> v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; });
}

// A (rows, dim) table: at least one row and column, rows x dim values, all finite.
void check_table(const char* where, std::span<const float> table, int64_t rows, int64_t dim) {
  check_at_least(where, "rows", rows, 1);
  check_at_least(where, "dim", dim, 1);
  uint64_t want = 0;  // rows x dim in 64 bits
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(dim), &want)) {
    fail(where, "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) +
                    " x " + std::to_string(dim));
  }
  if (table.size() != want) {
    fail(where, "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) +
                    " x " + std::to_string(dim) + " = " + std::to_string(want));
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (!std::isfinite(table[i])) {
      fail(where, "table value " + format_number(table[i]) + " at row " + std::to_string(i / dim) + ", column " +
                      std::to_string(i % dim) + " is not finite");
    }
  }
}

}  // namespace

Metric parse_metric(const std::string& name) {
  if (name == "cosine") return Metric::Cosine;
  if (name == "euclidean") return Metric::Euclidean;
  fail("metric", "unknown metric '" + name + "', expected cosine or euclidean");
}

const char* metric_name(Metric m) { return m == Metric::Cosine ? "cosine" : "euclidean"; }

std::vector<float> unit_rows(std::span<const float> table, int64_t rows, int64_t dim) {
  check_table("unit_rows", table, rows, dim);
  std::vector<float> out(plan("unit_rows", "unit rows", {rows, dim}, kFloat32));
  const size_t D = static_cast<size_t>(dim);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = table.data() + r * dim;
    float* dst = out.data() + r * dim;
    const float n = std::sqrt(kernels::dot(D, row, row));  // the norm NeighbourIndex holds
    for (size_t c = 0; c < D; ++c) dst[c] = n > 0 ? row[c] / n : 0.0f;
  }
  return out;
}

NeighbourIndex::NeighbourIndex(std::span<const float> table, int64_t rows, int64_t dim)
    : table_(table), rows_(rows), dim_(dim) {
  check_table("nearest", table, rows, dim);
  norms_.resize(plan("nearest", "row norms", rows, kFloat32));
  const size_t D = static_cast<size_t>(dim);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = table.data() + r * dim;
    norms_[static_cast<size_t>(r)] = std::sqrt(kernels::dot(D, row, row));
  }
}

Neighbours NeighbourIndex::nearest(int32_t id, int64_t k, Metric metric) const {
  check_index("nearest", "id", id, 0, rows_);
  if (metric == Metric::Cosine && norms_[static_cast<size_t>(id)] == 0.0f) {
    fail("nearest", "row " + std::to_string(id) + " is all zeros, so its cosine similarity is undefined");
  }
  const int32_t self[1] = {id};
  return nearest_to(table_.subspan(static_cast<size_t>(id * dim_), static_cast<size_t>(dim_)), k, metric, self);
}

Neighbours NeighbourIndex::nearest_to(std::span<const float> q, int64_t k, Metric metric,
                                      std::span<const int32_t> exclude) const {
  check_at_least("nearest", "k", k, 1);
  if (static_cast<int64_t>(q.size()) != dim_) {
    fail("nearest", "query vector has " + std::to_string(q.size()) + " values, expected D = " + std::to_string(dim_));
  }
  for (size_t d = 0; d < q.size(); ++d) {
    if (!std::isfinite(q[d])) {
      fail("nearest", "query value " + format_number(q[d]) + " at index " + std::to_string(d) + " is not finite");
    }
  }
  // scores for every row, then the top k; planned once per query
  MemoryPlan p("nearest");
  p.add("excluded rows", {rows_}, kBytes);
  p.add("candidate scores", {rows_, static_cast<int64_t>(sizeof(Candidate))}, kBytes);
  p.add("row scores", {rows_}, kFloat32);
  p.add("difference vectors", {metric == Metric::Euclidean ? threads() : 0, dim_}, kFloat32);
  p.add("neighbours", {std::min(rows_, k), 2}, kInt32);
  p.check();
  std::vector<char> skip(static_cast<size_t>(rows_), 0);
  for (const int32_t e : exclude) {
    check_index("nearest", "excluded id", e, 0, rows_);
    skip[static_cast<size_t>(e)] = 1;
  }
  const size_t D = static_cast<size_t>(dim_);
  const float qn = std::sqrt(kernels::dot(D, q.data(), q.data()));
  if (metric == Metric::Cosine && qn == 0.0f) {
    fail("nearest", "the query vector is all zeros, so its cosine similarity is undefined");
  }

  // Each row's score in blocks of kScanBlock rows, on the engine's threads (core/parallel.hpp):
  // a block writes only its rows' scores, so the scores, and the neighbours sorted from them, are
  // the same bytes at every thread count.
  // subtle: each row is one kernels::dot, the table read as one sequential stream per block:
  // interleaving 8 rows (dense::dot_rows, which hides the add latency and speeds up the PCA) made
  // this scan slower, 11.3 ms against 7.4-9.6 ms for 50257 x 768 on one thread: the table does
  // not fit in cache and the scan is bound by memory, which 8 strided streams read less well.
  std::vector<float> scores(static_cast<size_t>(rows_), 0.0f);
  parallel_for(rows_, kScanBlock, [&](int64_t begin, int64_t end, int64_t) {
    std::vector<float> diff(metric == Metric::Euclidean ? D : 0);
    for (int64_t r = begin; r < end; ++r) {
      if (skip[static_cast<size_t>(r)]) continue;
      const float* row = table_.data() + r * dim_;
      float s;
      if (metric == Metric::Cosine) {
        const float rn = norms_[static_cast<size_t>(r)];
        // subtle: (dot / |q|) / |r|, not dot / (|q| |r|): the product of two tiny norms underflows.
        s = rn == 0.0f ? 0.0f : kernels::dot(D, q.data(), row) / qn / rn;
      } else {
        for (size_t d = 0; d < D; ++d) diff[d] = q[d] - row[d];
        s = std::sqrt(kernels::dot(D, diff.data(), diff.data()));
      }
      scores[static_cast<size_t>(r)] = s;
    }
  });
  std::vector<Candidate> c;
  c.reserve(static_cast<size_t>(rows_));
  for (int64_t r = 0; r < rows_; ++r) {
    if (!skip[static_cast<size_t>(r)]) c.push_back({scores[static_cast<size_t>(r)], static_cast<int32_t>(r)});
  }

  const size_t m = std::min(c.size(), static_cast<size_t>(k));
  const bool descending = metric == Metric::Cosine;
  std::partial_sort(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(m), c.end(),
                    [descending](const Candidate& a, const Candidate& b) {
                      if (a.score != b.score) return descending ? a.score > b.score : a.score < b.score;
                      return a.id < b.id;
                    });
  Neighbours out;
  out.ids.resize(m);
  out.scores.resize(m);
  for (size_t i = 0; i < m; ++i) out.ids[i] = c[i].id, out.scores[i] = c[i].score;
  return out;
}

Neighbours NeighbourIndex::analogy(std::span<const int32_t> positive, std::span<const int32_t> negative,
                                   int64_t k) const {
  if (positive.empty() && negative.empty()) fail("analogy", "needs at least one positive or negative id");
  check_at_least("analogy", "k", k, 1);
  const size_t D = static_cast<size_t>(dim_);
  MemoryPlan p("analogy");
  p.add("mean vector", {dim_}, kFloat32);
  p.add("input ids", {static_cast<int64_t>(positive.size()) + static_cast<int64_t>(negative.size())}, kInt32);
  p.check();
  std::vector<float> mean(D, 0.0f);
  std::vector<int32_t> inputs;
  // mean = (sum unit(p) - sum unit(n)) / (P + N), as gensim's most_similar
  auto add = [&](std::span<const int32_t> ids, const char* name, float sign) {
    for (const int32_t id : ids) {
      check_index("analogy", name, id, 0, rows_);
      const float n = norms_[static_cast<size_t>(id)];
      if (n == 0.0f) fail("analogy", "row " + std::to_string(id) + " is all zeros and has no direction");
      kernels::axpy(D, sign / n, table_.data() + id * dim_, mean.data());
      inputs.push_back(id);
    }
  };
  add(positive, "positive id", 1.0f);
  add(negative, "negative id", -1.0f);
  kernels::scale(D, 1.0f / static_cast<float>(inputs.size()), mean.data(), mean.data());
  if (all_zero(mean)) fail("analogy", "the inputs cancel out: their weighted mean is all zeros");
  return nearest_to(mean, k, Metric::Cosine, inputs);
}

}  // namespace embedlab
