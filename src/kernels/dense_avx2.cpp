// AVX2 variants of dense::gemm_acc and dense::dot_rows for x86-64 (chosen at run time; see dense.hpp).
// Same per-element operation order as the scalar reference: 8-lane multiplies and adds,
// no FMA (this file enables "avx2" only, and the build passes -ffp-contract=off), so its
// results equal the SSE2 and wasm variants bit for bit. Empty on other targets.
#include "kernels/dense.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)

#include <immintrin.h>
// subtle: clang ignores `#pragma GCC target`; it takes the same target as a function attribute.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace embedlab::dense::detail {

namespace {

// R rows x 16 (or 8) columns of C += A @ B over k inner steps; ap is the A panel packed
// k-major (ap[kk*R + r] = A[r, kk]).
template <int R>
__attribute__((always_inline)) inline void tile16(size_t k, const float* ap, const float* B,
                                                  size_t ldb, float* C, size_t ldc, bool zero) {
  __m256 c0[R], c1[R];
  for (int r = 0; r < R; ++r) {
    c0[r] = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(C + r * ldc);
    c1[r] = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(C + r * ldc + 8);
  }
  for (size_t kk = 0; kk < k; ++kk, ap += R, B += ldb) {
    const __m256 b0 = _mm256_loadu_ps(B), b1 = _mm256_loadu_ps(B + 8);
    for (int r = 0; r < R; ++r) {
      const __m256 a = _mm256_broadcast_ss(ap + r);
      c0[r] = _mm256_add_ps(c0[r], _mm256_mul_ps(a, b0));
      c1[r] = _mm256_add_ps(c1[r], _mm256_mul_ps(a, b1));
    }
  }
  for (int r = 0; r < R; ++r) {
    _mm256_storeu_ps(C + r * ldc, c0[r]);
    _mm256_storeu_ps(C + r * ldc + 8, c1[r]);
  }
}

template <int R>
__attribute__((always_inline)) inline void tile8(size_t k, const float* ap, const float* B,
                                                 size_t ldb, float* C, size_t ldc, bool zero) {
  __m256 c0[R];
  for (int r = 0; r < R; ++r) c0[r] = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(C + r * ldc);
  for (size_t kk = 0; kk < k; ++kk, ap += R, B += ldb) {
    const __m256 b0 = _mm256_loadu_ps(B);
    for (int r = 0; r < R; ++r) c0[r] = _mm256_add_ps(c0[r], _mm256_mul_ps(_mm256_broadcast_ss(ap + r), b0));
  }
  for (int r = 0; r < R; ++r) _mm256_storeu_ps(C + r * ldc, c0[r]);
}

template <int R>
void panel(size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb, float* C,
           size_t ldc, bool zero) {
  float ap[R * 256];  // k <= kKBlock
  for (size_t kk = 0; kk < k; ++kk)
    for (int r = 0; r < R; ++r) ap[kk * R + r] = A[r * lda + kk];
  size_t j = 0;
  for (; j + 16 <= m; j += 16) tile16<R>(k, ap, B + j, ldb, C + j, ldc, zero);
  for (; j + 8 <= m; j += 8) tile8<R>(k, ap, B + j, ldb, C + j, ldc, zero);
  for (; j < m; ++j) {
    for (int r = 0; r < R; ++r) {
      float c = zero ? 0.0f : C[r * ldc + j];
      for (size_t kk = 0; kk < k; ++kk) c = c + A[r * lda + kk] * B[kk * ldb + j];
      C[r * ldc + j] = c;
    }
  }
}

constexpr size_t kRows = 6, kKBlock = 256, kJBlock = 512;

// R dots of x with ys[r], each exactly as kernels::dot: lane j of one 8-lane accumulator is
// partial sum j (elements i = j mod 8), then combine8's order, then the tail in order.
template <int R>
void dot_group8(size_t n, const float* x, const float* const* ys, float* out) {
  __m256 acc[R];
  for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 xv = _mm256_loadu_ps(x + i);
    for (int r = 0; r < R; ++r) acc[r] = _mm256_add_ps(acc[r], _mm256_mul_ps(xv, _mm256_loadu_ps(ys[r] + i)));
  }
  for (int r = 0; r < R; ++r) {
    float s[8];
    _mm256_storeu_ps(s, acc[r]);
    float total = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
    for (size_t j = i; j < n; ++j) total = total + x[j] * ys[r][j];
    out[r] = total;
  }
}

}  // namespace

void dot_rows_avx2(size_t n, const float* x, const float* const* ys, size_t count, float* out) {
  size_t r = 0;
  for (; r + 8 <= count; r += 8) dot_group8<8>(n, x, ys + r, out + r);
  switch (count - r) {
    case 7: dot_group8<7>(n, x, ys + r, out + r); break;
    case 6: dot_group8<6>(n, x, ys + r, out + r); break;
    case 5: dot_group8<5>(n, x, ys + r, out + r); break;
    case 4: dot_group8<4>(n, x, ys + r, out + r); break;
    case 3: dot_group8<3>(n, x, ys + r, out + r); break;
    case 2: dot_group8<2>(n, x, ys + r, out + r); break;
    case 1: dot_group8<1>(n, x, ys + r, out + r); break;
    default: break;
  }
}

void gemm_acc_avx2(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
                   size_t ldb, float* C, size_t ldc, bool accumulate) {
  if (k == 0 && !accumulate)
    for (size_t i = 0; i < n; ++i) std::fill(C + i * ldc, C + i * ldc + m, 0.0f);
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
          case 6: panel<6>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          case 5: panel<5>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          case 4: panel<4>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          case 3: panel<3>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          case 2: panel<2>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
          default: panel<1>(kb, jb, a, lda, b, ldb, c, ldc, zero); break;
        }
      }
    }
  }
}

}  // namespace embedlab::dense::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace embedlab::dense::detail {
namespace {
bool& avx2_flag() {
  static bool on = __builtin_cpu_supports("avx2");
  return on;
}
}  // namespace
bool have_avx2() { return avx2_flag(); }
void set_avx2_enabled(bool on) { avx2_flag() = on && __builtin_cpu_supports("avx2"); }
}  // namespace embedlab::dense::detail

#else

namespace embedlab::dense::detail {
void gemm_acc_avx2(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
                   size_t ldb, float* C, size_t ldc, bool accumulate) {
  if (!accumulate)
    for (size_t i = 0; i < n; ++i) std::fill(C + i * ldc, C + i * ldc + m, 0.0f);
  ref::gemm_acc(n, k, m, A, lda, B, ldb, C, ldc);
}
void dot_rows_avx2(size_t n, const float* x, const float* const* ys, size_t count, float* out) {
  for (size_t r = 0; r < count; ++r) out[r] = kernels::dot(n, x, ys[r]);
}
bool have_avx2() { return false; }
void set_avx2_enabled(bool) {}
}  // namespace embedlab::dense::detail

#endif
