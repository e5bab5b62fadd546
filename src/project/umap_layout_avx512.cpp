// AVX-512 variant of umap_detail::forces for x86-64 (chosen at run time by layout_epoch): the
// 16 lanes in one pass where AVX2 takes two 8-lane ones and SSE2 and wasm four 4-lane ones.
// Each lane runs the same float operations in the same order as forces_scalar (no FMA: this
// file enables "avx512f" only and the build passes -ffp-contract=off; _mm512_min_ps and
// _mm512_max_ps have SSE's operand order; the masked multiply, add and move give the SSE
// blends' results), so the bits equal the other variants'. forces_scalar on other targets.
// It keeps the AVX2 file's shape line for line (different intrinsics, masks for blends) so the
// two can be read side by side.
#include "project/umap_detail.hpp"

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)

// GCC 12's avx512fintrin.h builds its "undefined" vectors from themselves and warns about
// it (-Wuninitialized) wherever an intrinsic is inlined: a false positive, silenced here only.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif

namespace embedlab::umap_detail {

namespace {

inline void forces16(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy) {
  // _mm512_max_ps(a, b) = a > b ? a : b, so max(c, x) = x < c ? c : x as in pow_float
  const __m512 v = _mm512_max_ps(_mm512_set1_ps(1.17549435e-38f), _mm512_loadu_ps(x));
  const __m512i bits = _mm512_castps_si512(v);
  __m512i e = _mm512_sub_epi32(_mm512_srai_epi32(bits, 23), _mm512_set1_epi32(127));
  __m512 m = _mm512_castsi512_ps(
      _mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0x007fffff)), _mm512_set1_epi32(0x3f800000)));
  const __mmask16 big = _mm512_cmp_ps_mask(m, _mm512_set1_ps(1.41421356f), _CMP_GT_OQ);
  m = _mm512_mask_mul_ps(m, big, m, _mm512_set1_ps(0.5f));
  e = _mm512_mask_add_epi32(e, big, e, _mm512_set1_epi32(1));
  const __m512 f = _mm512_sub_ps(m, _mm512_set1_ps(1.0f));
  const __m512 f2 = _mm512_mul_ps(f, f), f4 = _mm512_mul_ps(f2, f2);
#define LIN(c0, c1) _mm512_add_ps(_mm512_set1_ps(c0), _mm512_mul_ps(_mm512_set1_ps(c1), f))
  const __m512 q0 = LIN(3.3333331174E-1f, -2.4999993993E-1f), q1 = LIN(2.0000714765E-1f, -1.6668057665E-1f);
  const __m512 q2 = LIN(1.4249322787E-1f, -1.2420140846E-1f), q3 = LIN(1.1676998740E-1f, -1.1514610310E-1f);
#undef LIN
  const __m512 p = _mm512_add_ps(
      _mm512_add_ps(_mm512_add_ps(q0, _mm512_mul_ps(q1, f2)), _mm512_mul_ps(_mm512_add_ps(q2, _mm512_mul_ps(q3, f2)), f4)),
      _mm512_mul_ps(_mm512_set1_ps(7.0376836292E-2f), _mm512_mul_ps(f4, f4)));
  const __m512 ln1f =
      _mm512_add_ps(f, _mm512_sub_ps(_mm512_mul_ps(_mm512_mul_ps(f, f2), p), _mm512_mul_ps(_mm512_set1_ps(0.5f), f2)));
  __m512 t = _mm512_mul_ps(_mm512_set1_ps(k.y),
                           _mm512_add_ps(_mm512_mul_ps(ln1f, _mm512_set1_ps(1.44269504f)), _mm512_cvtepi32_ps(e)));
  t = _mm512_max_ps(_mm512_set1_ps(-126.0f), t);  // t < -126 ? -126 : t
  t = _mm512_min_ps(_mm512_set1_ps(126.0f), t);   // t > 126 ? 126 : t
  const __m512 rnd = _mm512_set1_ps(12582912.0f);
  const __m512 u = _mm512_add_ps(t, rnd), n = _mm512_sub_ps(u, rnd);
  const __m512 r = _mm512_sub_ps(t, n), r2 = _mm512_mul_ps(r, r), r4 = _mm512_mul_ps(r2, r2);
  const __m512 s0 = _mm512_add_ps(_mm512_set1_ps(1.0f), _mm512_mul_ps(_mm512_set1_ps(0.693147181f), r));
  const __m512 s1 = _mm512_add_ps(_mm512_set1_ps(0.240226507f), _mm512_mul_ps(_mm512_set1_ps(0.0555041087f), r));
  const __m512 s2 = _mm512_add_ps(_mm512_set1_ps(0.00961812911f), _mm512_mul_ps(_mm512_set1_ps(0.00133335581f), r));
  const __m512 poly = _mm512_add_ps(_mm512_add_ps(s0, _mm512_mul_ps(s1, r2)),
                                    _mm512_mul_ps(_mm512_add_ps(s2, _mm512_mul_ps(_mm512_set1_ps(0.000154035304f), r2)), r4));
  // bits(u) = 0x4b400000 + n (u = 1.5 2^23 + n exactly): 2^n without a float -> int conversion
  const __m512i scale = _mm512_slli_epi32(_mm512_sub_epi32(_mm512_castps_si512(u), _mm512_set1_epi32(0x4b3fff81)), 23);
  const __m512 pw = _mm512_mul_ps(poly, _mm512_castsi512_ps(scale));
  const __m512 xv = _mm512_loadu_ps(x);
  const __m512 den = _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(k.a), pw), _mm512_set1_ps(1.0f));
  __m512 coeff;
  if (k.attract) {  // 0 at distance 0
    const __m512 att = _mm512_div_ps(_mm512_mul_ps(_mm512_set1_ps(-k.two_ab), _mm512_div_ps(pw, xv)), den);
    coeff = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(xv, _mm512_setzero_ps(), _CMP_GT_OQ), att);
  } else {
    coeff = _mm512_div_ps(_mm512_set1_ps(k.two_gamma_b), _mm512_mul_ps(_mm512_add_ps(_mm512_set1_ps(0.001f), xv), den));
  }
  // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = max(-4, min(4, v)) (min(a, b) = a < b ? a : b)
  const __m512 four = _mm512_set1_ps(4.0f), minus4 = _mm512_set1_ps(-4.0f), va = _mm512_set1_ps(k.alpha);
  const __m512 cx = _mm512_max_ps(minus4, _mm512_min_ps(four, _mm512_mul_ps(coeff, _mm512_loadu_ps(ox))));
  const __m512 cy = _mm512_max_ps(minus4, _mm512_min_ps(four, _mm512_mul_ps(coeff, _mm512_loadu_ps(oy))));
  _mm512_storeu_ps(gx, _mm512_mul_ps(cx, va));
  _mm512_storeu_ps(gy, _mm512_mul_ps(cy, va));
}

}  // namespace

void forces_avx512(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  (void)lanes;  // one pass computes all 16
  forces16(x, ox, oy, k, gx, gy);
}

bool have_forces_avx512() { return __builtin_cpu_supports("avx512f"); }

}  // namespace embedlab::umap_detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else

namespace embedlab::umap_detail {
void forces_avx512(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
}
bool have_forces_avx512() { return false; }
}  // namespace embedlab::umap_detail

#endif
