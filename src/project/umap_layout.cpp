// UMAP's SGD layout (umap-learn 0.5 layouts.py, optimize_layout_euclidean with
// move_other for the fit and without for transform), in float32, single-threaded.
#include <cmath>
#include <cstring>
#include <limits>

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

void forces_scalar(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  for (int c = 0; c < lanes; ++c) {
    const float pw = pow_float(x[c], k.y);
    float coeff;
    if (k.attract) {
      coeff = x[c] > 0.0f ? (-k.two_ab * (pw / x[c])) / (k.a * pw + 1.0f) : 0.0f;
    } else {
      coeff = k.two_gamma_b / ((0.001f + x[c]) * (k.a * pw + 1.0f));
    }
    gx[c] = clip4(coeff * ox[c]) * k.alpha;
    gy[c] = clip4(coeff * oy[c]) * k.alpha;
  }
}

#if defined(__wasm_simd128__)
namespace {
// 4 lanes of forces_scalar, the same operations in the same order
inline void forces4(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy) {
  v128_t v = wasm_f32x4_pmax(wasm_v128_load(x), wasm_f32x4_splat(1.17549435e-38f));
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
  v128_t t = wasm_f32x4_mul(wasm_f32x4_splat(k.y),
                            wasm_f32x4_add(wasm_f32x4_mul(ln1f, wasm_f32x4_splat(1.44269504f)), wasm_f32x4_convert_i32x4(e)));
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
  const v128_t xv = wasm_v128_load(x);
  const v128_t den = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(k.a), pw), wasm_f32x4_splat(1.0f));
  v128_t coeff;
  if (k.attract) {  // 0 at distance 0
    const v128_t att = wasm_f32x4_div(wasm_f32x4_mul(wasm_f32x4_splat(-k.two_ab), wasm_f32x4_div(pw, xv)), den);
    coeff = wasm_v128_and(att, wasm_f32x4_gt(xv, wasm_f32x4_splat(0.0f)));
  } else {
    coeff = wasm_f32x4_div(wasm_f32x4_splat(k.two_gamma_b), wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_splat(0.001f), xv), den));
  }
  // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = pmax(pmin(v, 4), -4)
  const v128_t four = wasm_f32x4_splat(4.0f), minus4 = wasm_f32x4_splat(-4.0f), va = wasm_f32x4_splat(k.alpha);
  const v128_t cx = wasm_f32x4_pmax(wasm_f32x4_pmin(wasm_f32x4_mul(coeff, wasm_v128_load(ox)), four), minus4);
  const v128_t cy = wasm_f32x4_pmax(wasm_f32x4_pmin(wasm_f32x4_mul(coeff, wasm_v128_load(oy)), four), minus4);
  wasm_v128_store(gx, wasm_f32x4_mul(cx, va));
  wasm_v128_store(gy, wasm_f32x4_mul(cy, va));
}
}  // namespace
#elif defined(__SSE2__)
namespace {
// 4 lanes of forces_scalar, the same operations in the same order
inline void forces4(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy) {
  // _mm_max_ps(a, b) = a > b ? a : b, so max(c, x) = x < c ? c : x as in pow_float
  const __m128 v = _mm_max_ps(_mm_set1_ps(1.17549435e-38f), _mm_loadu_ps(x));
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
  __m128 t = _mm_mul_ps(_mm_set1_ps(k.y), _mm_add_ps(_mm_mul_ps(ln1f, _mm_set1_ps(1.44269504f)), _mm_cvtepi32_ps(e)));
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
  const __m128 xv = _mm_loadu_ps(x);
  const __m128 den = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(k.a), pw), _mm_set1_ps(1.0f));
  __m128 coeff;
  if (k.attract) {  // 0 at distance 0
    const __m128 att = _mm_div_ps(_mm_mul_ps(_mm_set1_ps(-k.two_ab), _mm_div_ps(pw, xv)), den);
    coeff = _mm_and_ps(att, _mm_cmpgt_ps(xv, _mm_setzero_ps()));
  } else {
    coeff = _mm_div_ps(_mm_set1_ps(k.two_gamma_b), _mm_mul_ps(_mm_add_ps(_mm_set1_ps(0.001f), xv), den));
  }
  // clip4(v) = v > 4 ? 4 : (v < -4 ? -4 : v) = max(-4, min(4, v)) (min(a, b) = a < b ? a : b)
  const __m128 four = _mm_set1_ps(4.0f), minus4 = _mm_set1_ps(-4.0f), va = _mm_set1_ps(k.alpha);
  const __m128 cx = _mm_max_ps(minus4, _mm_min_ps(four, _mm_mul_ps(coeff, _mm_loadu_ps(ox))));
  const __m128 cy = _mm_max_ps(minus4, _mm_min_ps(four, _mm_mul_ps(coeff, _mm_loadu_ps(oy))));
  _mm_storeu_ps(gx, _mm_mul_ps(cx, va));
  _mm_storeu_ps(gy, _mm_mul_ps(cy, va));
}
}  // namespace
#endif

void forces(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  for (int h = 0; h < lanes; h += 4) forces4(x + h, ox + h, oy + h, k, gx + h, gy + h);
#else
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
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
      L.next[e] = samples > 0 ? L.per_sample[e] : std::numeric_limits<double>::infinity();
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

namespace {

using ForcesFn = void (*)(const float*, const float*, const float*, const ForceConsts&, float*, float*, int);

// The widest variant this CPU runs (the dense kernels' AVX2 switch turns off AVX2 and AVX-512
// both, for tests): all give the same bits.
ForcesFn pick_forces() {
  if (!dense::detail::have_avx2()) return forces;
  if (have_forces_avx512()) return forces_avx512;
  return have_forces_avx2() ? forces_avx2 : forces;
}

}  // namespace

const char* forces_isa() {
  const ForcesFn f = pick_forces();
  if (f == forces_avx512) return "avx512";
  if (f == forces_avx2) return "avx2";
#if defined(__wasm_simd128__)
  return "wasm_simd128";
#elif defined(__SSE2__)
  return "sse2";
#else
  return "scalar";
#endif
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
  const ForceConsts attract{b, a, two_gamma_b, alpha, two_ab, true}, repel{b, a, two_gamma_b, alpha, two_ab, false};
  const ForcesFn fn = pick_forces();
  const int64_t E = static_cast<int64_t>(L.head.size());

  // kLanes stripes of the edge list, each walked in order; a round takes the next due edge of
  // every stripe (see the file comment in umap.hpp: the attractions of a round in one pass,
  // then their negative samples measured from the moved heads, kLanes at a time). A stripe
  // finds its due edges 64 at a time as a bit mask (no branch per edge: whether an edge is
  // due follows no pattern a branch predictor learns); an edge that is never sampled has
  // next = +inf (make_layout).
  const double* next = L.next.data();
  int64_t base[kLanes], stop[kLanes];
  uint64_t pending[kLanes];
  const auto due_mask = [&](int64_t from, int64_t to) {
    uint64_t mask = 0;
    const int64_t n = to - from < 64 ? to - from : 64;
    for (int64_t k = 0; k < n; ++k) mask |= static_cast<uint64_t>(next[from + k] <= now) << k;
    return mask;
  };
  for (int s = 0; s < kLanes; ++s) {
    base[s] = E * s / kLanes;
    stop[s] = E * (s + 1) / kLanes;
    pending[s] = base[s] < stop[s] ? due_mask(base[s], stop[s]) : 0;
  }
  const auto next_due = [&](int s) -> int64_t {  // the stripe's next due edge, or -1
    while (pending[s] == 0) {
      base[s] += 64;
      if (base[s] >= stop[s]) return -1;
      pending[s] = due_mask(base[s], stop[s]);
    }
    const int64_t i = base[s] + __builtin_ctzll(pending[s]);
    pending[s] &= pending[s] - 1;
    return i;
  };

  alignas(64) float x[kLanes], ox[kLanes], oy[kLanes], gx[kLanes], gy[kLanes];
  int64_t edge[kLanes];
  int32_t lane_row[kLanes];
  for (;;) {
    int g = 0;
    for (int s = 0; s < kLanes; ++s) {
      const int64_t i = next_due(s);
      if (i >= 0) edge[g++] = i;
    }
    if (g == 0) break;

    // the attractions, measured from the positions before the round, applied in lane order
    for (int c = 0; c < kLanes; ++c) {
      if (c < g) {
        const float* h = head + 2 * static_cast<int64_t>(L.head[edge[c]]);
        const float* t = tail + 2 * static_cast<int64_t>(L.tail[edge[c]]);
        ox[c] = h[0] - t[0], oy[c] = h[1] - t[1];
        x[c] = ox[c] * ox[c] + oy[c] * oy[c];
      } else {
        x[c] = 1, ox[c] = oy[c] = 0;  // unused lanes
      }
    }
    fn(x, ox, oy, attract, gx, gy, g);
    for (int c = 0; c < g; ++c) {
      const int64_t i = edge[c];
      float* h = head + 2 * static_cast<int64_t>(L.head[i]);
      h[0] += gx[c], h[1] += gy[c];
      if (move_other) {
        float* t = tail + 2 * static_cast<int64_t>(L.tail[i]);
        t[0] -= gx[c], t[1] -= gy[c];
      }
      L.next[i] += L.per_sample[i];
    }
    if (rate <= 0) continue;

    // the negative samples: pass k takes the k-th sample of every edge of the round that has
    // one, so each head's samples are applied one after the other, each measured from where
    // the one before left it (as umap-learn does), while the lanes hold different heads
    int64_t n_neg[kLanes], most = 0;
    for (int c = 0; c < g; ++c) {
      const int64_t i = edge[c];
      const double per_negative = L.per_sample[i] / rate;
      n_neg[c] = static_cast<int64_t>((now - L.next_negative[i]) / per_negative);
      L.next_negative[i] += static_cast<double>(n_neg[c]) * per_negative;
      most = n_neg[c] > most ? n_neg[c] : most;
    }
    for (int64_t k = 0; k < most; ++k) {
      int m = 0;
      for (int c = 0; c < g; ++c) {
        if (n_neg[c] <= k) continue;
        lane_row[m] = L.head[edge[c]];
        const float* h = head + 2 * static_cast<int64_t>(lane_row[m]);
        const float* o = tail + 2 * static_cast<int64_t>(L.rng.below(n_neg_rows));
        ox[m] = h[0] - o[0], oy[m] = h[1] - o[1];
        x[m] = ox[m] * ox[m] + oy[m] * oy[m];
        ++m;
      }
      for (int c = m; c < kLanes; ++c) x[c] = 1, ox[c] = oy[c] = 0;  // unused lanes
      fn(x, ox, oy, repel, gx, gy, m);
      for (int c = 0; c < m; ++c) {
        if (!(x[c] > 0.0f)) continue;  // the head itself, or a point on top of it: no push
        float* h = head + 2 * static_cast<int64_t>(lane_row[c]);
        h[0] += gx[c], h[1] += gy[c];
      }
    }
  }
}

}  // namespace embedlab::umap_detail

namespace embedlab {
const char* umap_layout_isa() { return umap_detail::forces_isa(); }
}  // namespace embedlab
