// AVX2 variant of umap_detail::forces for x86-64 (chosen at run time by layout_epoch): the 16
// lanes in two 8-lane passes where the SSE2 and wasm variants take four 4-lane ones. Each lane
// runs the same float operations in the same order as forces_scalar (no FMA: this file enables
// "avx2" only and the build passes -ffp-contract=off; _mm256_min_ps/_mm256_max_ps have SSE's
// operand order), so the bits equal the other variants'. forces_scalar on other targets.
#include "project/umap_detail.hpp"

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)

#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace embedlab::umap_detail {

namespace {

inline void forces8(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy) {
  // _mm256_max_ps(a, b) = a > b ? a : b, so max(c, x) = x < c ? c : x as in pow_float
  const __m256 v = _mm256_max_ps(_mm256_set1_ps(1.17549435e-38f), _mm256_loadu_ps(x));
  const __m256i bits = _mm256_castps_si256(v);
  __m256i e = _mm256_sub_epi32(_mm256_srai_epi32(bits, 23), _mm256_set1_epi32(127));
  __m256 m = _mm256_castsi256_ps(
      _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(0x3f800000)));
  const __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(1.41421356f), _CMP_GT_OQ);
  m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), big);
  e = _mm256_sub_epi32(e, _mm256_castps_si256(big));
  const __m256 f = _mm256_sub_ps(m, _mm256_set1_ps(1.0f));
  const __m256 f2 = _mm256_mul_ps(f, f), f4 = _mm256_mul_ps(f2, f2);
#define LIN(c0, c1) _mm256_add_ps(_mm256_set1_ps(c0), _mm256_mul_ps(_mm256_set1_ps(c1), f))
  const __m256 q0 = LIN(3.3333331174E-1f, -2.4999993993E-1f), q1 = LIN(2.0000714765E-1f, -1.6668057665E-1f);
  const __m256 q2 = LIN(1.4249322787E-1f, -1.2420140846E-1f), q3 = LIN(1.1676998740E-1f, -1.1514610310E-1f);
#undef LIN
  const __m256 p = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(q0, _mm256_mul_ps(q1, f2)), _mm256_mul_ps(_mm256_add_ps(q2, _mm256_mul_ps(q3, f2)), f4)),
      _mm256_mul_ps(_mm256_set1_ps(7.0376836292E-2f), _mm256_mul_ps(f4, f4)));
  const __m256 ln1f =
      _mm256_add_ps(f, _mm256_sub_ps(_mm256_mul_ps(_mm256_mul_ps(f, f2), p), _mm256_mul_ps(_mm256_set1_ps(0.5f), f2)));
  __m256 t = _mm256_mul_ps(_mm256_set1_ps(k.y),
                           _mm256_add_ps(_mm256_mul_ps(ln1f, _mm256_set1_ps(1.44269504f)), _mm256_cvtepi32_ps(e)));
  t = _mm256_max_ps(_mm256_set1_ps(-126.0f), t);  // t < -126 ? -126 : t
  t = _mm256_min_ps(_mm256_set1_ps(126.0f), t);   // t > 126 ? 126 : t
  const __m256 rnd = _mm256_set1_ps(12582912.0f);
  const __m256 u = _mm256_add_ps(t, rnd), n = _mm256_sub_ps(u, rnd);
  const __m256 r = _mm256_sub_ps(t, n), r2 = _mm256_mul_ps(r, r), r4 = _mm256_mul_ps(r2, r2);
  const __m256 s0 = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(_mm256_set1_ps(0.693147181f), r));
  const __m256 s1 = _mm256_add_ps(_mm256_set1_ps(0.240226507f), _mm256_mul_ps(_mm256_set1_ps(0.0555041087f), r));
  const __m256 s2 = _mm256_add_ps(_mm256_set1_ps(0.00961812911f), _mm256_mul_ps(_mm256_set1_ps(0.00133335581f), r));
  const __m256 poly = _mm256_add_ps(_mm256_add_ps(s0, _mm256_mul_ps(s1, r2)),
                                    _mm256_mul_ps(_mm256_add_ps(s2, _mm256_mul_ps(_mm256_set1_ps(0.000154035304f), r2)), r4));
  // bits(u) = 0x4b400000 + n (u = 1.5 2^23 + n exactly): 2^n without a float -> int conversion
  const __m256i scale = _mm256_slli_epi32(_mm256_sub_epi32(_mm256_castps_si256(u), _mm256_set1_epi32(0x4b3fff81)), 23);
  const __m256 pw = _mm256_mul_ps(poly, _mm256_castsi256_ps(scale));
  const __m256 xv = _mm256_loadu_ps(x);
  const __m256 den = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(k.a), pw), _mm256_set1_ps(1.0f));
  __m256 coeff;
  if (k.attract) {  // 0 at distance 0
    const __m256 att = _mm256_div_ps(_mm256_mul_ps(_mm256_set1_ps(-k.two_ab), _mm256_div_ps(pw, xv)), den);
    coeff = _mm256_and_ps(att, _mm256_cmp_ps(xv, _mm256_setzero_ps(), _CMP_GT_OQ));
  } else {
    coeff = _mm256_div_ps(_mm256_set1_ps(k.two_gamma_b), _mm256_mul_ps(_mm256_add_ps(_mm256_set1_ps(0.001f), xv), den));
  }
  // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = max(-4, min(4, v)) (min(a, b) = a < b ? a : b)
  const __m256 four = _mm256_set1_ps(4.0f), minus4 = _mm256_set1_ps(-4.0f), va = _mm256_set1_ps(k.alpha);
  const __m256 cx = _mm256_max_ps(minus4, _mm256_min_ps(four, _mm256_mul_ps(coeff, _mm256_loadu_ps(ox))));
  const __m256 cy = _mm256_max_ps(minus4, _mm256_min_ps(four, _mm256_mul_ps(coeff, _mm256_loadu_ps(oy))));
  _mm256_storeu_ps(gx, _mm256_mul_ps(cx, va));
  _mm256_storeu_ps(gy, _mm256_mul_ps(cy, va));
}

}  // namespace

void forces_avx2(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  forces8(x, ox, oy, k, gx, gy);
  if (lanes > 8) forces8(x + 8, ox + 8, oy + 8, k, gx + 8, gy + 8);
}

bool have_forces_avx2() { return __builtin_cpu_supports("avx2"); }

}  // namespace embedlab::umap_detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else

namespace embedlab::umap_detail {
void forces_avx2(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
}
bool have_forces_avx2() { return false; }
}  // namespace embedlab::umap_detail

#endif
