// Positional kind "alibi" (Press et al. 2022, "Train Short, Test Long"): no position vectors;
// each head adds -m_h (i - j) to its attention logits, a penalty linear in the distance, fixed,
// so nothing is learned and the model runs on any length.
//   slopes for H heads: 2^(-8h/H), h = 1..H, when H is a power of two, else the paper's
//   interleaving of the two nearest powers (reference code get_slopes).
//   bias (H, T, T): bias[h, i, j] = -m_h (i - j) for j <= i, -inf above the diagonal (causal).
// subtle: the paper's formula gives 2^-8 for a single head, which barely biases (held-out loss
// equal to no encoding on tinyshakespeare); the one-head model therefore takes the parameter
// `slope` (default 0.5, the first slope of the paper's 8-head set). Tables for H heads
// (`posenc --kind alibi --dim H`) use the paper's slopes.
// Example: H = 2 -> slopes 2^-4, 2^-8; bias[0, 2, 0] = -0.125.
#include <cmath>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"

namespace embedlab {

namespace {

std::vector<float> paper_slopes(int64_t H) {
  check_at_least("alibi", "heads", H, 1);
  if (H > 4096) fail("alibi", "heads " + std::to_string(H) + " out of range [1, 4096]");
  // 2^(-8 (h+1) / n) for h < n
  auto pow2_slopes = [](int64_t n) {
    std::vector<float> s(n);
    for (int64_t h = 0; h < n; ++h) s[h] = static_cast<float>(detmath::exp(-8.0 * (h + 1) / n * detmath::log(2.0)));
    return s;
  };
  int64_t n = 1;
  while (n * 2 <= H) n *= 2;
  std::vector<float> s = pow2_slopes(n);
  if (n == H) return s;
  const std::vector<float> extra = pow2_slopes(2 * n);
  for (int64_t k = 0; static_cast<int64_t>(s.size()) < H; k += 2) s.push_back(extra[k]);
  return s;
}

class Alibi : public PositionEncoding {
 public:
  Alibi(const PositionShape& s, double slope)
      : slopes_(s.heads == 1 ? std::vector<float>{static_cast<float>(slope)} : paper_slopes(s.heads)) {}
  void add_bias(int64_t h, int64_t i, float* scores) const override {
    const float m = slopes_[h];
    for (int64_t j = 0; j <= i; ++j) scores[j] = scores[j] - m * static_cast<float>(i - j);
  }

 private:
  std::vector<float> slopes_;  // (H)
};

}  // namespace

const PositionKind& alibi_positions() {
  static const PositionKind k{
      .name = "alibi",
      .label = "ALiBi",
      .description = "Adds -slope·(i - j) to the attention logits: a fixed penalty linear in the distance, nothing learned (Press et al. 2022).",
      .provides = PositionRole::Bias,
      .params = {{"slope", 0.5, 0, 1000, false, "the slope of the one-head model (H heads use 2^(-8h/H))"}},
      .trainable = false,
      .even_dim = false,
      .plan = [](MemoryPlan&, const PositionShape&, const PositionValues&, int) {},
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Alibi>(s, v.at("slope"));
      },
      .draw = [](const PositionShape& s, const PositionValues&, Generator&) {
        const std::vector<float> m = paper_slopes(s.heads);
        return causal_bias_table("alibi", s.heads, s.T,
                                 [&](int64_t h, int64_t i, int64_t j) { return -m[h] * static_cast<float>(i - j); });
      },
  };
  return k;
}

}  // namespace embedlab
