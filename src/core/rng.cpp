#include "core/rng.hpp"

#include <cmath>
#include <string>

#include "core/detmath.hpp"
#include "core/error.hpp"

namespace embedlab {

void Generator::manual_seed(uint64_t seed) {
  seed_ = seed;
  // init_genrand: std::mt19937::seed(seed & 0xffffffff)
  words_[0] = static_cast<uint32_t>(seed & 0xffffffffu);
  for (uint32_t i = 1; i < kWords; ++i) words_[i] = 1812433253u * (words_[i - 1] ^ (words_[i - 1] >> 30)) + i;
  index_ = kWords;
  draws_ = 0;
  has_cached_ = false;
  cached_ = 0.0;
}

void Generator::restore(const State& s) {
  if (s.index > static_cast<uint32_t>(kWords)) {
    fail("checkpoint", "rng.index " + std::to_string(s.index) + " out of range [0, " + std::to_string(kWords) + "]");
  }
  if (!std::isfinite(s.cached)) fail("checkpoint", "rng.cached " + std::to_string(s.cached) + " must be finite");
  seed_ = s.seed;
  draws_ = s.draws;
  words_ = s.words;
  index_ = s.index;
  has_cached_ = s.has_cached;
  cached_ = s.cached;
}

Generator::State Generator::replay(const char* where, uint64_t seed, uint64_t draws) {
  if (draws > kMaxReplayDraws) {
    fail(where, "rng.draws " + std::to_string(draws) + " exceeds " + std::to_string(kMaxReplayDraws) +
                    ", the most this build replays (a checkpoint saved since stores the generator's state)");
  }
  Generator g(seed);
  for (uint64_t i = 0; i < draws; ++i) g.random();
  return g.state();
}

// The twist of all 624 words (genrand_int32's refill), in mt19937ar.c's three loops.
void Generator::twist() {
  constexpr uint32_t kM = 397, kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
  auto mix = [&](uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t y = (a & kUpper) | (b & kLower);
    return c ^ (y >> 1) ^ ((y & 1u) ? kMatrix : 0u);
  };
  uint32_t i = 0;
  for (; i < kWords - kM; ++i) words_[i] = mix(words_[i], words_[i + 1], words_[i + kM]);
  for (; i < kWords - 1; ++i) words_[i] = mix(words_[i], words_[i + 1], words_[i + kM - kWords]);
  words_[kWords - 1] = mix(words_[kWords - 1], words_[0], words_[kM - 1]);
  index_ = 0;
}

uint32_t Generator::random() {
  ++draws_;
  if (index_ >= kWords) twist();
  uint32_t y = words_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
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
