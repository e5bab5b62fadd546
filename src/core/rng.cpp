#include "core/rng.hpp"

#include <cmath>

#include "core/detmath.hpp"

namespace embedlab {

void Generator::manual_seed(uint64_t seed) {
  seed_ = seed;
  engine_.seed(static_cast<uint32_t>(seed & 0xffffffffu));
  draws_ = 0;
  has_cached_ = false;
  cached_ = 0.0;
}

void Generator::restore(const State& s) {
  manual_seed(s.seed);
  engine_.discard(s.draws);
  draws_ = s.draws;
  has_cached_ = s.has_cached;
  cached_ = s.cached;
}

uint32_t Generator::random() {
  ++draws_;
  return static_cast<uint32_t>(engine_());
}

uint64_t Generator::random64() {
  const uint64_t hi = random();
  const uint64_t lo = random();
  return (hi << 32) | lo;
}

float Generator::uniform_float() {
  return static_cast<float>(random() & 0xFFFFFFu) * (1.0f / 16777216.0f);
}

double Generator::uniform_double() {
  return static_cast<double>(random64() & ((uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
}

double Generator::normal_scalar() {
  // at::normal_distribution<double>: returns r cos th, caches r sin th.
  if (has_cached_) {
    has_cached_ = false;
    return cached_;
  }
  const double u1 = uniform_double();
  const double u2 = uniform_double();
  const double r = std::sqrt(-2.0 * detmath::log(1.0 - u2));
  double s = 0, c = 0;
  detmath::sincos_turns(u1, &s, &c);  // th = 2 pi u1
  cached_ = r * s;
  has_cached_ = true;
  return r * c;
}

// Box-Muller on one block of 16 float uniforms, in place (torch's normal_fill_16).
void Generator::normal_block16(float* d) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - d[j];  // exact: d has 24 bits
    const double r = std::sqrt(-2.0 * detmath::log(static_cast<double>(u1)));
    double s = 0, c = 0;
    detmath::sincos_turns(static_cast<double>(d[j + 8]), &s, &c);
    d[j] = static_cast<float>(r * c);
    d[j + 8] = static_cast<float>(r * s);
  }
}

void Generator::normal(float* out, size_t n, float mean, float std) {
  if (n < 16) {
    for (size_t i = 0; i < n; ++i) {
      out[i] = static_cast<float>(normal_scalar() * std + mean);
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) out[i] = uniform_float();
  for (size_t i = 0; i + 16 <= n; i += 16) normal_block16(out + i);
  if (n % 16 != 0) {
    // subtle: torch redraws the whole last block of 16, not just the tail.
    float* tail = out + n - 16;
    for (int j = 0; j < 16; ++j) tail[j] = uniform_float();
    normal_block16(tail);
  }
  if (std != 1.0f || mean != 0.0f) {
    for (size_t i = 0; i < n; ++i) out[i] = out[i] * std + mean;
  }
}

void Generator::uniform(float* out, size_t n, float lo, float hi) {
  const float range = hi - lo;
  for (size_t i = 0; i < n; ++i) out[i] = uniform_float() * range + lo;
}

void Generator::kaiming_uniform(float* out, size_t out_features, size_t in_features) {
  // kaiming_uniform_(a=sqrt(5)): gain = sqrt(2/(1+5)), bound = gain*sqrt(3/fan_in) = 1/sqrt(fan_in)
  const double bound = in_features == 0 ? 0.0 : 1.0 / std::sqrt(static_cast<double>(in_features));
  uniform(out, out_features * in_features, static_cast<float>(-bound), static_cast<float>(bound));
}

uint32_t Generator::below(uint32_t n) {
  // Lemire's multiply-shift; unbiased enough for shuffles of < 2^24 items and deterministic.
  return static_cast<uint32_t>((static_cast<uint64_t>(random()) * n) >> 32);
}

}  // namespace embedlab
