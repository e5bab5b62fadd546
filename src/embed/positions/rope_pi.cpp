// Positional kind "rope-pi": RoPE with position interpolation (Chen et al. 2023, "Extending
// Context Window of Large Language Models via Positional Interpolation", eq. 4): a model trained
// on original_context positions reads position p as p / factor, so factor x original_context
// positions fall inside the trained range of angles. The rotation is RoPE's (rope.cpp) with every
// frequency divided by the factor, inv_freq_i = base^(-2i/D) / factor, as HF transformers' "linear"
// rope scaling does. Nothing to train; the attention logits are not rescaled.
// It does not fine-tune (that is the trainer's --finetune step) and does not change with T.
// Parameters: base (10000), factor (2), original_context (32: the training context the factor
// extends; the formula uses only the factor, the page marks it).
#include <vector>

#include "embed/positions/registry.hpp"
#include "embed/positions/rope.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

namespace {

// D -> (D/2) inv_freq_i = base^(-2i/D) / factor.
// Example: D = 4, base 100, factor 2 -> {0.5, 0.05}.
std::vector<double> pi_frequencies(int64_t D, const PositionValues& v) {
  std::vector<double> w = position_frequencies("rope-pi", D, v.at("base"));
  for (double& x : w) x /= v.at("factor");
  return w;
}

}  // namespace

const PositionKind& rope_pi_positions() {
  static const PositionKind k{
      .name = "rope-pi",
      .label = "RoPE + interpolation",
      .description = "RoPE with positions divided by the factor, so a longer window stays inside the trained angles (position interpolation, Chen et al. 2023).",
      .provides = PositionRole::Rotation,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base"},
                 {"factor", 2, 1, 1024, false, "the context extension: positions are divided by it"},
                 {"original_context", 32, 1, kMaxPositions, true, "the context the model was trained at"}},
      .trainable = false,
      .even_dim = true,
      .plan = plan_rope_table,
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return make_rope_encoding(s, pi_frequencies(s.D, v));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        check_position_table("rope-pi", s.T, s.D, true);
        return rope_position_table(s, pi_frequencies(s.D, v));
      },
      .inv_freq = pi_frequencies,
  };
  return k;
}

}  // namespace embedlab
