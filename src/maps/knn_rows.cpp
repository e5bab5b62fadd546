// The rows a kNN search measures (maps/knn.hpp): KnnRows (a checked working copy, unit rows for
// cosine, the squared norms and the distance proxies), knn_method_name and knn_recall. It does
// not search: KnnBuild, knn_graph and knn_query are in knn.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/dense.hpp"
#include "kernels/kernels.hpp"
#include "maps/knn.hpp"

namespace embedlab {

const char* knn_method_name(KnnMethod m) {
  switch (m) {
    case KnnMethod::Exact: return "exact";
    case KnnMethod::Descent: return "nn-descent";
    case KnnMethod::Auto: break;
  }
  return "auto";
}

KnnRows::KnnRows(std::span<const float> table, int64_t rows, int64_t dim, Metric metric, const char* where)
    : rows_(rows), dim_(dim), metric_(metric) {
  check_at_least(where, "rows", rows, 1);
  check_at_least(where, "dim", dim, 1);
  uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(dim), &want) || table.size() != want) {
    fail(where, "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) + " x " +
                    std::to_string(dim));
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (!std::isfinite(table[i])) {
      fail(where, "table value " + format_number(table[i]) + " at row " + std::to_string(i / dim) + ", column " +
                      std::to_string(i % dim) + " is not finite");
    }
  }
  data_.resize(plan(where, "working copy of the rows", {rows, dim}, kFloat32));
  const size_t D = static_cast<size_t>(dim);
  if (metric == Metric::Cosine) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* src = table.data() + r * dim;
      float* dst = data_.data() + r * dim;
      const float len = std::sqrt(kernels::dot(D, src, src));
      for (size_t c = 0; c < D; ++c) dst[c] = len > 0 ? src[c] / len : 0.0f;
    }
    return;
  }
  std::vector<double> mean(D, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < D; ++c) mean[c] += table[r * dim + c];
  mean_.resize(D);
  for (size_t c = 0; c < D; ++c) mean_[c] = static_cast<float>(mean[c] / static_cast<double>(rows));
  sq_.resize(plan(where, "squared norms", rows, kFloat32));
  for (int64_t r = 0; r < rows; ++r) {
    float* dst = data_.data() + r * dim;
    for (size_t c = 0; c < D; ++c) dst[c] = table[r * dim + c] - mean_[c];
    sq_[r] = kernels::dot(D, dst, dst);
  }
}

float KnnRows::proxy(int64_t i, int64_t j) const {
  const float d = kernels::dot(static_cast<size_t>(dim_), row(i), row(j));
  const float p = metric_ == Metric::Cosine ? 1.0f - d : (sq_[i] + sq_[j]) - 2.0f * d;
  return p > 0 ? p : 0.0f;
}

void KnnRows::proxies(const float* q, float q_sq, const int32_t* ids, size_t count, float* out, const float** ptrs) const {
  for (size_t c = 0; c < count; ++c) ptrs[c] = row(ids[c]);
  dense::dot_rows(static_cast<size_t>(dim_), q, ptrs, count, out);
  for (size_t c = 0; c < count; ++c) {
    const float p = metric_ == Metric::Cosine ? 1.0f - out[c] : (q_sq + sq_[ids[c]]) - 2.0f * out[c];
    out[c] = p > 0 ? p : 0.0f;
  }
}

float KnnRows::distance(float proxy) const { return metric_ == Metric::Cosine ? proxy : std::sqrt(proxy); }

std::vector<float> KnnRows::prepare(const float* v) const {
  const size_t D = static_cast<size_t>(dim_);
  std::vector<float> q(D);
  if (metric_ == Metric::Cosine) {
    const float len = std::sqrt(kernels::dot(D, v, v));
    for (size_t c = 0; c < D; ++c) q[c] = len > 0 ? v[c] / len : 0.0f;
  } else {
    for (size_t c = 0; c < D; ++c) q[c] = v[c] - mean_[c];
  }
  return q;
}

double knn_recall(const KnnGraph& approx, const KnnGraph& exact) {
  if (approx.n != exact.n || approx.k != exact.k) fail("knn_recall", "the two graphs differ in shape");
  int64_t hit = 0;
  for (int64_t i = 0; i < exact.n; ++i) {
    const int32_t* a = approx.ids.data() + i * approx.k;
    for (int64_t j = 0; j < exact.k; ++j)
      hit += std::find(a, a + approx.k, exact.ids[i * exact.k + j]) != a + approx.k;
  }
  return exact.n == 0 ? 1.0 : static_cast<double>(hit) / static_cast<double>(exact.n * exact.k);
}

}  // namespace embedlab
