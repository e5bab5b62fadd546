#include "kernels/dense.hpp"

#include <algorithm>
#include <cstring>

#include "core/detmath.hpp"
#include "kernels/kernels.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define EMBEDLAB_DK_WASM 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define EMBEDLAB_DK_SSE2 1
#endif

#include "core/parallel.hpp"

namespace embedlab::dense {

namespace {

// Cephes expf constants.
constexpr float kExpLo = -87.0f, kExpHi = 88.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: (t + kRound) - kRound rounds t to nearest
constexpr float kC1 = 0.693359375f, kC2 = -2.12194440e-4f;
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f,
                kP3 = 4.1665795894e-2f, kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;

inline float bits_to_float(int32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// C (n, m) with leading dimension ldc set to +0.
inline void clear_rows(size_t n, size_t m, float* C, size_t ldc) {
  for (size_t i = 0; i < n; ++i) std::memset(C + i * ldc, 0, m * sizeof(float));
}

// The scalar tail of every dot-like sum: ((s0+s4)+(s2+s6))+((s1+s5)+(s3+s7)).
inline float combine8(const float* s) {
  return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
}

}  // namespace

float exp_float(float x) {
  x = (kExpLo < x) ? x : kExpLo;  // also maps NaN to kExpLo, as the SIMD max does
  x = (kExpHi < x) ? kExpHi : x;
  const float n = (x * kLog2e + kRound) - kRound;
  float r = x - n * kC1;
  r = r - n * kC2;
  float p = kP0;
  p = p * r + kP1;
  p = p * r + kP2;
  p = p * r + kP3;
  p = p * r + kP4;
  p = p * r + kP5;
  float y = p * (r * r);
  y = y + r;
  y = y + 1.0f;
  return y * bits_to_float((static_cast<int32_t>(n) + 127) << 23);
}

void transpose(size_t rows, size_t cols, const float* src, float* dst) {
  constexpr size_t kB = 32;
  for (size_t i0 = 0; i0 < rows; i0 += kB) {
    for (size_t j0 = 0; j0 < cols; j0 += kB) {
      const size_t i1 = std::min(rows, i0 + kB), j1 = std::min(cols, j0 + kB);
      for (size_t i = i0; i < i1; ++i)
        for (size_t j = j0; j < j1; ++j) dst[j * rows + i] = src[i * cols + j];
    }
  }
}

// ---- scalar references ----------------------------------------------------------------
namespace ref {

void gemm_acc(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
              size_t ldb, float* C, size_t ldc) {
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < m; ++j) {
      float c = C[i * ldc + j];
      for (size_t kk = 0; kk < k; ++kk) c = c + A[i * lda + kk] * B[kk * ldb + j];
      C[i * ldc + j] = c;
    }
  }
}

void exp_floats(size_t n, const float* x, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = exp_float(x[i]);
}

double softmax_xent(size_t n, size_t V, float* logits, const int32_t* targets, float scale) {
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    float* x = logits + i * V;
    float mx = x[0];
    for (size_t j = 1; j < V; ++j) mx = (mx < x[j]) ? x[j] : mx;
    const size_t t = static_cast<size_t>(targets[i]);
    const float xt = x[t] - mx;
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= V; j += 8) {
      for (int q = 0; q < 8; ++q) {
        x[j + q] = exp_float(x[j + q] - mx);
        s[q] = s[q] + x[j + q];
      }
    }
    float sum = combine8(s);
    for (; j < V; ++j) {
      x[j] = exp_float(x[j] - mx);
      sum = sum + x[j];
    }
    const float inv = 1.0f / sum;
    const float pt = x[t] * inv;
    for (j = 0; j < V; ++j) x[j] = (x[j] * inv) * scale;
    x[t] = (pt - 1.0f) * scale;
    total += detmath::log(static_cast<double>(sum)) - static_cast<double>(xt);
  }
  return total;
}

void sgns_update(size_t n, float g, const float* l1, float* l2, float* work) {
  for (size_t i = 0; i < n; ++i) {
    work[i] = work[i] + g * l2[i];
    l2[i] = l2[i] + g * l1[i];
  }
}

}  // namespace ref

// ---- SIMD (SSE2 / wasm) ------------------------------------------------------------------
#if defined(EMBEDLAB_DK_WASM) || defined(EMBEDLAB_DK_SSE2)

namespace {
#if defined(EMBEDLAB_DK_WASM)
using V4 = v128_t;
inline V4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, V4 v) { wasm_v128_store(p, v); }
inline V4 splat(float a) { return wasm_f32x4_splat(a); }
inline V4 add(V4 a, V4 b) { return wasm_f32x4_add(a, b); }
inline V4 sub(V4 a, V4 b) { return wasm_f32x4_sub(a, b); }
inline V4 mul(V4 a, V4 b) { return wasm_f32x4_mul(a, b); }
inline V4 vmax(V4 a, V4 b) { return wasm_f32x4_pmax(b, a); }  // a > b ? a : b  (b < a ? a : b)
inline V4 clamp_lo(V4 x, V4 lo) { return wasm_f32x4_pmax(lo, x); }  // lo < x ? x : lo
inline V4 clamp_hi(V4 x, V4 hi) { return wasm_f32x4_pmin(x, hi); }  // hi < x ? hi : x
inline V4 pow2i(V4 n) {
  return wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
}
#else
using V4 = __m128;
inline V4 load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, V4 v) { _mm_storeu_ps(p, v); }
inline V4 splat(float a) { return _mm_set1_ps(a); }
inline V4 add(V4 a, V4 b) { return _mm_add_ps(a, b); }
inline V4 sub(V4 a, V4 b) { return _mm_sub_ps(a, b); }
inline V4 mul(V4 a, V4 b) { return _mm_mul_ps(a, b); }
inline V4 vmax(V4 a, V4 b) { return _mm_max_ps(a, b); }          // a > b ? a : b
inline V4 clamp_lo(V4 x, V4 lo) { return _mm_max_ps(x, lo); }    // x > lo ? x : lo
inline V4 clamp_hi(V4 x, V4 hi) { return _mm_min_ps(hi, x); }    // hi < x ? hi : x
inline V4 pow2i(V4 n) {
  return _mm_castsi128_ps(
      _mm_slli_epi32(_mm_add_epi32(_mm_cvttps_epi32(n), _mm_set1_epi32(127)), 23));
}
#endif

inline V4 exp4(V4 x) {
  x = clamp_lo(x, splat(kExpLo));
  x = clamp_hi(x, splat(kExpHi));
  const V4 n = sub(add(mul(x, splat(kLog2e)), splat(kRound)), splat(kRound));
  V4 r = sub(x, mul(n, splat(kC1)));
  r = sub(r, mul(n, splat(kC2)));
  V4 p = splat(kP0);
  p = add(mul(p, r), splat(kP1));
  p = add(mul(p, r), splat(kP2));
  p = add(mul(p, r), splat(kP3));
  p = add(mul(p, r), splat(kP4));
  p = add(mul(p, r), splat(kP5));
  V4 y = mul(p, mul(r, r));
  y = add(y, r);
  y = add(y, splat(1.0f));
  return mul(y, pow2i(n));
}

// R rows x 8 columns of C += A @ B over k inner steps; ap is the A panel packed
// k-major (ap[kk*R + r] = A[r, kk]) so every load in the loop is pointer + constant.
template <int R>
inline void tile8(size_t k, const float* ap, const float* B, size_t ldb, float* C, size_t ldc,
                  bool zero) {
  V4 c0[R], c1[R];
  for (int r = 0; r < R; ++r) {
    c0[r] = zero ? splat(0.0f) : load(C + r * ldc);
    c1[r] = zero ? splat(0.0f) : load(C + r * ldc + 4);
  }
  for (size_t kk = 0; kk < k; ++kk, ap += R, B += ldb) {
    const V4 b0 = load(B), b1 = load(B + 4);
    for (int r = 0; r < R; ++r) {
      const V4 a = splat(ap[r]);
      c0[r] = add(c0[r], mul(a, b0));
      c1[r] = add(c1[r], mul(a, b1));
    }
  }
  for (int r = 0; r < R; ++r) {
    store(C + r * ldc, c0[r]);
    store(C + r * ldc + 4, c1[r]);
  }
}

template <int R>
inline void tile4(size_t k, const float* ap, const float* B, size_t ldb, float* C, size_t ldc,
                  bool zero) {
  V4 c0[R];
  for (int r = 0; r < R; ++r) c0[r] = zero ? splat(0.0f) : load(C + r * ldc);
  for (size_t kk = 0; kk < k; ++kk, ap += R, B += ldb) {
    const V4 b0 = load(B);
    for (int r = 0; r < R; ++r) c0[r] = add(c0[r], mul(splat(ap[r]), b0));
  }
  for (int r = 0; r < R; ++r) store(C + r * ldc, c0[r]);
}

template <int R>
inline void tile12(size_t k, const float* ap, const float* B, size_t ldb, float* C, size_t ldc,
                   bool zero) {
  V4 c0[R], c1[R], c2[R];
  for (int r = 0; r < R; ++r) {
    c0[r] = zero ? splat(0.0f) : load(C + r * ldc);
    c1[r] = zero ? splat(0.0f) : load(C + r * ldc + 4);
    c2[r] = zero ? splat(0.0f) : load(C + r * ldc + 8);
  }
  for (size_t kk = 0; kk < k; ++kk, ap += R, B += ldb) {
    const V4 b0 = load(B), b1 = load(B + 4), b2 = load(B + 8);
    for (int r = 0; r < R; ++r) {
      const V4 a = splat(ap[r]);
      c0[r] = add(c0[r], mul(a, b0));
      c1[r] = add(c1[r], mul(a, b1));
      c2[r] = add(c2[r], mul(a, b2));
    }
  }
  for (int r = 0; r < R; ++r) {
    store(C + r * ldc, c0[r]);
    store(C + r * ldc + 4, c1[r]);
    store(C + r * ldc + 8, c2[r]);
  }
}

template <int R>
void panel(size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb, float* C,
           size_t ldc, bool zero) {
  float ap[R * 256];  // k <= kKBlock
  for (size_t kk = 0; kk < k; ++kk)
    for (int r = 0; r < R; ++r) ap[kk * R + r] = A[r * lda + kk];
  size_t j = 0;
  for (; j + 12 <= m; j += 12) tile12<R>(k, ap, B + j, ldb, C + j, ldc, zero);
  for (; j + 8 <= m; j += 8) tile8<R>(k, ap, B + j, ldb, C + j, ldc, zero);
  for (; j + 4 <= m; j += 4) tile4<R>(k, ap, B + j, ldb, C + j, ldc, zero);
  if (j < m) {
    if (zero) clear_rows(R, m - j, C + j, ldc);
    ref::gemm_acc(R, k, m - j, A, lda, B + j, ldb, C + j, ldc);
  }
}

// 3 x 12 tiles: 9 accumulators + 3 B vectors + 1 A splat fit V8's x64 registers (15 usable
// xmm). Measured in Node 20 on the head's shapes: 3x12 ~10% faster than 4x8, which beat 6x8;
// 4x12 spills. kJBlock is a multiple of 12.
constexpr size_t kRows = 3, kKBlock = 256, kJBlock = 516;

}  // namespace

namespace {
void gemm_impl(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
               size_t ldb, float* C, size_t ldc, bool accumulate) {
#if defined(EMBEDLAB_DK_SSE2)
  if (detail::have_avx2()) {
    detail::gemm_acc_avx2(n, k, m, A, lda, B, ldb, C, ldc, accumulate);
    return;
  }
#endif
  if (k == 0 && !accumulate) clear_rows(n, m, C, ldc);
  for (size_t k0 = 0; k0 < k; k0 += kKBlock) {
    const size_t kb = std::min(kKBlock, k - k0);
    const bool zero = !accumulate && k0 == 0;
    for (size_t j0 = 0; j0 < m; j0 += kJBlock) {
      const size_t jb = std::min(kJBlock, m - j0);
      for (size_t i0 = 0; i0 < n; i0 += kRows) {
        const float* a = A + i0 * lda + k0;
        const float* b = B + k0 * ldb + j0;
        float* c = C + i0 * ldc + j0;
        switch (std::min(kRows, n - i0)) {
          case 3: panel<3>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          case 2: panel<2>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          default: panel<1>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
        }
      }
    }
  }
}
}  // namespace

namespace {
void gemm_rows(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb,
               float* C, size_t ldc, bool accumulate) {
  gemm_impl(n, k, m, A, lda, B, ldb, C, ldc, accumulate);
}
}  // namespace

void sgns_update(size_t n, float g, const float* l1, float* l2, float* work) {
  const V4 vg = splat(g);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const V4 old = load(l2 + i);
    store(work + i, add(load(work + i), mul(vg, old)));
    store(l2 + i, add(old, mul(vg, load(l1 + i))));
  }
  for (; i < n; ++i) {
    work[i] = work[i] + g * l2[i];
    l2[i] = l2[i] + g * l1[i];
  }
}

// R rows of 8-way dots with x, as kernels::dot computes each.
template <int R>
inline void dot_group(size_t n, const float* x, const float* const* ys, float* out) {
  V4 lo[R], hi[R];
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = splat(0.0f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const V4 x0 = load(x + i), x1 = load(x + i + 4);
    for (int r = 0; r < R; ++r) {
      lo[r] = add(lo[r], mul(x0, load(ys[r] + i)));
      hi[r] = add(hi[r], mul(x1, load(ys[r] + i + 4)));
    }
  }
  for (int r = 0; r < R; ++r) {
    float s[8];
    store(s, lo[r]);
    store(s + 4, hi[r]);
    float total = combine8(s);
    for (size_t j = i; j < n; ++j) total = total + x[j] * ys[r][j];
    out[r] = total;
  }
}

void dot_rows(size_t n, const float* x, const float* const* ys, size_t count, float* out) {
#if defined(EMBEDLAB_DK_SSE2)
  if (detail::have_avx2()) return detail::dot_rows_avx2(n, x, ys, count, out);
#endif
  size_t r = 0;
  for (; r + 4 <= count; r += 4) dot_group<4>(n, x, ys + r, out + r);
  switch (count - r) {
    case 3: dot_group<3>(n, x, ys + r, out + r); break;
    case 2: dot_group<2>(n, x, ys + r, out + r); break;
    case 1: dot_group<1>(n, x, ys + r, out + r); break;
    default: break;
  }
}

void exp_floats(size_t n, const float* x, float* out) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(out + i, exp4(load(x + i)));
  for (; i < n; ++i) out[i] = exp_float(x[i]);
}

double softmax_xent(size_t n, size_t V, float* logits, const int32_t* targets, float scale) {
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    float* x = logits + i * V;
    size_t j = 0;
    float mx = x[0];
    if (V >= 4) {
      V4 vm = load(x);
      for (j = 4; j + 4 <= V; j += 4) vm = vmax(load(x + j), vm);
      float l[4];
      store(l, vm);
      mx = l[0];
      for (int q = 1; q < 4; ++q) mx = (mx < l[q]) ? l[q] : mx;
    }
    for (; j < V; ++j) mx = (mx < x[j]) ? x[j] : mx;
    const size_t t = static_cast<size_t>(targets[i]);
    const float xt = x[t] - mx;
    const V4 vmx = splat(mx);
    V4 lo = splat(0.0f), hi = splat(0.0f);
    for (j = 0; j + 8 <= V; j += 8) {
      const V4 e0 = exp4(sub(load(x + j), vmx)), e1 = exp4(sub(load(x + j + 4), vmx));
      store(x + j, e0);
      store(x + j + 4, e1);
      lo = add(lo, e0);
      hi = add(hi, e1);
    }
    float s[8];
    store(s, lo);
    store(s + 4, hi);
    float sum = combine8(s);
    for (; j < V; ++j) {
      x[j] = exp_float(x[j] - mx);
      sum = sum + x[j];
    }
    const float inv = 1.0f / sum;
    const float pt = x[t] * inv;
    const V4 vinv = splat(inv), vscale = splat(scale);
    for (j = 0; j + 4 <= V; j += 4) store(x + j, mul(mul(load(x + j), vinv), vscale));
    for (; j < V; ++j) x[j] = (x[j] * inv) * scale;
    x[t] = (pt - 1.0f) * scale;
    total += detmath::log(static_cast<double>(sum)) - static_cast<double>(xt);
  }
  return total;
}

#else  // no SIMD

namespace {
void gemm_rows(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb,
               float* C, size_t ldc, bool accumulate) {
  if (!accumulate) clear_rows(n, m, C, ldc);
  ref::gemm_acc(n, k, m, A, lda, B, ldb, C, ldc);
}
}  // namespace
void exp_floats(size_t n, const float* x, float* out) { ref::exp_floats(n, x, out); }
void dot_rows(size_t n, const float* x, const float* const* ys, size_t count, float* out) {
  for (size_t r = 0; r < count; ++r) out[r] = kernels::dot(n, x, ys[r]);
}
void sgns_update(size_t n, float g, const float* l1, float* l2, float* work) {
  ref::sgns_update(n, g, l1, l2, work);
}
double softmax_xent(size_t n, size_t V, float* logits, const int32_t* targets, float scale) {
  return ref::softmax_xent(n, V, logits, targets, scale);
}

#endif

// The public products: blocks of C on the engine's threads (core/parallel.hpp), blocks of rows
// when C has many rows, else blocks of columns (the head's (D, V) gradient has 64 rows and 50,257
// columns). Each element of C keeps its own sequence of operations whichever block it is in (the
// contract in dense.hpp), so every split, and so every thread count, gives the same bits; the
// split depends on the shape only. Products under kParallelWork multiply-adds run on the calling
// thread: a hand-off costs more than they do.
namespace {
constexpr size_t kGemmRowBlock = 48;   // a multiple of every variant's row panel (1-3, 4, 6)
constexpr size_t kGemmColBlock = 384;  // a multiple of every variant's column tile (4, 8, 12, 16)
constexpr size_t kParallelWork = size_t{1} << 18;

void gemm_blocks(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb,
                 float* C, size_t ldc, bool accumulate) {
  if (n * k * m < kParallelWork || (n <= kGemmRowBlock && m <= kGemmColBlock)) {
    gemm_rows(n, k, m, A, lda, B, ldb, C, ldc, accumulate);
  } else if (n >= 4 * kGemmRowBlock || m < 2 * kGemmColBlock) {
    parallel_for(static_cast<int64_t>(n), kGemmRowBlock, [&](int64_t b, int64_t e, int64_t) {
      const size_t i = static_cast<size_t>(b);
      gemm_rows(static_cast<size_t>(e - b), k, m, A + i * lda, lda, B, ldb, C + i * ldc, ldc, accumulate);
    });
  } else {
    parallel_for(static_cast<int64_t>(m), kGemmColBlock, [&](int64_t b, int64_t e, int64_t) {
      const size_t j = static_cast<size_t>(b);
      gemm_rows(n, k, static_cast<size_t>(e - b), A, lda, B + j, ldb, C + j, ldc, accumulate);
    });
  }
}
}  // namespace

void gemm_acc(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
              size_t ldb, float* C, size_t ldc) {
  gemm_blocks(n, k, m, A, lda, B, ldb, C, ldc, true);
}

void gemm(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb,
          float* C, size_t ldc) {
  gemm_blocks(n, k, m, A, lda, B, ldb, C, ldc, false);
}

const char* gemm_isa() {
#if defined(EMBEDLAB_DK_WASM)
  return "wasm_simd128";
#elif defined(EMBEDLAB_DK_SSE2)
  return detail::have_avx2() ? "avx2" : "sse2";
#else
  return "scalar";
#endif
}

}  // namespace embedlab::dense
