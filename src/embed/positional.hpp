// Positional encodings: sinusoidal, learned absolute, rotary (RoPE) and ALiBi.
//
// Shapes: T positions, D width (even for sinusoidal and rope), H heads (alibi).
//   sinusoidal(T, D)        -> (T, D): PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i),
//                              w_i = 10000^(-2i/D) (Vaswani et al. 2017, sec. 3.5);
//                              computed in double with detmath, rounded once to float.
//   LearnedPositions(T, D)  -> a (T, D) table drawn like nn.Embedding(T, D); asking for a
//                              position >= T throws (GPT-2 style absolute positions).
//   rope_apply(x, T, D)     -> x (T, D) with each pair (x[2i], x[2i+1]) at position p
//                              rotated by p * theta_i, theta_i = base^(-2i/D)
//                              (RoFormer, Su et al. 2021, eq. 34, interleaved pairs).
//                              Rotations preserve norms, and <rope(q, m), rope(k, n)>
//                              depends only on m - n.
//   rope_table(T, D)        -> (T, D) = rope applied to (1, 0, 1, 0, ...): the pairs
//                              (cos p theta_i, sin p theta_i), what `posenc --kind rope` prints.
//   alibi_slopes(H)         -> (H): 2^(-8h/H) for h = 1..H when H is a power of two, else the
//                              paper's interleaving of the two nearest powers (Press et al. 2022).
//   alibi_bias(H, T)        -> (H, T, T): bias[h, i, j] = -slope_h * (i - j) for j <= i,
//                              -inf above the diagonal (causal).
//
// Intended usage:
//   auto pe = sinusoidal(128, 64);           // pe[1*64 + 0] == sin(1)
//   LearnedPositions lp(256, 64, g);         // after the token table, as GPT models do
//   emb.forward_with_positions(ids, lp.table().data(), T, out);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/rng.hpp"

namespace embedlab {

// The largest position any encoding accepts (keeps angle reduction exact).
inline constexpr int64_t kMaxPositions = 1 << 20;

std::vector<float> sinusoidal(int64_t T, int64_t D, double base = 10000.0);

class LearnedPositions {
 public:
  LearnedPositions(int64_t context_length, int64_t D, Generator& g);
  int64_t context_length() const { return T_; }
  int64_t dim() const { return D_; }
  const std::vector<float>& table() const { return P_; }
  std::vector<float>& table_mut() { return P_; }
  // positions 0..T-1 -> (T, D); throws for T > context_length.
  std::vector<float> forward(int64_t T) const;
  // explicit positions -> (n, D)
  std::vector<float> forward(std::span<const int32_t> positions) const;

 private:
  int64_t T_ = 0, D_ = 0;
  std::vector<float> P_;
};

// theta_i = base^(-2i/D) for i in [0, D/2)
std::vector<double> rope_frequencies(int64_t D, double base = 10000.0);
// x (T, D) rotated in place; row t is at position offset + t. x must hold T x D floats.
void rope_apply(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
// The same with the size of x checked against T x D (in 64 bits) first.
void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
// x (T, D) rotated back (the transpose rotation), for the backward pass.
void rope_apply_inverse(float* x, int64_t T, int64_t D, int64_t offset = 0, double base = 10000.0);
std::vector<float> rope_table(int64_t T, int64_t D, double base = 10000.0);

std::vector<float> alibi_slopes(int64_t H);
std::vector<float> alibi_bias(int64_t H, int64_t T);

// (T, T) matrix of dot products between position rows of a (T, D) table: what the page
// plots as "position x position similarity"; cosine when normalise is set. The table size is
// checked against T x D in 64 bits and the (T, T) output is planned ("position_similarity:
// similarity matrix 65536 x 65536 float32 need 16.0 GiB; the limit here is 2.0 GiB").
std::vector<float> position_similarity(std::span<const float> table, int64_t T, int64_t D,
                                       bool normalise);

// Kinds by name, for the CLI, the bindings and URL values: "none", "sinusoidal", "learned", "rope", "alibi".
enum class PositionKind { None, Sinusoidal, Learned, Rope, Alibi };
PositionKind parse_position_kind(const std::string& name);
const char* position_kind_name(PositionKind k);

}  // namespace embedlab
