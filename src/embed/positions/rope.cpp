// Positional kind "rope": queries and keys rotated per position (RoFormer eq. 34, interleaved
// pairs), so q.k depends only on the distance. The model keeps the (cos, sin) table of its T
// positions and rotates (rows, T, D) blocks with it; backward rotates the gradients back.
// Parameter: the frequency base (10000).
#include "embed/positions/rope.hpp"

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

namespace {

// x (T, D) rotated by sign * (offset + t) * w_i, w (D/2) the per-pair frequencies.
void rope_rotate(float* x, int64_t T, int64_t D, int64_t offset, std::span<const double> w, double sign) {
  // subtle: offset + T is formed only once both are known to be in range, so it cannot overflow.
  check_position_table("rope", T, D, true);
  check_at_least("rope", "offset", offset, 0);
  if (offset > kMaxPositions) {
    fail("rope", "offset " + std::to_string(offset) + " out of range [0, " + std::to_string(kMaxPositions) + "]");
  }
  check_position_table("rope", offset + T, D, true);
  if (static_cast<int64_t>(w.size()) != D / 2) {
    fail("rope", "inv_freq has " + std::to_string(w.size()) + " values, expected D / 2 = " + std::to_string(D / 2));
  }
  for (int64_t t = 0; t < T; ++t) {
    float* r = x + t * D;
    const double p = static_cast<double>(offset + t);
    for (int64_t i = 0; i < D / 2; ++i) {
      double s = 0, c = 0;
      detmath::sincos(p * w[i], &s, &c);
      const float cf = static_cast<float>(c), sf = static_cast<float>(sign * s);
      const float a = r[2 * i], b = r[2 * i + 1];
      r[2 * i] = a * cf - b * sf;
      r[2 * i + 1] = a * sf + b * cf;
    }
  }
}

void rope_rotate(float* x, int64_t T, int64_t D, int64_t offset, double base, double sign) {
  check_position_table("rope", T, D, true);
  rope_rotate(x, T, D, offset, position_frequencies("rope", D, base), sign);
}

// x (rows, T, D) rotated with a (T, D) table of (cos, sin) pairs: forward (x0 c - x1 s,
// x0 s + x1 c), inverse (x0 c + x1 s, x1 c - x0 s).
void rotate_rows(const std::vector<float>& cs_table, float* x, int64_t rows, int64_t T, int64_t D, bool inverse) {
  for (int64_t b = 0; b < rows; ++b) {
    for (int64_t t = 0; t < T; ++t) {
      float* r = x + (b * T + t) * D;
      const float* cs = cs_table.data() + t * D;
      for (int64_t i = 0; i < D; i += 2) {
        const float c = cs[i], s = cs[i + 1], x0 = r[i], x1 = r[i + 1];
        if (!inverse) {
          r[i] = x0 * c - x1 * s;
          r[i + 1] = x0 * s + x1 * c;
        } else {
          r[i] = x0 * c + x1 * s;
          r[i + 1] = x1 * c - x0 * s;
        }
      }
    }
  }
}

class Rope : public PositionEncoding {
 public:
  Rope(const PositionShape& s, std::span<const double> inv_freq, double attention_scale)
      : T_(s.T), D_(s.D), scale_(attention_scale), cs_(rope_table(s.T, s.D, inv_freq)) {}
  void rotate(float* x, int64_t rows, bool inverse) const override { rotate_rows(cs_, x, rows, T_, D_, inverse); }
  double attention_scale() const override { return scale_; }

 private:
  int64_t T_, D_;
  double scale_;
  std::vector<float> cs_;  // (T, D): (cos p w_i, sin p w_i) pairs
};

}  // namespace

void rope_apply(float* x, int64_t T, int64_t D, int64_t offset, double base) { rope_rotate(x, T, D, offset, base, 1.0); }

void rope_apply_inverse(float* x, int64_t T, int64_t D, int64_t offset, double base) {
  rope_rotate(x, T, D, offset, base, -1.0);
}

namespace {
// x must hold T x D values (sized in 64 bits by check_position_table first)
void check_rope_input(std::span<const float> x, int64_t T, int64_t D) {
  const size_t n = check_position_table("rope", T, D, true);
  if (x.size() != n) {
    fail("rope", "x has " + std::to_string(x.size()) + " values, expected " + std::to_string(T) + " x " +
                     std::to_string(D));
  }
}
}  // namespace

void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset, double base) {
  check_rope_input(x, T, D);
  rope_rotate(x.data(), T, D, offset, base, 1.0);
}

void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset, std::span<const double> inv_freq) {
  check_rope_input(x, T, D);
  rope_rotate(x.data(), T, D, offset, inv_freq, 1.0);
}

std::vector<float> rope_table(int64_t T, int64_t D, double base) {
  std::vector<float> x(check_position_table("rope", T, D, true), 0.0f);
  for (size_t k = 0; k < x.size(); k += 2) x[k] = 1.0f;
  rope_apply(x.data(), T, D, 0, base);
  return x;
}

std::vector<float> rope_table(int64_t T, int64_t D, std::span<const double> inv_freq) {
  std::vector<float> x(check_position_table("rope", T, D, true), 0.0f);
  for (size_t k = 0; k < x.size(); k += 2) x[k] = 1.0f;
  rope_rotate(x.data(), T, D, 0, inv_freq, 1.0);
  return x;
}

std::unique_ptr<PositionEncoding> make_rope_encoding(const PositionShape& s, std::span<const double> inv_freq,
                                                     double attention_scale) {
  return std::make_unique<Rope>(s, inv_freq, attention_scale);
}

PositionTable rope_position_table(const PositionShape& s, std::span<const double> inv_freq) {
  return PositionTable{{s.T, s.D}, rope_table(s.T, s.D, inv_freq)};
}

void plan_rope_table(MemoryPlan& p, const PositionShape& s, const PositionValues&, int) {
  p.add("rotary table", {s.T, s.D}, kFloat32);
}

const PositionKind& rope_positions() {
  static const PositionKind k{
      .name = "rope",
      .label = "RoPE",
      .description = "Rotates each pair of query and key dimensions by p·base^(-2i/D), so q·k depends only on the distance (Su et al. 2021).",
      .provides = PositionRole::Rotation,
      .params = {{"base", 10000, 1, 1e12, false, "the frequency base"}},
      .trainable = false,
      .even_dim = true,
      .plan = plan_rope_table,
      .make = [](const PositionShape& s, const PositionValues& v, Generator&) -> std::unique_ptr<PositionEncoding> {
        return make_rope_encoding(s, position_frequencies("rope", s.D, v.at("base")));
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator&) {
        check_position_table("rope", s.T, s.D, true);
        return rope_position_table(s, position_frequencies("rope", s.D, v.at("base")));
      },
      .inv_freq = [](int64_t D, const PositionValues& v) { return position_frequencies("rope", D, v.at("base")); },
  };
  return k;
}

}  // namespace embedlab
