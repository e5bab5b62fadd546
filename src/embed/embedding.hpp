// The token embedding table: a V x D float32 lookup table, as torch.nn.Embedding.
//
// Shape letters (used across src/): V vocabulary size, D embedding width,
// T context length, B batch, K negatives. Gradients carry a d prefix.
//
// forward:  ids (n) int32 -> out (n, D) float32, out[i] = W[ids[i]] * s
//           (s = sqrt(D) when scale is on, the seed notebooks' Embeddings module,
//            as float(math.sqrt(D)) multiplied in float like torch).
// [B,T] batches are the same call with n = B*T; the output is (B, T, D) row-major.
// backward: dout (n, D) -> sparse row gradients (unique ids ascending, repeated ids
//           summed in order of occurrence) or a dense (V, D) gradient. The padding
//           row gets no gradient; a frozen table refuses backward.
// max_norm: torch's embedding_renorm_: before a lookup, every referenced row whose
//           p-norm exceeds max_norm is rescaled in place by max_norm / (norm + 1e-7).
//
// Intended usage:
//   Generator g(123);
//   Embedding emb(6, 3, g);                       // manual_seed(123); nn.Embedding(6, 3)
//   std::vector<float> out = emb.forward({2, 3, 1});   // (3, 3)
//   SparseGrad dW = emb.backward_sparse({2, 3, 1}, dout);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace embedlab {

struct EmbeddingOptions {
  // none, or a row in [-V, V); negative values -k mean V-k as in torch (-1 is the last row).
  // After construction options() holds the resolved row in [0, V).
  std::optional<int64_t> padding_idx;
  float max_norm = 0.0f;     // 0: none
  float norm_type = 2.0f;    // p of the p-norm used by max_norm
  bool scale = false;        // multiply by sqrt(D)
};

// Row gradients of a table: rows[k] is a row index, values (rows.size(), D).
struct SparseGrad {
  std::vector<int32_t> rows;
  std::vector<float> values;
};

class Embedding {
 public:
  // Drawn as nn.Embedding(V, D): normal(0, 1) from g, then the padding row zeroed.
  Embedding(int64_t V, int64_t D, Generator& g, const EmbeddingOptions& opts = {});
  // From pretrained weights (V*D values, row-major), as nn.Embedding.from_pretrained.
  static Embedding from_pretrained(std::vector<float> weights, int64_t V, int64_t D,
                                   const EmbeddingOptions& opts = {}, bool freeze = true);

  int64_t rows() const { return V_; }
  int64_t dim() const { return D_; }
  const EmbeddingOptions& options() const { return opts_; }
  bool frozen() const { return frozen_; }
  void set_frozen(bool f) { frozen_ = f; }
  // The multiplier applied on lookup: sqrt(D) when scale is on, else 1.
  float scale_factor() const;

  const std::vector<float>& weight() const { return W_; }
  std::vector<float>& weight_mut() { return W_; }
  std::span<const float> row(int64_t id) const;

  // Throws "<where>: token id <id> out of range [0, V)" for the first bad id.
  void check_ids(std::span<const int32_t> ids, const char* where) const;

  // ids (n) -> out (n, D). Applies max_norm renormalisation first (mutates W).
  std::vector<float> forward(std::span<const int32_t> ids);
  void forward(std::span<const int32_t> ids, float* out);
  // ids (n), pos (T, D) -> out (n, D) = W[ids[i]] * s + pos[i % T]: the fused
  // token + position forward; pos may be empty.
  // out must hold ids.size() x D floats and pos T x D; the caller sizes them (with plan()).
  void forward_with_positions(std::span<const int32_t> ids, const float* pos, size_t T,
                              float* out);
  // The same with the sizes checked: pos must hold T x D values (T >= 1, checked in 64 bits)
  // and the (n, D) output is planned before it is allocated ("lookup: output 64 x 67108864
  // float32 need 16.0 GiB; the limit here is 2.0 GiB").
  std::vector<float> forward_with_positions(std::span<const int32_t> ids, std::span<const float> pos,
                                            int64_t T);

  // dout (n, D) -> gradient of sum(out * dout) with respect to W.
  SparseGrad backward_sparse(std::span<const int32_t> ids, std::span<const float> dout) const;
  std::vector<float> backward_dense(std::span<const int32_t> ids,
                                    std::span<const float> dout) const;

 private:
  Embedding(int64_t V, int64_t D, const EmbeddingOptions& opts);
  void renorm(std::span<const int32_t> ids);
  void check_backward(std::span<const int32_t> ids, std::span<const float> dout,
                      const char* where) const;

  int64_t V_ = 0, D_ = 0;
  EmbeddingOptions opts_;
  bool frozen_ = false;
  std::vector<float> W_;  // (V, D)
};

}  // namespace embedlab
