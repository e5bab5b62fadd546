// Dense kernels of the next-token model: blocked matrix products, a transpose, a
// deterministic float exp, and the fused softmax + cross-entropy gradient.
//
// Determinism contract (the same as kernels/kernels.hpp): every output element is computed
// by the same sequence of float operations in every variant (scalar reference, SSE2,
// AVX2 on x86-64, wasm SIMD), so native and wasm results are bit-identical.
//   gemm_acc: C[i,j] += A[i,0]*B[0,j], then += A[i,1]*B[1,j], ... in order of the inner
//     index, each a separate multiply and add (no FMA). This is the "axpy order" of
//     embed/linear.hpp's matmul; blocking over rows, columns and the inner index never
//     reorders it (an inner-index block stores C and the next block reloads it).
//   exp_float: Cephes expf's reduction and polynomial (n = round(x log2 e),
//     r = x - n ln2_hi - n ln2_lo, e^r ~ 1 + r + r^2 P(r), times 2^n built from bits),
//     inputs clamped to [-87, 88]; relative error below 2e-7.
//   softmax_xent: per row, max (exact), e_j = exp_float(x_j - max), the sum in the
//     8-way order of kernels::dot, p_j = e_j * (1/sum).
//
// Shapes (row-major, leading dimensions in elements):
//   gemm_acc(n, k, m, A (n,k) lda, B (k,m) ldb, C (n,m) ldc): C += A @ B
//   transpose(rows, cols, src (rows,cols), dst (cols,rows))
//   softmax_xent(n, V, logits (n,V), targets (n), scale): logits are overwritten with
//     dlogits = (softmax(logits) - onehot(target)) * scale; returns the summed loss
//     sum_i [log sum_j e^{x_ij} - x_i,target_i] in double.
//
// Worked example: A = [[1,2]], B = [[3],[4]], C = [[10]] -> gemm_acc gives [[10+3+8]] = [[21]].
#pragma once

#include <cstddef>
#include <cstdint>

namespace embedlab::dense {

void gemm_acc(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
              size_t ldb, float* C, size_t ldc);
// C = A @ B: the same bits as zeroing C then gemm_acc, without the extra pass over C.
void gemm(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B, size_t ldb,
          float* C, size_t ldc);
void transpose(size_t rows, size_t cols, const float* src, float* dst);
float exp_float(float x);
// out[n] = exp_float(x[n])
void exp_floats(size_t n, const float* x, float* out);
double softmax_xent(size_t n, size_t V, float* logits, const int32_t* targets, float scale);

// word2vec's negative-sampling update of one prediction, fused into one pass:
// work[n] += g * l2[n] (the old l2), then l2[n] += g * l1[n] (gensim's two saxpy calls).
// Per element the same two multiply-adds as kernels::axpy twice, so the same bits.
void sgns_update(size_t n, float g, const float* l1, float* l2, float* work);

// out[r] = kernels::dot(n, x, ys[r]) for r < count, bit for bit (the same 8 partial sums per
// row, combined in the same order), with up to 4 rows interleaved so their add chains overlap
// (8 rows with AVX2, chosen at run time on x86-64).
void dot_rows(size_t n, const float* x, const float* const* ys, size_t count, float* out);

// "avx2", "sse2", "wasm_simd128" or "scalar": the variant gemm_acc runs on this machine.
const char* gemm_isa();

namespace ref {
void gemm_acc(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
              size_t ldb, float* C, size_t ldc);
void exp_floats(size_t n, const float* x, float* out);
double softmax_xent(size_t n, size_t V, float* logits, const int32_t* targets, float scale);
void sgns_update(size_t n, float g, const float* l1, float* l2, float* work);
}  // namespace ref

namespace detail {
// AVX2 variant (dense_avx2.cpp); only called when the CPU has AVX2.
void gemm_acc_avx2(size_t n, size_t k, size_t m, const float* A, size_t lda, const float* B,
                   size_t ldb, float* C, size_t ldc, bool accumulate);
// dot_rows with one 8-lane accumulator per row and up to 8 rows interleaved.
void dot_rows_avx2(size_t n, const float* x, const float* const* ys, size_t count, float* out);
bool have_avx2();
// Tests and benchmarks: false makes gemm_acc use the SSE2 path even on an AVX2 machine.
void set_avx2_enabled(bool on);
}  // namespace detail

}  // namespace embedlab::dense
