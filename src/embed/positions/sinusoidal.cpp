// Positional kind "sinusoidal" (Vaswani et al. 2017, sec. 3.5): a fixed (T, D) table added to
// the token rows; nothing to train. Parameter: the frequency base (10000).
#include "embed/positions/sinusoidal.hpp"

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"

namespace embedlab {

std::vector<double> position_frequencies(const char* where, int64_t D, double base) {
  check_at_least(where, "dim", D, 1);
  std::vector<double> w(plan(where, "frequencies", D / 2, kFloat64));
  const double lb = detmath::log(base);
  for (int64_t i = 0; i < D / 2; ++i) w[i] = detmath::exp(-(2.0 * i / D) * lb);
  return w;
}

std::vector<float> sinusoidal(int64_t T, int64_t D, double base) {
  const size_t n = check_position_table("sinusoidal", T, D, true);
  const std::vector<double> w = position_frequencies("sinusoidal", D, base);
  std::vector<float> pe(n);
  for (int64_t p = 0; p < T; ++p) {
    for (int64_t i = 0; i < D / 2; ++i) {
      double s = 0, c = 0;
      detmath::sincos(static_cast<double>(p) * w[i], &s, &c);
      pe[p * D + 2 * i] = static_cast<float>(s);
      pe[p * D + 2 * i + 1] = static_cast<float>(c);
    }
  }
  return pe;
}

namespace {

class Sinusoidal : public PositionEncoding {
 public:
  Sinusoidal(const PositionShape& s, double base) : P_(sinusoidal(s.T, s.D, base)), T_(s.T), D_(s.D) {}
  const float* additive() const override { return P_.data(); }
  const std::vector<float>* table(int64_t* rows, int64_t* cols) const override {
    *rows = T_, *cols = D_;
    return &P_;
  }

 private:
  std::vector<float> P_;  // (T, D)
  int64_t T_, D_;
};

}  // namespace

const PositionKind& sinusoidal_positions() {
  static const PositionKind k{
      .name = "sinusoidal",
      .label = "sinusoidal",
      .description = "Fixed sines and cosines of p·base^(-2i/D) added to the token rows (Vaswani et al. 2017).",
      .provides = PositionRole::Additive,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base"}},
      .trainable = false,
      .even_dim = true,
      .plan = [](MemoryPlan& p, const PositionShape& s, const PositionValues&, int) {
        p.add("position table", {s.T, s.D}, kFloat32);
      },
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Sinusoidal>(s, v.at("base"));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        return PositionTable{{s.T, s.D}, sinusoidal(s.T, s.D, v.at("base"))};
      },
  };
  return k;
}

}  // namespace embedlab
