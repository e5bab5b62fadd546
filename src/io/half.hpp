// 16-bit floats widened to float32, exactly (every float16 and bfloat16 value is a float32 value).
//
//   half_to_float(0x3C00) -> 1.0f    IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits;
//   half_to_float(0x0001) -> 2^-24   subnormals, infinities and NaN (payload kept) included.
//   bf16_to_float(0x3F80) -> 1.0f    bfloat16: the high 16 bits of a float32.
// Used by the .npy ('<f2') and safetensors (F16, BF16) readers. It does not narrow float32 to
// 16 bits (no writer here produces 16-bit files).
#pragma once

#include <cstdint>
#include <cstring>

namespace embedlab {

inline float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | frac << 13);  // inf, NaN
  if (exp != 0) return bits_to_float(sign | (exp + 112) << 23 | frac << 13);  // 112 = 127 - 15
  if (frac == 0) return bits_to_float(sign);                                 // +-0
  // subnormal: frac x 2^-24, exact in float32
  const float v = static_cast<float>(frac) * 5.9604644775390625e-08f;
  return sign ? -v : v;
}

inline float bf16_to_float(uint16_t b) { return bits_to_float(static_cast<uint32_t>(b) << 16); }

}  // namespace embedlab
