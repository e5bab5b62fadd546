#include "embed/positional.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"

namespace embedlab {
namespace {

// Validates a (T, D) table and plans it; returns T x D.
size_t check_positions(const char* where, int64_t T, int64_t D, bool even) {
  check_at_least(where, "positions", T, 0);
  check_at_least(where, "dim", D, 1);
  if (T > kMaxPositions) {
    fail(where, "positions " + std::to_string(T) + " out of range [0, " +
                    std::to_string(kMaxPositions) + "]");
  }
  if (even && D % 2 != 0) fail(where, "dim must be even, got " + std::to_string(D));
  return plan(where, "position table", {T, D}, kFloat32);
}

}  // namespace

std::vector<double> rope_frequencies(int64_t D, double base) {
  check_at_least("rope", "dim", D, 1);
  std::vector<double> w(plan("rope", "frequencies", D / 2, kFloat64));
  const double lb = detmath::log(base);
  for (int64_t i = 0; i < D / 2; ++i) w[i] = detmath::exp(-(2.0 * i / D) * lb);
  return w;
}

std::vector<float> sinusoidal(int64_t T, int64_t D, double base) {
  const size_t n = check_positions("sinusoidal", T, D, true);
  const std::vector<double> w = rope_frequencies(D, base);
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

LearnedPositions::LearnedPositions(int64_t context_length, int64_t D, Generator& g)
    : T_(context_length), D_(D) {
  check_at_least("LearnedPositions", "context_length", context_length, 1);
  check_at_least("LearnedPositions", "dim", D, 1);
  P_.resize(plan("LearnedPositions", "position table", {context_length, D}, kFloat32));
  g.normal(P_.data(), P_.size());
}

std::vector<float> LearnedPositions::forward(int64_t T) const {
  if (T > T_) {
    fail("learned positions", "position " + std::to_string(T - 1) + " out of range [0, " +
                                  std::to_string(T_) + "): the table was made for context_length " +
                                  std::to_string(T_));
  }
  check_at_least("learned positions", "positions", T, 0);
  return std::vector<float>(P_.begin(), P_.begin() + T * D_);
}

std::vector<float> LearnedPositions::forward(std::span<const int32_t> positions) const {
  std::vector<float> out(
      plan("learned positions", "output", {static_cast<int64_t>(positions.size()), D_}, kFloat32));
  for (size_t i = 0; i < positions.size(); ++i) {
    check_index("learned positions", "position", positions[i], 0, T_);
    std::copy_n(P_.begin() + positions[i] * D_, D_, out.begin() + i * D_);
  }
  return out;
}

static void rope_rotate(float* x, int64_t T, int64_t D, int64_t offset, double base, double sign) {
  // subtle: offset + T is formed only once both are known to be in range, so it cannot overflow.
  check_positions("rope", T, D, true);
  check_at_least("rope", "offset", offset, 0);
  if (offset > kMaxPositions) {
    fail("rope", "offset " + std::to_string(offset) + " out of range [0, " + std::to_string(kMaxPositions) + "]");
  }
  check_positions("rope", offset + T, D, true);
  const std::vector<double> w = rope_frequencies(D, base);
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

void rope_apply(float* x, int64_t T, int64_t D, int64_t offset, double base) {
  rope_rotate(x, T, D, offset, base, 1.0);
}

void rope_apply_inverse(float* x, int64_t T, int64_t D, int64_t offset, double base) {
  rope_rotate(x, T, D, offset, base, -1.0);
}

void rope_apply(std::span<float> x, int64_t T, int64_t D, int64_t offset, double base) {
  const size_t n = check_positions("rope", T, D, true);
  if (x.size() != n) {
    fail("rope", "x has " + std::to_string(x.size()) + " values, expected " + std::to_string(T) + " x " +
                     std::to_string(D));
  }
  rope_rotate(x.data(), T, D, offset, base, 1.0);
}

std::vector<float> rope_table(int64_t T, int64_t D, double base) {
  std::vector<float> x(check_positions("rope", T, D, true), 0.0f);
  for (size_t k = 0; k < x.size(); k += 2) x[k] = 1.0f;
  rope_apply(x.data(), T, D, 0, base);
  return x;
}

std::vector<float> alibi_slopes(int64_t H) {
  check_at_least("alibi", "heads", H, 1);
  if (H > 4096) fail("alibi", "heads " + std::to_string(H) + " out of range [1, 4096]");
  // Press et al., reference code get_slopes: powers of two directly, else the closest
  // power of two n plus every other slope of 2n.
  auto pow2_slopes = [](int64_t n) {
    std::vector<float> s(n);
    for (int64_t h = 0; h < n; ++h) {
      // 2^(-8 (h+1) / n)
      s[h] = static_cast<float>(detmath::exp(-8.0 * (h + 1) / n * detmath::log(2.0)));
    }
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

std::vector<float> alibi_bias(int64_t H, int64_t T) {
  check_positions("alibi", T, 1, false);
  const std::vector<float> m = alibi_slopes(H);
  std::vector<float> bias(plan("alibi", "bias tensor", {H, T, T}, kFloat32));
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < T; ++i)
      for (int64_t j = 0; j < T; ++j)
        bias[(h * T + i) * T + j] = j <= i ? -m[h] * static_cast<float>(i - j) : neg_inf;
  return bias;
}

std::vector<float> position_similarity(std::span<const float> table, int64_t T, int64_t D,
                                       bool normalise) {
  check_at_least("position_similarity", "positions", T, 0);
  check_at_least("position_similarity", "dim", D, 1);
  // subtle: T * D in 64 bits; in wasm a size_t product of T = 2^32 + 1 and D = 1 is 1.
  uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(T), static_cast<uint64_t>(D), &want) || table.size() != want) {
    fail("position_similarity", "table has " + std::to_string(table.size()) +
                                    " values, expected " + std::to_string(T) + " x " + std::to_string(D));
  }
  MemoryPlan p("position_similarity");
  const size_t n_norms = p.add("norms", {T}, kFloat32);
  const size_t n_sim = p.add("similarity matrix", {T, T}, kFloat32);
  p.check();
  std::vector<float> norms(n_norms, 1.0f);
  if (normalise) {
    for (int64_t t = 0; t < T; ++t) {
      const float n2 = kernels::dot(D, table.data() + t * D, table.data() + t * D);
      norms[t] = n2 > 0 ? std::sqrt(n2) : 1.0f;
    }
  }
  std::vector<float> sim(n_sim);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j)
      sim[i * T + j] = kernels::dot(D, table.data() + i * D, table.data() + j * D) / (norms[i] * norms[j]);
  return sim;
}

PositionKind parse_position_kind(const std::string& name) {
  if (name == "none") return PositionKind::None;
  if (name == "sinusoidal") return PositionKind::Sinusoidal;
  if (name == "learned") return PositionKind::Learned;
  if (name == "rope") return PositionKind::Rope;
  if (name == "alibi") return PositionKind::Alibi;
  fail("position kind", "unknown kind '" + name + "', expected one of none, sinusoidal, learned, rope, alibi");
}

const char* position_kind_name(PositionKind k) {
  switch (k) {
    case PositionKind::None: return "none";
    case PositionKind::Sinusoidal: return "sinusoidal";
    case PositionKind::Learned: return "learned";
    case PositionKind::Rope: return "rope";
    case PositionKind::Alibi: return "alibi";
  }
  return "none";
}

}  // namespace embedlab
