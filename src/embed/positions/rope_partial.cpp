// Positional kind "rope-partial": RoPE on the fastest pairs only (p-RoPE, Barbero et al. 2024,
// "Round and Round We Go! What makes Rotary Positional Encodings useful?"; GPT-NeoX's rotary_pct
// in spirit). The first floor(fraction * D / 2) pairs keep RoPE's frequencies base^(-2i/D); the
// remaining, lowest-frequency pairs get frequency 0 and are left unrotated, free to carry content
// without a position. fraction 1 is RoPE, 0 is no position at all. Nothing to train.
// Unlike GPT-NeoX it does not respread the frequencies over the rotated dimensions: the kept
// pairs have exactly RoPE's frequencies, as in p-RoPE.
// Parameters: base (10000), fraction (0.75).
#include <cmath>
#include <vector>

#include "embed/positions/registry.hpp"
#include "embed/positions/rope.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

namespace {

// D -> (D/2) inv_freq_i = base^(-2i/D) for i < floor(fraction * D / 2), 0 after.
// Example: D = 8, base 100, fraction 0.5 -> {1, 0.1, 0, 0}.
std::vector<double> partial_frequencies(int64_t D, const PositionValues& v) {
  std::vector<double> w = position_frequencies("rope-partial", D, v.at("base"));
  const double kept = std::floor(v.at("fraction") * static_cast<double>(D) / 2.0);
  for (size_t i = 0; i < w.size(); ++i) {
    if (static_cast<double>(i) >= kept) w[i] = 0.0;
  }
  return w;
}

}  // namespace

const PositionKind& rope_partial_positions() {
  static const PositionKind k{
      .name = "rope-partial",
      .label = "Partial RoPE",
      .description = "RoPE on the fastest pairs only: the lowest-frequency pairs (1 − fraction of them) are left unrotated (p-RoPE, Barbero et al. 2024).",
      .provides = PositionRole::Rotation,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base"},
                 {"fraction", 0.75, 0, 1, false, "the share of pairs rotated, fastest first"}},
      .trainable = false,
      .even_dim = true,
      .plan = plan_rope_table,
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return make_rope_encoding(s, partial_frequencies(s.D, v));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        check_position_table("rope-partial", s.T, s.D, true);
        return rope_position_table(s, partial_frequencies(s.D, v));
      },
      .inv_freq = partial_frequencies,
  };
  return k;
}

}  // namespace embedlab
