#include "embed/linear.hpp"

#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"
#include "embed/embedding.hpp"

namespace embedlab {
namespace {

// Throws unless got == rows x cols, computed in 64 bits (a negative factor or a product past
// 64 bits never matches): "Linear.forward: x has 0 values, expected 2147483648 x 2".
void check_size(const char* where, const char* name, size_t got, int64_t rows, int64_t cols) {
  uint64_t want = 0;
  if (rows < 0 || cols < 0 ||
      __builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), &want) ||
      static_cast<uint64_t>(got) != want) {
    fail(where, std::string(name) + " has " + std::to_string(got) + " values, expected " +
                    std::to_string(rows) + " x " + std::to_string(cols));
  }
}

}  // namespace

std::vector<float> one_hot(std::span<const int32_t> ids, int64_t V) {
  check_at_least("one_hot", "num_classes", V, 1);
  std::vector<float> out(plan("one_hot", "one-hot matrix", {static_cast<int64_t>(ids.size()), V}, kFloat32), 0.0f);
  for (size_t i = 0; i < ids.size(); ++i) {
    check_index("one_hot", "token id", ids[i], 0, V);
    out[i * V + ids[i]] = 1.0f;
  }
  return out;
}

std::vector<float> matmul(std::span<const float> a, std::span<const float> b, int64_t n, int64_t k,
                          int64_t m) {
  check_size("matmul", "a", a.size(), n, k);
  check_size("matmul", "b", b.size(), k, m);
  std::vector<float> c(plan("matmul", "output", {n, m}, kFloat32), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      const float aip = a[i * k + p];
      if (aip != 0.0f) kernels::axpy(m, aip, b.data() + p * m, c.data() + i * m);
    }
  }
  return c;
}

Linear::Linear(int64_t in_features, int64_t out_features, Generator& g)
    : in_(in_features), out_(out_features) {
  check_at_least("Linear", "in_features", in_features, 1);
  check_at_least("Linear", "out_features", out_features, 1);
  W_.resize(plan("Linear", "weight", {out_features, in_features}, kFloat32));
  g.kaiming_uniform(W_.data(), out_, in_);
}

Linear::Linear(int64_t in_features, int64_t out_features, std::vector<float> weight)
    : in_(in_features), out_(out_features), W_(std::move(weight)) {
  check_at_least("Linear", "in_features", in_features, 1);
  check_at_least("Linear", "out_features", out_features, 1);
  check_size("Linear", "weight", W_.size(), out_, in_);
}

Linear Linear::from_embedding(const Embedding& e) {
  const int64_t V = e.rows(), D = e.dim();
  std::vector<float> wt(plan("Linear.from_embedding", "weight", {D, V}, kFloat32));
  const auto& w = e.weight();
  for (int64_t v = 0; v < V; ++v)
    for (int64_t d = 0; d < D; ++d) wt[d * V + v] = w[v * D + d];
  return Linear(V, D, std::move(wt));
}

std::vector<float> Linear::forward(std::span<const float> x, int64_t n) const {
  check_at_least("Linear.forward", "n", n, 0);
  check_size("Linear.forward", "x", x.size(), n, in_);
  MemoryPlan p("Linear.forward");
  p.add("transposed weight", {in_, out_}, kFloat32);
  p.add("output", {n, out_}, kFloat32);
  p.check();
  // y[i, o] = sum_p x[i, p] * W[o, p]: accumulate rows of W^T in p order.
  std::vector<float> wt(W_.size());
  for (int64_t o = 0; o < out_; ++o)
    for (int64_t p = 0; p < in_; ++p) wt[p * out_ + o] = W_[o * in_ + p];
  return matmul(x, wt, n, in_, out_);
}

std::vector<float> Linear::backward_weight(std::span<const float> x, std::span<const float> dy,
                                           int64_t n) const {
  check_size("Linear.backward", "x", x.size(), n, in_);
  check_size("Linear.backward", "dy", dy.size(), n, out_);
  // dW[o, :] = sum_i dy[i, o] * x[i, :], in i order (the order of the lookup's scatter-add).
  std::vector<float> dW(plan("Linear.backward", "weight gradient", {out_, in_}, kFloat32), 0.0f);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t o = 0; o < out_; ++o) {
      const float g = dy[i * out_ + o];
      if (g != 0.0f) kernels::axpy(in_, g, x.data() + i * in_, dW.data() + o * in_);
    }
  return dW;
}

}  // namespace embedlab
