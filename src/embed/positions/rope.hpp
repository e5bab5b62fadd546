// Rotary position embedding, RoPE (Su et al. 2021, RoFormer eq. 34, interleaved pairs); the
// kind is in rope.cpp.
//   rope_apply(x, T, D, offset) -> x (T, D) with each pair (x[2i], x[2i+1]) of row t rotated by
//                                  (offset + t) * theta_i, theta_i = base^(-2i/D). Rotations
//                                  preserve norms, and <rope(q, m), rope(k, n)> depends only on m - n.
//   rope_apply_inverse          -> the transpose rotation (the backward pass).
//   rope_table(T, D)            -> (T, D) = rope applied to (1, 0, 1, 0, ...): the pairs
//                                  (cos p theta_i, sin p theta_i), what `posenc --kind rope` prints.
// Example: rope_table(2, 2) = {1, 0, cos 1, sin 1}.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace embedlab {

// x (T, D) rotated in place; row t is at position offset + t. x must hold T x D floats.
void rope_apply(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
// The same with the size of x checked against T x D (in 64 bits) first.
void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
void rope_apply_inverse(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
std::vector<float> rope_table(int64_t T, int64_t D, double base = 10000.0);

}  // namespace embedlab
