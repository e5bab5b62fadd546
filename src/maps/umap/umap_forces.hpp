// The force kernel of UMAP's layout (umap_detail::forces, see umap_detail.hpp) written once
// for N lanes with GCC/Clang vector extensions: N = 4 compiles to SSE2 or wasm_simd128, and
// N = 8 and 16 to AVX2 and AVX-512 where umap_layout_avx2.cpp / _avx512.cpp instantiate it
// inside functions that enable those ISAs. Each lane runs forces_scalar's operations in its
// order: the clamps are the scalar code's comparisons and selects (no min/max instructions
// whose NaN rules differ), a cast between vector types reinterprets the bits (GCC and Clang),
// the exponent's bits are built without a float -> int conversion,
// and the build passes -ffp-contract=off, so no FMA. Internal to the layout's three files.
#pragma once

#include <cstdint>
#include <cstring>

#include "maps/umap/umap_detail.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace embedlab::umap_detail {

// x = x < c ? c : x, and x = x < lo ? lo : (x > hi ? hi : x), lane by lane. wasm's pmax and
// pmin are exactly these selects, one instruction each, which Clang 14 does not find in the
// vector ternary (a compare and a bitselect: the wasm layout ran ~15% slower); GCC's x86 code
// keeps the ternaries. The vectors go by reference: no 32- or 64-byte vector crosses a call
// in the default ISA's ABI.
template <class F>
__attribute__((always_inline)) inline void raise_to(F& x, const F& c) {
#if defined(__wasm_simd128__)
  if constexpr (sizeof(F) == 16) {
    x = (F)wasm_f32x4_pmax((v128_t)x, (v128_t)c);
    return;
  }
#endif
  x = x < c ? c : x;
}
template <class F>
__attribute__((always_inline)) inline void clamp_to(F& x, const F& lo, const F& hi) {
#if defined(__wasm_simd128__)
  if constexpr (sizeof(F) == 16) {
    x = (F)wasm_f32x4_pmax(wasm_f32x4_pmin((v128_t)x, (v128_t)hi), (v128_t)lo);
    return;
  }
#endif
  x = x < lo ? lo : (x > hi ? hi : x);
}

template <int N>
struct Lanes {
  typedef float F __attribute__((vector_size(4 * N)));
  typedef int32_t I __attribute__((vector_size(4 * N)));
};

// forces_scalar for lanes [0, N) of x, ox, oy -> gx, gy
template <int N>
__attribute__((always_inline)) inline void forces_n(const float* x, const float* ox, const float* oy,
                                                     const ForceConsts& k, float* gx, float* gy) {
  using F = typename Lanes<N>::F;
  using I = typename Lanes<N>::I;
  F xv, oxv, oyv;
  std::memcpy(&xv, x, sizeof xv);
  std::memcpy(&oxv, ox, sizeof oxv);
  std::memcpy(&oyv, oy, sizeof oyv);
  const F zero = F{} + 0.0f;
  // pow_float(x, y), lane by lane
  F v = xv;
  raise_to(v, zero + 1.17549435e-38f);
  const I bits = (I)v;
  I e = (bits >> 23) - 127;
  const I mbits = (bits & 0x007fffff) | 0x3f800000;
  F m = (F)mbits;
  const I big = m > 1.41421356f;  // -1 where true
  m = big ? m * 0.5f : m;
  e = e - big;
  const F f = m - 1.0f, f2 = f * f, f4 = f2 * f2;
  const F q0 = 3.3333331174E-1f + -2.4999993993E-1f * f, q1 = 2.0000714765E-1f + -1.6668057665E-1f * f;
  const F q2 = 1.4249322787E-1f + -1.2420140846E-1f * f, q3 = 1.1676998740E-1f + -1.1514610310E-1f * f;
  const F p = ((q0 + q1 * f2) + (q2 + q3 * f2) * f4) + 7.0376836292E-2f * (f4 * f4);
  const F ln1f = f + (f * f2 * p - 0.5f * f2);
  F t = k.y * (ln1f * 1.44269504f + __builtin_convertvector(e, F));
  clamp_to(t, zero - 126.0f, zero + 126.0f);
  const F u = t + 12582912.0f, n = u - 12582912.0f;
  const F r = t - n, r2 = r * r, r4 = r2 * r2;
  const F s0 = 1.0f + 0.693147181f * r, s1 = 0.240226507f + 0.0555041087f * r;
  const F s2 = 0.00961812911f + 0.00133335581f * r;
  const F poly = (s0 + s1 * r2) + (s2 + 0.000154035304f * r2) * r4;
  // bits(u) = 0x4b400000 + n (u = 1.5 2^23 + n exactly), so (n + 127) << 23 comes from u's bits
  const I scale_bits = ((I)u - 0x4b3fff81) << 23;
  const F pw = poly * (F)scale_bits;
  const F den = k.a * pw + 1.0f;
  F coeff;
  if (k.attract) {  // 0 at distance 0
    coeff = xv > 0.0f ? (-k.two_ab * (pw / xv)) / den : zero;
  } else {
    coeff = k.two_gamma_b / ((0.001f + xv) * den);
  }
  F cx = coeff * oxv, cy = coeff * oyv;  // clip4, then alpha
  clamp_to(cx, zero - 4.0f, zero + 4.0f);
  clamp_to(cy, zero - 4.0f, zero + 4.0f);
  cx = cx * k.alpha;
  cy = cy * k.alpha;
  std::memcpy(gx, &cx, sizeof cx);
  std::memcpy(gy, &cy, sizeof cy);
}

}  // namespace embedlab::umap_detail
