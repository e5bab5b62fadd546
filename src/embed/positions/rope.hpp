// Rotary position embedding, RoPE (Su et al. 2021, RoFormer eq. 34, interleaved pairs); the
// kind is in rope.cpp.
//   rope_apply(x, T, D, offset) -> x (T, D) with each pair (x[2i], x[2i+1]) of row t rotated by
//                                  (offset + t) * theta_i, theta_i = base^(-2i/D). Rotations
//                                  preserve norms, and <rope(q, m), rope(k, n)> depends only on m - n.
//   rope_apply(x, T, D, offset, inv_freq) -> the same with per-pair frequencies (D/2) in place of
//                                  theta_i (a rotation kind's inv_freq; 0 leaves the pair as it is).
//   rope_apply_inverse          -> the transpose rotation (the backward pass).
//   rope_table(T, D)            -> (T, D) = rope applied to (1, 0, 1, 0, ...): the pairs
//                                  (cos p theta_i, sin p theta_i), what `posenc --kind rope` prints.
//   rope_table(T, D, inv_freq)  -> the same with per-pair frequencies (D/2) in place of theta_i:
//                                  the one rotation the scaled kinds (rope-pi, rope-ntk, rope-yarn,
//                                  rope-partial) share; a pair with frequency 0 is left unrotated.
//   make_rope_encoding(s, inv_freq, attention_scale) -> a rotation kind's part of a model.
// Example: rope_table(2, 2) = {1, 0, cos 1, sin 1}.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "embed/positions/registry.hpp"

namespace embedlab {

// x (T, D) rotated in place; row t is at position offset + t. x must hold T x D floats.
void rope_apply(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
// The same with the size of x checked against T x D (in 64 bits) first.
void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
// x (T, D) rotated in place by (offset + t) * inv_freq_i, inv_freq (D/2): the one rotation above
// with a rotation kind's frequencies (PositionKind::inv_freq). Throws when x is not T x D floats
// or inv_freq not D/2 values. With inv_freq = position_frequencies(D, base) it gives the bits of
// rope_apply(x, T, D, offset, base).
void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset, std::span<const double> inv_freq);
void rope_apply_inverse(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
std::vector<float> rope_table(int64_t T, int64_t D, double base = 10000.0);
// inv_freq (D/2) -> (T, D) pairs (cos p inv_freq_i, sin p inv_freq_i); throws when the size differs.
std::vector<float> rope_table(int64_t T, int64_t D, std::span<const double> inv_freq);

// Shared by the rotation kinds: the model's part (queries and keys rotated with the table of
// s.T positions; attention_scale multiplies the attention logits) and the `posenc` table with
// the (T, D) table `posenc` prints.
std::unique_ptr<PositionEncoding> make_rope_encoding(const PositionShape& s, std::span<const double> inv_freq,
                                                     double attention_scale = 1.0);
PositionTable rope_position_table(const PositionShape& s, std::span<const double> inv_freq);
// A rotation kind's buffers: its (T, D) table.
void plan_rope_table(MemoryPlan& p, const PositionShape& s, const PositionValues& v, int moments);

}  // namespace embedlab
