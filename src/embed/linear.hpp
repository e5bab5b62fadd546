// A bias-free linear layer and one-hot encoding: the "lookup = one-hot x W" identity.
//
// LLMs-from-scratch (ch02/03_bonus_embedding-vs-matmul) shows that
//   nn.Embedding(V, D)(ids) == one_hot(ids, V) @ W   (W: V x D)
// and that nn.Linear(V, D, bias=False) with weight W^T computes the same, with the
// same weight gradient. Here a Linear stores weight (out, in) like torch.
//
// Matrix products are written as sums of axpy rows (kernels::axpy), so each
// output element is accumulated in the same order in every build: the native
// and wasm results are bit-identical, and one-hot products are exact
// (adding 0*w and 1*w changes nothing), so the two paths agree to the bit.
//
// Intended usage:
//   Generator g(123);
//   Embedding emb(4, 5, g);
//   Linear lin = Linear::from_embedding(emb);        // weight (5, 4) = W^T
//   auto x = one_hot({2, 3, 1}, 4);                  // (3, 4)
//   auto y = lin.forward(x, 3);                       // (3, 5) == emb.forward({2, 3, 1})
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace embedlab {

class Embedding;

// ids (n) -> (n, V) float32 rows with a single 1 at ids[i].
std::vector<float> one_hot(std::span<const int32_t> ids, int64_t V);

// a (n, k) @ b (k, m) -> (n, m), axpy order (deterministic across builds).
std::vector<float> matmul(std::span<const float> a, std::span<const float> b, int64_t n,
                          int64_t k, int64_t m);

class Linear {
 public:
  // nn.Linear(in, out, bias=False): weight (out, in) ~ U(-1/sqrt(in), 1/sqrt(in)) from g.
  Linear(int64_t in_features, int64_t out_features, Generator& g);
  // weight (out, in) given explicitly.
  Linear(int64_t in_features, int64_t out_features, std::vector<float> weight);
  // A Linear(V, D) whose weight is the embedding table transposed.
  static Linear from_embedding(const Embedding& e);

  int64_t in_features() const { return in_; }
  int64_t out_features() const { return out_; }
  const std::vector<float>& weight() const { return W_; }  // (out, in)

  // x (n, in) -> y (n, out) = x @ W^T
  std::vector<float> forward(std::span<const float> x, int64_t n) const;
  // x (n, in), dy (n, out) -> dW (out, in) = dy^T @ x
  std::vector<float> backward_weight(std::span<const float> x, std::span<const float> dy,
                                     int64_t n) const;

 private:
  int64_t in_ = 0, out_ = 0;
  std::vector<float> W_;
};

}  // namespace embedlab
