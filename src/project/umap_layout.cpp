// UMAP's SGD layout (umap-learn 0.5 layouts.py, optimize_layout_euclidean with
// move_other for the fit and without for transform), in float32, single-threaded.
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/dense.hpp"
#include "project/umap_detail.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace embedlab::umap_detail {

namespace {

inline float clip4(float v) { return v > 4.0f ? 4.0f : (v < -4.0f ? -4.0f : v); }

}  // namespace

void repel8_scalar(const float* x, const float* ox, const float* oy, const RepelConsts& k, float* gx, float* gy) {
  for (int c = 0; c < 8; ++c) {
    const float pw = pow_float(x[c], k.y);
    float coeff;
    if (c == 0 && k.attract) {
      coeff = x[0] > 0.0f ? (-k.two_ab * (pw / x[0])) / (k.a * pw + 1.0f) : 0.0f;
    } else {
      coeff = k.two_gamma_b / ((0.001f + x[c]) * (k.a * pw + 1.0f));
    }
    gx[c] = clip4(coeff * ox[c]) * k.alpha;
    gy[c] = clip4(coeff * oy[c]) * k.alpha;
  }
}

void repel8(const float* x, const float* ox, const float* oy, const RepelConsts& k, float* gx, float* gy) {
  const float y = k.y;
#if defined(__wasm_simd128__)
  const v128_t vy = wasm_f32x4_splat(y);
  for (int h = 0; h < 8; h += 4) {
    v128_t v = wasm_f32x4_pmax(wasm_v128_load(x + h), wasm_f32x4_splat(1.17549435e-38f));
    v128_t bits = v;
    v128_t e = wasm_i32x4_sub(wasm_i32x4_shr(bits, 23), wasm_i32x4_splat(127));
    v128_t m = wasm_v128_or(wasm_v128_and(bits, wasm_i32x4_splat(0x007fffff)), wasm_i32x4_splat(0x3f800000));
    const v128_t big = wasm_f32x4_gt(m, wasm_f32x4_splat(1.41421356f));
    m = wasm_v128_bitselect(wasm_f32x4_mul(m, wasm_f32x4_splat(0.5f)), m, big);
    e = wasm_i32x4_sub(e, big);  // big is -1 where true
    const v128_t f = wasm_f32x4_sub(m, wasm_f32x4_splat(1.0f));
    const v128_t f2 = wasm_f32x4_mul(f, f), f4 = wasm_f32x4_mul(f2, f2);
#define LIN(c0, c1) wasm_f32x4_add(wasm_f32x4_splat(c0), wasm_f32x4_mul(wasm_f32x4_splat(c1), f))
    const v128_t q0 = LIN(3.3333331174E-1f, -2.4999993993E-1f), q1 = LIN(2.0000714765E-1f, -1.6668057665E-1f);
    const v128_t q2 = LIN(1.4249322787E-1f, -1.2420140846E-1f), q3 = LIN(1.1676998740E-1f, -1.1514610310E-1f);
#undef LIN
    const v128_t p = wasm_f32x4_add(
        wasm_f32x4_add(wasm_f32x4_add(q0, wasm_f32x4_mul(q1, f2)), wasm_f32x4_mul(wasm_f32x4_add(q2, wasm_f32x4_mul(q3, f2)), f4)),
        wasm_f32x4_mul(wasm_f32x4_splat(7.0376836292E-2f), wasm_f32x4_mul(f4, f4)));
    const v128_t ln1f = wasm_f32x4_add(
        f, wasm_f32x4_sub(wasm_f32x4_mul(wasm_f32x4_mul(f, f2), p), wasm_f32x4_mul(wasm_f32x4_splat(0.5f), f2)));
    v128_t t = wasm_f32x4_mul(vy, wasm_f32x4_add(wasm_f32x4_mul(ln1f, wasm_f32x4_splat(1.44269504f)), wasm_f32x4_convert_i32x4(e)));
    t = wasm_f32x4_pmax(t, wasm_f32x4_splat(-126.0f));
    t = wasm_f32x4_pmin(t, wasm_f32x4_splat(126.0f));
    const v128_t rnd = wasm_f32x4_splat(12582912.0f);
    const v128_t u = wasm_f32x4_add(t, rnd), n = wasm_f32x4_sub(u, rnd);
    const v128_t r = wasm_f32x4_sub(t, n), r2 = wasm_f32x4_mul(r, r), r4 = wasm_f32x4_mul(r2, r2);
    const v128_t s0 = wasm_f32x4_add(wasm_f32x4_splat(1.0f), wasm_f32x4_mul(wasm_f32x4_splat(0.693147181f), r));
    const v128_t s1 = wasm_f32x4_add(wasm_f32x4_splat(0.240226507f), wasm_f32x4_mul(wasm_f32x4_splat(0.0555041087f), r));
    const v128_t s2 = wasm_f32x4_add(wasm_f32x4_splat(0.00961812911f), wasm_f32x4_mul(wasm_f32x4_splat(0.00133335581f), r));
    const v128_t poly = wasm_f32x4_add(wasm_f32x4_add(s0, wasm_f32x4_mul(s1, r2)),
                                       wasm_f32x4_mul(wasm_f32x4_add(s2, wasm_f32x4_mul(wasm_f32x4_splat(0.000154035304f), r2)), r4));
    // 2^n from u's bits: u = 1.5 2^23 + n exactly, so bits(u) = 0x4b400000 + n and
    // (n + 127) << 23 = (bits(u) - 0x4b3fff81) << 23, with no float -> int conversion
    const v128_t scale = wasm_i32x4_shl(wasm_i32x4_sub(u, wasm_i32x4_splat(0x4b3fff81)), 23);
    const v128_t pw = wasm_f32x4_mul(poly, scale);
    const v128_t xv = wasm_v128_load(x + h);
    const v128_t den = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(k.a), pw), wasm_f32x4_splat(1.0f));
    v128_t coeff = wasm_f32x4_div(wasm_f32x4_splat(k.two_gamma_b), wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_splat(0.001f), xv), den));
    if (h == 0 && k.attract) {  // lane 0: the attraction, 0 at distance 0
      const v128_t att = wasm_f32x4_div(wasm_f32x4_mul(wasm_f32x4_splat(-k.two_ab), wasm_f32x4_div(pw, xv)), den);
      const v128_t lane0 = wasm_i32x4_make(-1, 0, 0, 0);
      const v128_t att0 = wasm_v128_and(att, wasm_f32x4_gt(xv, wasm_f32x4_splat(0.0f)));
      coeff = wasm_v128_bitselect(att0, coeff, lane0);
    }
    // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = pmax(pmin(v, 4), -4)
    const v128_t four = wasm_f32x4_splat(4.0f), minus4 = wasm_f32x4_splat(-4.0f), va = wasm_f32x4_splat(k.alpha);
    const v128_t cx = wasm_f32x4_pmax(wasm_f32x4_pmin(wasm_f32x4_mul(coeff, wasm_v128_load(ox + h)), four), minus4);
    const v128_t cy = wasm_f32x4_pmax(wasm_f32x4_pmin(wasm_f32x4_mul(coeff, wasm_v128_load(oy + h)), four), minus4);
    wasm_v128_store(gx + h, wasm_f32x4_mul(cx, va));
    wasm_v128_store(gy + h, wasm_f32x4_mul(cy, va));
  }
#elif defined(__SSE2__)
  const __m128 vy = _mm_set1_ps(y);
  for (int h = 0; h < 8; h += 4) {
    // _mm_max_ps(a, b) = a > b ? a : b, so max(c, x) = x < c ? c : x as in pow_float
    const __m128 v = _mm_max_ps(_mm_set1_ps(1.17549435e-38f), _mm_loadu_ps(x + h));
    const __m128i bits = _mm_castps_si128(v);
    __m128i e = _mm_sub_epi32(_mm_srai_epi32(bits, 23), _mm_set1_epi32(127));
    __m128 m = _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(0x007fffff)), _mm_set1_epi32(0x3f800000)));
    const __m128 big = _mm_cmpgt_ps(m, _mm_set1_ps(1.41421356f));
    m = _mm_or_ps(_mm_and_ps(big, _mm_mul_ps(m, _mm_set1_ps(0.5f))), _mm_andnot_ps(big, m));
    e = _mm_sub_epi32(e, _mm_castps_si128(big));
    const __m128 f = _mm_sub_ps(m, _mm_set1_ps(1.0f));
    const __m128 f2 = _mm_mul_ps(f, f), f4 = _mm_mul_ps(f2, f2);
#define LIN(c0, c1) _mm_add_ps(_mm_set1_ps(c0), _mm_mul_ps(_mm_set1_ps(c1), f))
    const __m128 q0 = LIN(3.3333331174E-1f, -2.4999993993E-1f), q1 = LIN(2.0000714765E-1f, -1.6668057665E-1f);
    const __m128 q2 = LIN(1.4249322787E-1f, -1.2420140846E-1f), q3 = LIN(1.1676998740E-1f, -1.1514610310E-1f);
#undef LIN
    const __m128 p = _mm_add_ps(_mm_add_ps(_mm_add_ps(q0, _mm_mul_ps(q1, f2)), _mm_mul_ps(_mm_add_ps(q2, _mm_mul_ps(q3, f2)), f4)),
                                _mm_mul_ps(_mm_set1_ps(7.0376836292E-2f), _mm_mul_ps(f4, f4)));
    const __m128 ln1f = _mm_add_ps(f, _mm_sub_ps(_mm_mul_ps(_mm_mul_ps(f, f2), p), _mm_mul_ps(_mm_set1_ps(0.5f), f2)));
    __m128 t = _mm_mul_ps(vy, _mm_add_ps(_mm_mul_ps(ln1f, _mm_set1_ps(1.44269504f)), _mm_cvtepi32_ps(e)));
    t = _mm_max_ps(_mm_set1_ps(-126.0f), t);  // t < -126 ? -126 : t
    t = _mm_min_ps(_mm_set1_ps(126.0f), t);   // t > 126 ? 126 : t
    const __m128 rnd = _mm_set1_ps(12582912.0f);
    const __m128 u = _mm_add_ps(t, rnd), n = _mm_sub_ps(u, rnd);
    const __m128 r = _mm_sub_ps(t, n), r2 = _mm_mul_ps(r, r), r4 = _mm_mul_ps(r2, r2);
    const __m128 s0 = _mm_add_ps(_mm_set1_ps(1.0f), _mm_mul_ps(_mm_set1_ps(0.693147181f), r));
    const __m128 s1 = _mm_add_ps(_mm_set1_ps(0.240226507f), _mm_mul_ps(_mm_set1_ps(0.0555041087f), r));
    const __m128 s2 = _mm_add_ps(_mm_set1_ps(0.00961812911f), _mm_mul_ps(_mm_set1_ps(0.00133335581f), r));
    const __m128 poly = _mm_add_ps(_mm_add_ps(s0, _mm_mul_ps(s1, r2)),
                                   _mm_mul_ps(_mm_add_ps(s2, _mm_mul_ps(_mm_set1_ps(0.000154035304f), r2)), r4));
    const __m128i scale = _mm_slli_epi32(_mm_sub_epi32(_mm_castps_si128(u), _mm_set1_epi32(0x4b3fff81)), 23);  // as above
    const __m128 pw = _mm_mul_ps(poly, _mm_castsi128_ps(scale));
    const __m128 xv = _mm_loadu_ps(x + h);
    const __m128 den = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(k.a), pw), _mm_set1_ps(1.0f));
    __m128 coeff = _mm_div_ps(_mm_set1_ps(k.two_gamma_b), _mm_mul_ps(_mm_add_ps(_mm_set1_ps(0.001f), xv), den));
    if (h == 0 && k.attract) {  // lane 0: the attraction, 0 at distance 0
      const __m128 att = _mm_div_ps(_mm_mul_ps(_mm_set1_ps(-k.two_ab), _mm_div_ps(pw, xv)), den);
      const __m128 lane0 = _mm_castsi128_ps(_mm_set_epi32(0, 0, 0, -1));
      const __m128 att0 = _mm_and_ps(att, _mm_cmpgt_ps(xv, _mm_setzero_ps()));
      coeff = _mm_or_ps(_mm_and_ps(lane0, att0), _mm_andnot_ps(lane0, coeff));
    }
    // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = max(-4, min(4, v)) (min(a, b) = a < b ? a : b)
    const __m128 four = _mm_set1_ps(4.0f), minus4 = _mm_set1_ps(-4.0f), va = _mm_set1_ps(k.alpha);
    const __m128 cx = _mm_max_ps(minus4, _mm_min_ps(four, _mm_mul_ps(coeff, _mm_loadu_ps(ox + h))));
    const __m128 cy = _mm_max_ps(minus4, _mm_min_ps(four, _mm_mul_ps(coeff, _mm_loadu_ps(oy + h))));
    _mm_storeu_ps(gx + h, _mm_mul_ps(cx, va));
    _mm_storeu_ps(gy + h, _mm_mul_ps(cy, va));
  }
#else
  (void)y;
  repel8_scalar(x, ox, oy, k, gx, gy);
#endif
}

// Cephes logf (S. L. Moshier): x = m 2^e with m in [sqrt(1/2), sqrt 2), then a degree-9
// polynomial in m - 1; relative error below 2e-7. x must be > 0 and finite.
float log_float(float x) {
  int32_t bits;
  std::memcpy(&bits, &x, 4);
  int32_t e = 0;
  if (bits < 0x00800000) {  // subnormal: scale up by 2^25
    x *= 33554432.0f;
    std::memcpy(&bits, &x, 4);
    e = -25;
  }
  e += ((bits >> 23) & 0xff) - 126;
  bits = (bits & 0x807fffff) | 0x3f000000;  // m in [0.5, 1)
  float m;
  std::memcpy(&m, &bits, 4);
  if (m < 0.707106781186547524f) {
    e -= 1;
    m = m + m - 1.0f;
  } else {
    m = m - 1.0f;
  }
  const float z = m * m;
  float y = 7.0376836292E-2f;
  y = y * m - 1.1514610310E-1f;
  y = y * m + 1.1676998740E-1f;
  y = y * m - 1.2420140846E-1f;
  y = y * m + 1.4249322787E-1f;
  y = y * m - 1.6668057665E-1f;
  y = y * m + 2.0000714765E-1f;
  y = y * m - 2.4999993993E-1f;
  y = y * m + 3.3333331174E-1f;
  y = y * m * z;
  const float fe = static_cast<float>(e);
  y = y + -2.12194440e-4f * fe;
  y = y + -0.5f * z;
  float r = m + y;
  r = r + 0.693359375f * fe;
  return r;
}

Layout make_layout(const Graph& g, int64_t n_epochs, const AbParams& ab, const UmapOptions& o, double learning_rate,
                   uint64_t seed) {
  const int64_t E = g.nnz();
  MemoryPlan p("umap");
  p.add("layout edges", {E, 2}, kInt32);
  p.add("layout schedule", {E, 3}, kFloat64);
  p.check();
  Layout L;
  L.head.resize(static_cast<size_t>(E));
  L.tail.resize(static_cast<size_t>(E));
  L.per_sample.resize(static_cast<size_t>(E));
  L.next.resize(static_cast<size_t>(E));
  L.next_negative.resize(static_cast<size_t>(E));
  float wmax = 0;
  for (float w : g.w) wmax = w > wmax ? w : wmax;
  const double rate = static_cast<double>(o.negative_sample_rate);
  for (int64_t i = 0; i < g.rows; ++i) {
    for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
      L.head[e] = static_cast<int32_t>(i);
      L.tail[e] = g.col[e];
      // make_epochs_per_sample: n_epochs / (n_epochs * w / max(w)); never for w = 0
      const double samples = static_cast<double>(n_epochs) * (static_cast<double>(g.w[e]) / wmax);
      L.per_sample[e] = samples > 0 ? static_cast<double>(n_epochs) / samples : -1.0;
      L.next[e] = L.per_sample[e];
      L.next_negative[e] = rate > 0 ? L.per_sample[e] / rate : 0.0;
    }
  }
  L.a = static_cast<float>(ab.a), L.b = static_cast<float>(ab.b);
  L.gamma = static_cast<float>(o.repulsion_strength);
  L.learning_rate = learning_rate;
  L.negative_rate = o.negative_sample_rate;
  L.n_epochs = n_epochs;
  L.rng = FastRng(seed ^ 0x1a7e0017ull);
  return L;
}

void layout_epoch(Layout& L, float* head, float* tail, int64_t n_tail, int64_t e, bool move_other) {
  // alpha of epoch e: learning_rate before the first epoch, then lr (1 - (e - 1) / n_epochs)
  const double alpha_d = e == 0 ? L.learning_rate
                                : L.learning_rate * (1.0 - static_cast<double>(e - 1) / static_cast<double>(L.n_epochs));
  const float alpha = static_cast<float>(alpha_d);
  const float a = L.a, b = L.b;
  const float two_ab = 2.0f * a * b, two_gamma_b = 2.0f * L.gamma * b;
  const double now = static_cast<double>(e), rate = static_cast<double>(L.negative_rate);
  const uint32_t n_neg_rows = static_cast<uint32_t>(n_tail);
  const RepelConsts repel{b, a, two_gamma_b, alpha, two_ab, false}, attract{b, a, two_gamma_b, alpha, two_ab, true};
  // the 8-lane AVX2 pass where the CPU has it (dense::detail::set_avx2_enabled(false) turns it off)
  const auto repel8_fn = dense::detail::have_avx2() && have_repel8_avx2() ? repel8_avx2 : repel8;
  const size_t E = L.head.size();
  for (size_t i = 0; i < E; ++i) {
    const double per = L.per_sample[i];
    if (per <= 0 || L.next[i] > now) continue;
    const int32_t j = L.head[i];
    float* cur = head + 2 * static_cast<int64_t>(j);
    float* oth = tail + 2 * static_cast<int64_t>(L.tail[i]);
    const double per_negative = rate > 0 ? per / rate : 0.0;
    const int64_t n_neg = rate > 0 ? static_cast<int64_t>((now - L.next_negative[i]) / per_negative) : 0;
    // subtle: umap-learn moves the head after the attraction and after each negative sample and
    // measures the next sample from there; here the attraction (lane 0) and up to 7 negative
    // samples of one edge are measured from the same position and computed together (their
    // pow calls are independent: 4 SIMD lanes, about 3x faster), then applied in order.
    float ox[8] = {}, oy[8] = {}, dd[8] = {1, 1, 1, 1, 1, 1, 1, 1}, gx[8], gy[8];
    const float cx = cur[0], cy = cur[1];
    ox[0] = cx - oth[0], oy[0] = cy - oth[1];
    dd[0] = ox[0] * ox[0] + oy[0] * oy[0];
    int group = 1;
    for (; group < 8 && group <= n_neg; ++group) {
      const float* o = tail + 2 * static_cast<int64_t>(L.rng.below(n_neg_rows));
      ox[group] = cx - o[0], oy[group] = cy - o[1];
      dd[group] = ox[group] * ox[group] + oy[group] * oy[group];
    }
    repel8_fn(dd, ox, oy, attract, gx, gy);
    cur[0] += gx[0], cur[1] += gy[0];
    if (move_other) oth[0] -= gx[0], oth[1] -= gy[0];
    for (int c = 1; c < group; ++c) {
      if (!(dd[c] > 0.0f)) continue;  // the head itself, or a point on top of it: no push
      cur[0] += gx[c];
      cur[1] += gy[c];
    }
    L.next[i] += per;
    if (rate <= 0) continue;
    for (int64_t left = n_neg - (group - 1); left > 0; left -= 8) {  // more than 7 negative samples
      const int more = left < 8 ? static_cast<int>(left) : 8;
      float px[8] = {}, py[8] = {}, pd[8] = {1, 1, 1, 1, 1, 1, 1, 1};
      const float hx = cur[0], hy = cur[1];
      for (int c = 0; c < more; ++c) {
        const float* o = tail + 2 * static_cast<int64_t>(L.rng.below(n_neg_rows));
        px[c] = hx - o[0], py[c] = hy - o[1];
        pd[c] = px[c] * px[c] + py[c] * py[c];
      }
      repel8_fn(pd, px, py, repel, gx, gy);
      for (int c = 0; c < more; ++c) {
        if (!(pd[c] > 0.0f)) continue;
        cur[0] += gx[c];
        cur[1] += gy[c];
      }
    }
    L.next_negative[i] += static_cast<double>(n_neg) * per_negative;
  }
}

}  // namespace embedlab::umap_detail
