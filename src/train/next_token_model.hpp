// The next-token model: token embedding + positional encoding -> one causal self-attention
// head with a residual -> linear head -> softmax cross-entropy. Forward and a hand-written
// backward pass; no optimizer (next_token.hpp owns that).
//
// The positional encoding is a kind from the registry (embed/positions/registry.hpp); the model
// calls the hooks of what the kind provides and never names a kind:
//   x0  = E[ids] * s (+ P)          ids (B,T) int32 -> (N,D), N = B*T; s = sqrt(D) if scaled;
//                                   P: the (T,D) table of an additive kind
//   q,k,v = x0 Wq^T, x0 Wk^T, x0 Wv^T          (N,D) each, W* (D,D) in torch layout (out, in)
//   rotation kinds: q, k rotated per position
//   S   = q_b k_b^T / sqrt(D) (+ the bias b(i, j) of a bias kind), causal: j <= i     (B,T,T)
//   A   = softmax_j(S)                                                      (B,T,T)
//   h   = x0 + A_b v_b                                                      (N,D)
//   z   = h H^T                     H (V,D): a separate head or E itself (tied)   (N,V)
//   L   = mean_i [logsumexp(z_i) - z_i,target_i]
// Backward (chain rule through the lines above, in reverse):
//   dz = (softmax(z) - onehot)/N;  dH = dz^T h;  dh = dz H;  dx0 = dh (residual)
//   dA = dh_b v_b^T;  dv_b = A_b^T dh_b;  dS = A * (dA - rowsum(A * dA)) / sqrt(D)
//   (bias kinds get dS * sqrt(D), the gradient of the biased scores, before the 1/sqrt(D))
//   dq_b = dS k_b;  dk_b = dS^T q_b;  (rotation kinds: rotate dq, dk back)
//   dW* = d*^T x0;  dx0 += dq Wq + dk Wk + dv Wv
//   dE[ids] += dx0 * s (scatter of rows: the sparse embedding gradient); additive kinds get dx0
// Initialisation as torch with manual_seed(seed), in this order: E = nn.Embedding(V, D), the
// kind's trainable parameters (PositionKind::make; learned: nn.Embedding(T, D)), Wq, Wk,
// Wv = nn.Linear(D, D, bias=False), and H = nn.Linear(D, V, bias=False) when untied.
// All products run through dense::gemm_acc and exps through dense::exp_float / detmath,
// so the native and the wasm build compute the same bits.
//
// Intended usage:
//   NextTokenModel m(cfg);                                   // cfg.seed draws the tables
//   double loss = m.forward_backward(inputs, targets, B);    // fills m.grads()
//   double held_out = m.loss(inputs, targets, B);            // forward only
//   m.logits(window, T - 1, z);                              // (V) scores of the next token
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/memory.hpp"
#include "embed/positional.hpp"

namespace embedlab {

struct NextTokenConfig {
  int64_t vocab_size = 0;  // V
  int64_t dim = 64;        // D (even for kinds that need it, e.g. rope)
  int64_t context = 32;    // T
  std::string pos = "learned";  // a kind of the registry (position_kinds())
  PositionValues pos_params;    // the kind's parameters by name; missing ones take their default
  bool scale_embeddings = false;  // multiply token rows by sqrt(D)
  bool tie_head = false;          // head weight = token table
  uint64_t seed = 1;
};

// Throws "next-token: <name> ..." for the first bad field (check_config; the kind's parameters
// are checked against their ranges), then plans the model's buffers (validate). The model's
// config() has the kind's parameters filled in with their defaults.
void check_config(const NextTokenConfig& c);
void validate(const NextTokenConfig& c);

// Memory: every buffer the model allocates, by a name a person understands, for one MemoryPlan.
//   plan_model: what the constructor allocates: token/position/rotary/head tables, the
//               query/key/value weights and the gradient of each; `moments` optimizer state
//               buffers per parameter (0 for SGD, 2 for Adam's m and v).
//   plan_run:   what forward_backward (backward) or loss allocates for B rows: the (B,T,D)
//               activations, the attention scores (B,T,T), transposed weights, logits.
// Example: V 5, T 4096, B 256, D 8 -> "next-token: attention scores 256 x 4096 x 4096 float32
// need 16.0 GiB; the limit here is 2.0 GiB".
void plan_model(MemoryPlan& p, const NextTokenConfig& c, int moments = 0);
void plan_run(MemoryPlan& p, const NextTokenConfig& c, int64_t B, bool backward);

class NextTokenModel {
 public:
  explicit NextTokenModel(const NextTokenConfig& c);
  void init();  // redraw all tables from the seed

  const NextTokenConfig& config() const { return c_; }
  // Forward + backward on a batch: inputs, targets (B,T) int32. Returns the mean loss and
  // leaves gradients in the ParamViews (overwritten, not accumulated).
  double forward_backward(std::span<const int32_t> inputs, std::span<const int32_t> targets,
                          int64_t B);
  // Forward only: the mean loss.
  double loss(std::span<const int32_t> inputs, std::span<const int32_t> targets, int64_t B);
  // Forward only, one window: window (T) int32 ids -> out (V) float32, the head's scores z of
  // position `at` (what follows window[0..at]). Attention is causal, so the ids after `at` do
  // not change them: a prompt shorter than T is padded at the end (train/generate.hpp).
  void logits(std::span<const int32_t> window, int64_t at, std::span<float> out);

  std::vector<ParamView> params();
  // Copies every parameter of `from` (same vocabulary, width and kind; the context may differ
  // when the kind extrapolates): the same trained model, run on windows of another length.
  void load_parameters(NextTokenModel& from);
  // Rows of the token table that got a gradient in the last backward (ascending).
  const std::vector<int32_t>& touched_rows() const { return touched_; }

  const std::vector<float>& token_table() const { return E_; }        // (V, D)
  const std::vector<float>& head_table() const { return c_.tie_head ? E_ : H_; }  // (V, D)
  const PositionKind& position_kind() const { return *kind_; }
  // The kind's own table (PositionEncoding::table): (T, D) for additive kinds, the learned
  // biases of bias kinds; nullptr when the kind has none.
  const std::vector<float>* position_table(int64_t* rows, int64_t* cols) const { return pos_->table(rows, cols); }
  const std::vector<float>& attention() const { return A_; }  // (B,T,T) of the last forward

 private:
  void check_batch(std::span<const int32_t> inputs, std::span<const int32_t> targets, int64_t B) const;
  double run(std::span<const int32_t> inputs, std::span<const int32_t> targets, int64_t B, bool backward);
  void plan_for(int64_t B, bool backward);
  void forward(std::span<const int32_t> inputs, int64_t B);  // x0, q, k, v, A, h of B windows

  NextTokenConfig c_;
  int64_t planned_rows_ = 0;        // the largest batch the run buffers were planned for
  bool planned_backward_ = false;   // ... including the backward buffers
  const PositionKind* kind_ = nullptr;
  std::unique_ptr<PositionEncoding> pos_;                // the kind's part of the model
  std::vector<float> E_, Wq_, Wk_, Wv_, H_;              // parameters (torch layouts)
  std::vector<float> dE_, dWq_, dWk_, dWv_, dH_;         // gradients
  std::vector<int32_t> touched_;
  // activations and scratch, sized for the last batch
  std::vector<float> x0_, q_, k_, v_, h_, A_, dh_, dx0_, dq_, dk_, dv_;
  std::vector<float> WqT_, WkT_, WvT_, HT_, dHT_, logits_, chunkT_, tmpT_, dS_;
};

}  // namespace embedlab
