// Positional kind "rope-ntk": NTK-aware RoPE scaling (bloc97 2023, as HF transformers' rope
// utilities implement it in _compute_dynamic_ntk_parameters, here in its static form at the full
// factor): the base grows to base' = base * factor^(D/(D-2)), so the lowest frequency is divided
// by the factor (interpolated) while the highest stay almost as they were (extrapolated).
// inv_freq_i = base'^(-2i/D). Nothing to train; the attention logits are not rescaled.
// It does not implement dynamic NTK (a base that grows with the current length).
// Parameters: base (10000), factor (2), original_context (32: the training context the factor
// extends; the static formula uses only the factor, the page marks it). Needs D >= 4.
#include <vector>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"
#include "embed/positions/rope.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

namespace {

// D -> (D/2) inv_freq_i = (base * factor^(D/(D-2)))^(-2i/D).
// Example: D = 4, base 100, factor 2 -> base' = 100 * 2^2 = 400 -> {1, 0.05}.
std::vector<double> ntk_frequencies(int64_t D, const PositionValues& v) {
  if (D < 4) fail("rope-ntk", "dim must be at least 4 (the base grows by factor^(D/(D-2))), got " + std::to_string(D));
  const double d = static_cast<double>(D);
  const double base = v.at("base") * detmath::exp(d / (d - 2.0) * detmath::log(v.at("factor")));
  return position_frequencies("rope-ntk", D, base);
}

}  // namespace

const PositionKind& rope_ntk_positions() {
  static const PositionKind k{
      .name = "rope-ntk",
      .label = "RoPE + NTK-aware",
      .description = "RoPE with its base raised to base·factor^(D/(D−2)): the slowest pair is interpolated by the factor, the fastest barely change (NTK-aware scaling).",
      .provides = PositionRole::Rotation,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base before scaling"},
                 {"factor", 2, 1, 1024, false, "the context extension: the base grows by factor^(D/(D-2))"},
                 {"original_context", 32, 1, kMaxPositions, true, "the context the model was trained at"}},
      .trainable = false,
      .even_dim = true,
      .plan = plan_rope_table,
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return make_rope_encoding(s, ntk_frequencies(s.D, v));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        check_position_table("rope-ntk", s.T, s.D, true);
        return rope_position_table(s, ntk_frequencies(s.D, v));
      },
      .inv_freq = ntk_frequencies,
  };
  return k;
}

}  // namespace embedlab
