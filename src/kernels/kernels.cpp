#include "kernels/kernels.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define EMBEDLAB_WASM_SIMD 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#define EMBEDLAB_SSE2 1
#endif

namespace embedlab::kernels {

// ---- scalar references ------------------------------------------------------------------
namespace ref {

void gather_scale_add(float* out, const float* table, size_t D, const int32_t* ids, size_t n,
                      float scale, const float* pos, size_t T) {
  for (size_t i = 0; i < n; ++i) {
    const float* row = table + static_cast<size_t>(ids[i]) * D;
    const float* p = pos ? pos + (i % T) * D : nullptr;
    float* o = out + i * D;
    for (size_t j = 0; j < D; ++j) o[j] = p ? row[j] * scale + p[j] : row[j] * scale;
  }
}

void axpy(size_t n, float a, const float* x, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

float dot(size_t n, const float* x, const float* y) {
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) s[k] = s[k] + x[i + k] * y[i + k];
  }
  float total = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
  for (; i < n; ++i) total = total + x[i] * y[i];
  return total;
}

void scale(size_t n, float a, const float* x, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i];
}

void scatter_add(float* dtable, size_t D, const int32_t* ids, size_t n, const float* grad,
                 float scale) {
  for (size_t i = 0; i < n; ++i) {
    float* row = dtable + static_cast<size_t>(ids[i]) * D;
    for (size_t j = 0; j < D; ++j) row[j] = row[j] + grad[i * D + j] * scale;
  }
}

}  // namespace ref

// ---- SIMD versions ----------------------------------------------------------------------
#if defined(EMBEDLAB_WASM_SIMD)
using V4 = v128_t;
static inline V4 load(const float* p) { return wasm_v128_load(p); }
static inline void store(float* p, V4 v) { wasm_v128_store(p, v); }
static inline V4 splat(float a) { return wasm_f32x4_splat(a); }
static inline V4 add(V4 a, V4 b) { return wasm_f32x4_add(a, b); }
static inline V4 mul(V4 a, V4 b) { return wasm_f32x4_mul(a, b); }
static inline void store_lanes(float* out, V4 v) { wasm_v128_store(out, v); }
#elif defined(EMBEDLAB_SSE2)
using V4 = __m128;
static inline V4 load(const float* p) { return _mm_loadu_ps(p); }
static inline void store(float* p, V4 v) { _mm_storeu_ps(p, v); }
static inline V4 splat(float a) { return _mm_set1_ps(a); }
static inline V4 add(V4 a, V4 b) { return _mm_add_ps(a, b); }
static inline V4 mul(V4 a, V4 b) { return _mm_mul_ps(a, b); }
static inline void store_lanes(float* out, V4 v) { _mm_storeu_ps(out, v); }
#endif

#if defined(EMBEDLAB_WASM_SIMD) || defined(EMBEDLAB_SSE2)

#if defined(EMBEDLAB_SSE2) && defined(__x86_64__)
static const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#endif

const char* isa() {
#if defined(EMBEDLAB_WASM_SIMD)
  return "wasm_simd128";
#elif defined(__x86_64__)
  return kHasAvx2 ? "sse2+avx2" : "sse2";
#else
  return "sse2";
#endif
}

// One output row: o[j] = r[j]*s (+ p[j]).
static inline void row_scale_add(float* o, const float* r, const float* p, size_t D, V4 vs,
                                 float s) {
  size_t j = 0;
  if (p) {
    for (; j + 8 <= D; j += 8) {
      store(o + j, add(mul(load(r + j), vs), load(p + j)));
      store(o + j + 4, add(mul(load(r + j + 4), vs), load(p + j + 4)));
    }
    for (; j + 4 <= D; j += 4) store(o + j, add(mul(load(r + j), vs), load(p + j)));
    for (; j < D; ++j) o[j] = r[j] * s + p[j];
  } else {
    for (; j + 8 <= D; j += 8) {
      store(o + j, mul(load(r + j), vs));
      store(o + j + 4, mul(load(r + j + 4), vs));
    }
    for (; j + 4 <= D; j += 4) store(o + j, mul(load(r + j), vs));
    for (; j < D; ++j) o[j] = r[j] * s;
  }
}

// Traversal shared by the SIMD versions. With positions and more than one row per position
// (B > 1), rows are visited position-major (t, then every i = t + k*T), so each position row
// is read once from memory and reused from L1 for the whole batch instead of competing with
// the output stream for cache. Each element still gets the same multiply-then-add, so the
// result is bit-identical to the scalar reference.
template <class Row>
static inline void traverse(size_t n, const float* pos, size_t T, Row&& row) {
  if (pos && n > T) {
    for (size_t t = 0; t < T; ++t)
      for (size_t i = t; i < n; i += T) row(i, t);
  } else {
    size_t t = 0;
    for (size_t i = 0; i < n; ++i) {
      row(i, t);
      if (pos && ++t == T) t = 0;
    }
  }
}

#if defined(EMBEDLAB_SSE2) && defined(__x86_64__)
// AVX2 version chosen at run time: 8 lanes, the same multiply-then-add per element.
__attribute__((target("avx2"))) static inline void row_avx2(float* o, const float* r, const float* p,
                                                            size_t D, __m256 vs, float scale) {
  size_t j = 0;
  if (p) {
    for (; j + 8 <= D; j += 8)
      _mm256_storeu_ps(o + j, _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(r + j), vs), _mm256_loadu_ps(p + j)));
    for (; j < D; ++j) o[j] = r[j] * scale + p[j];
  } else {
    for (; j + 8 <= D; j += 8) _mm256_storeu_ps(o + j, _mm256_mul_ps(_mm256_loadu_ps(r + j), vs));
    for (; j < D; ++j) o[j] = r[j] * scale;
  }
}

__attribute__((target("avx2"))) static void gather_avx2(float* out, const float* table, size_t D,
                                                        const int32_t* ids, size_t n, float scale,
                                                        const float* pos, size_t T) {
  const __m256 vs = _mm256_set1_ps(scale);
  // (the traversal of `traverse`, spelled out so the row kernel inlines with AVX2 enabled)
  if (pos && n > T) {
    for (size_t t = 0; t < T; ++t)
      for (size_t i = t; i < n; i += T)
        row_avx2(out + i * D, table + static_cast<size_t>(ids[i]) * D, pos + t * D, D, vs, scale);
  } else {
    size_t t = 0;
    for (size_t i = 0; i < n; ++i) {
      row_avx2(out + i * D, table + static_cast<size_t>(ids[i]) * D, pos ? pos + t * D : nullptr, D, vs, scale);
      if (pos && ++t == T) t = 0;
    }
  }
}
#endif

void gather_scale_add(float* out, const float* table, size_t D, const int32_t* ids, size_t n,
                      float scale, const float* pos, size_t T) {
#if defined(EMBEDLAB_SSE2) && defined(__x86_64__)
  if (kHasAvx2) {
    gather_avx2(out, table, D, ids, n, scale, pos, T);
    return;
  }
#endif
  const V4 vs = splat(scale);
  traverse(n, pos, T, [&](size_t i, size_t t) {
    const float* p = pos ? pos + t * D : nullptr;
    row_scale_add(out + i * D, table + static_cast<size_t>(ids[i]) * D, p, D, vs, scale);
  });
}

void axpy(size_t n, float a, const float* x, float* y) {
  const V4 va = splat(a);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    store(y + i, add(load(y + i), mul(va, load(x + i))));
    store(y + i + 4, add(load(y + i + 4), mul(va, load(x + i + 4))));
  }
  for (; i + 4 <= n; i += 4) store(y + i, add(load(y + i), mul(va, load(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

float dot(size_t n, const float* x, const float* y) {
  V4 lo = splat(0.0f), hi = splat(0.0f);  // lo holds sums 0..3, hi sums 4..7
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    lo = add(lo, mul(load(x + i), load(y + i)));
    hi = add(hi, mul(load(x + i + 4), load(y + i + 4)));
  }
  float s[8];
  store_lanes(s, lo);
  store_lanes(s + 4, hi);
  float total = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
  for (; i < n; ++i) total = total + x[i] * y[i];
  return total;
}

void scale(size_t n, float a, const float* x, float* y) {
  const V4 va = splat(a);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, mul(va, load(x + i)));
  for (; i < n; ++i) y[i] = a * x[i];
}

void scatter_add(float* dtable, size_t D, const int32_t* ids, size_t n, const float* grad,
                 float scale) {
  const V4 vs = splat(scale);
  for (size_t i = 0; i < n; ++i) {
    float* row = dtable + static_cast<size_t>(ids[i]) * D;
    const float* g = grad + i * D;
    size_t j = 0;
    for (; j + 4 <= D; j += 4) store(row + j, add(load(row + j), mul(load(g + j), vs)));
    for (; j < D; ++j) row[j] = row[j] + g[j] * scale;
  }
}

#else  // no SIMD: the references are the kernels

const char* isa() { return "scalar"; }
void gather_scale_add(float* out, const float* table, size_t D, const int32_t* ids, size_t n,
                      float scale, const float* pos, size_t T) {
  ref::gather_scale_add(out, table, D, ids, n, scale, pos, T);
}
void axpy(size_t n, float a, const float* x, float* y) { ref::axpy(n, a, x, y); }
float dot(size_t n, const float* x, const float* y) { return ref::dot(n, x, y); }
void scale(size_t n, float a, const float* x, float* y) { ref::scale(n, a, x, y); }
void scatter_add(float* dtable, size_t D, const int32_t* ids, size_t n, const float* grad,
                 float scale) {
  ref::scatter_add(dtable, D, ids, n, grad, scale);
}

#endif

}  // namespace embedlab::kernels
