// Positional kind "rope-yarn": YaRN (Peng et al. 2023, "YaRN: Efficient Context Window Extension
// of Large Language Models", sec. 3.2-3.4), as HF transformers' _compute_yarn_parameters
// computes it (truncate=True, rotary over the whole width). Each pair i of RoPE's frequencies
// w_i = base^(-2i/D) is blended between interpolated (w_i / factor) and extrapolated (w_i):
//   r = r(i) = clamp((i - low) / (high - low), 0, 1),   inv_freq_i = w_i / factor * r + w_i * (1 - r)
// where low and high are the correction dimensions of beta_fast and beta_slow rotations over the
// original context L:  dim(b) = D ln(L / (2 pi b)) / (2 ln base),  low = max(floor(dim(beta_fast)), 0),
// high = min(ceil(dim(beta_slow)), D - 1) (+0.001 when equal). Pairs that turn many times within L
// keep their frequency, pairs that turn less than once are interpolated, the ramp blends between.
// The attention logits are multiplied by attention_scale = (0.1 ln factor + 1)^2 (the paper's
// sqrt(1/t) on both q and k; HF folds 0.1 ln factor + 1 into cos and sin). The table `posenc`
// prints is the pure rotation, without that factor. Nothing to train.
// It does not implement dynamic YaRN or the mscale / mscale_all_dim variants.
// Parameters: base (10000), factor (2), original_context (32), beta_fast (32), beta_slow (1).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"
#include "embed/positions/rope.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The dimension at which RoPE turns `rotations` times over L positions (HF find_correction_dim).
double correction_dim(double rotations, double D, double base, double L) {
  return D * detmath::log(L / (rotations * 2.0 * kPi)) / (2.0 * detmath::log(base));
}

// D -> (D/2) YaRN's blended inv_freq (see the header).
// Example: D = 8, base 10000, factor 4, L 64 -> dim(32) = -0.50, dim(1) = 1.01, so low 0 and
// high 2: r = {0, 0.5, 1, 1}, inv_freq = {1, 0.0625, 0.0025, 0.00025}.
std::vector<double> yarn_frequencies(int64_t D, const PositionValues& v) {
  const double base = v.at("base"), factor = v.at("factor"), L = v.at("original_context");
  const double fast = v.at("beta_fast"), slow = v.at("beta_slow");
  if (!(slow < fast)) {
    fail("rope-yarn", "beta_slow " + format_number(slow) + " must be below beta_fast " + format_number(fast));
  }
  std::vector<double> w = position_frequencies("rope-yarn", D, base);
  const double d = static_cast<double>(D);
  const double low = std::max(std::floor(correction_dim(fast, d, base, L)), 0.0);
  double high = std::min(std::ceil(correction_dim(slow, d, base, L)), d - 1.0);
  if (low == high) high += 0.001;
  for (size_t i = 0; i < w.size(); ++i) {
    const double r = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    w[i] = w[i] / factor * r + w[i] * (1.0 - r);
  }
  return w;
}

// (0.1 ln factor + 1)^2: the factor on q.k (the paper's 1/t; 1 for factor 1).
double yarn_attention_scale(const PositionValues& v) {
  const double m = 0.1 * detmath::log(v.at("factor")) + 1.0;
  return m * m;
}

}  // namespace

const PositionKind& rope_yarn_positions() {
  static const PositionKind k{
      .name = "rope-yarn",
      .label = "RoPE + YaRN",
      .description = "RoPE whose slow pairs are interpolated by the factor and fast pairs kept, blended over a ramp, with attention logits scaled by (0.1 ln factor + 1)² (YaRN, Peng et al. 2023).",
      .provides = PositionRole::Rotation,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base"},
                 {"factor", 2, 1, 1024, false, "the context extension of the interpolated pairs"},
                 {"original_context", 32, 1, kMaxPositions, true, "the context the model was trained at"},
                 {"beta_fast", 32, 0.01, 1e4, false, "pairs turning more than this many times in the context are kept"},
                 {"beta_slow", 1, 0.01, 1e4, false, "pairs turning fewer than this many times are interpolated"}},
      .trainable = false,
      .even_dim = true,
      .plan = plan_rope_table,
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return make_rope_encoding(s, yarn_frequencies(s.D, v), yarn_attention_scale(v));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        check_position_table("rope-yarn", s.T, s.D, true);
        return rope_position_table(s, yarn_frequencies(s.D, v));
      },
      .inv_freq = yarn_frequencies,
      .attention_scale = yarn_attention_scale,
  };
  return k;
}

}  // namespace embedlab
