// PCA's randomized solver (see pca.hpp and pca_randomized.hpp): Halko, Martinsson & Tropp's
// range finder on the centred rows, its float32 SIMD products and its TSQR, on the pool.
// Not here: the exact and Krylov solvers, the sign rule, the input checks (pca.cpp).
#include "analysis/pca_randomized.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"
#include "core/rng.hpp"
#include "kernels/dense.hpp"

namespace embedlab::pca_detail {

namespace {

// ---- randomized solver (Halko, Martinsson & Tropp 2011, alg. 4.4; sklearn's randomized_svd) ----
// Products with the centred rows X_c = X - 1 mean^T, in float32 SIMD kernels (kernels::dot,
// dense::gemm_acc) on rows centred first, one row or block at a time: each value is
// float(x - mean) from the double mean, so a large mean costs no precision.
// subtle: the products used to run on the raw rows and subtract mean^T B afterwards; with a
// mean of 1e4 and unit-scale variation the float32 sums lost about 3% of the signal, and the
// explained variance of tests/reference/pca_randomized_hard.json was off by 8e-4 (relative).
// The small algebra (QR of the n x l basis, the l x l eigenproblem) is in double with Eigen.
constexpr int64_t kRandomizedCells = int64_t{1} << 24;  // n x D from which Auto picks it
constexpr int kPowerIterations = 4;
constexpr int64_t kTraceRows = 1024;  // rows of one block of the total variance

// The double mean rounded to float32, once per product.
std::vector<float> float_mean(const Eigen::VectorXd& mean) {
  std::vector<float> m(static_cast<size_t>(mean.size()));
  for (Eigen::Index d = 0; d < mean.size(); ++d) m[static_cast<size_t>(d)] = static_cast<float>(mean[d]);
  return m;
}

// out (D) = row - mean in float32. A row near a large mean loses nothing here (the difference of
// two close floats is exact); the rounding of the mean shifts every row by the same vector, less
// than half a float32 ulp of the mean per column, which a covariance does not see.
// subtle: a plain loop the compiler may vectorise: one IEEE subtraction per value, the same bits
// in SSE, wasm_simd128 and scalar code.
void centre_row(const float* row, const float* mean, int64_t D, float* out) {
  for (int64_t d = 0; d < D; ++d) out[d] = row[d] - mean[d];
}

// Y (n, l) = X_c B, B (D, l): each entry one SIMD dot product of a centred row with a column
// of B (dense::dot_rows: the l dots of a row interleaved, each bit for bit kernels::dot); rows
// in fixed blocks on the pool, each writing its own rows of Y.
void times_centred(const Rows& x, const std::vector<float>& B, int64_t l, const Eigen::VectorXd& mean, std::vector<float>& Y) {
  const int64_t D = x.dim;
  std::vector<float> Bt(static_cast<size_t>(l * D));  // (l, D)
  dense::transpose(static_cast<size_t>(D), static_cast<size_t>(l), B.data(), Bt.data());
  std::vector<const float*> cols(static_cast<size_t>(l));
  for (int64_t c = 0; c < l; ++c) cols[c] = Bt.data() + c * D;
  const std::vector<float> mf = float_mean(mean);
  parallel_for(x.n, kScanRows, [&](int64_t b, int64_t e, int64_t) {
    std::vector<float> centred(static_cast<size_t>(D));  // one row; planned as the "centred row block"
    for (int64_t i = b; i < e; ++i) {
      centre_row(x.row(i), mf.data(), D, centred.data());
      dense::dot_rows(static_cast<size_t>(D), centred.data(), cols.data(), static_cast<size_t>(l), Y.data() + i * l);
    }
  });
}

// Z (D, l) = X_c^T Y, Y (n, l): (Y^T X_c)^T accumulated over blocks of centred rows with
// dense::gemm_acc (l x m) @ (m x D), so the long dimension D is the one the SIMD kernel runs along.
// On the pool, for each block of rows in order: the rows centred in fixed blocks of rows, then the
// product in fixed blocks of kColumnBlock columns of Zt (l, D). Each element keeps gemm_acc's
// order (the inner index in order, dense.hpp), so the bits are those of the whole-width product.
void transposed_times_centred(const Rows& x, const std::vector<float>& Y, int64_t l, const Eigen::VectorXd& mean,
                              std::vector<float>& Z) {
  const int64_t D = x.dim, n = x.n;
  const int64_t rows = std::min(kRandomBlock, n);
  std::vector<float> Zt(static_cast<size_t>(l * D), 0.0f), YT(static_cast<size_t>(l * n));  // (l, D), (l, n)
  std::vector<float> block(static_cast<size_t>(rows * D));  // centred rows
  dense::transpose(static_cast<size_t>(n), static_cast<size_t>(l), Y.data(), YT.data());
  const std::vector<float> mf = float_mean(mean);
  for (int64_t start = 0; start < n; start += kRandomBlock) {
    const int64_t m = std::min(kRandomBlock, n - start);
    parallel_for(m, kScanRows, [&](int64_t b, int64_t e, int64_t) {
      for (int64_t i = b; i < e; ++i) centre_row(x.row(start + i), mf.data(), D, block.data() + i * D);
    });
    parallel_for(D, kColumnBlock, [&](int64_t c0, int64_t c1, int64_t) {
      dense::gemm_acc(static_cast<size_t>(l), static_cast<size_t>(m), static_cast<size_t>(c1 - c0), YT.data() + start,
                      static_cast<size_t>(n), block.data() + c0, static_cast<size_t>(D), Zt.data() + c0,
                      static_cast<size_t>(D));
    });
  }
  for (int64_t d = 0; d < D; ++d)
    for (int64_t c = 0; c < l; ++c) Z[d * l + c] = Zt[c * D + d];
}

// Rows of A (rows, l) at [start, start + m) as a double matrix.
Eigen::MatrixXd rows_of(const std::vector<float>& A, int64_t start, int64_t m, int64_t l) {
  Eigen::MatrixXd M(m, l);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t c = 0; c < l; ++c) M(i, c) = A[(start + i) * l + c];
  return M;
}

// An orthonormal basis of the columns of A (rows, l), in place (thin QR in double).
// Tall A (rows >= 2 kQrRows, l <= kQrRows / 2) by TSQR (Demmel, Grigori, Hoemmen & Langou 2012,
// "Communication-optimal parallel and sequential QR and LU factorizations", SIAM J. Sci. Comput.
// 34(1)): fixed blocks of kQrRows rows (the last one takes the rest), each factored A_b = Q_b R_b
// by Householder on the pool; the stacked R_b (b l x l) factored once, S = Q_s R; then block b of
// the basis is Q_b times its l x l slice of Q_s (on the pool). The blocks depend only on rows,
// so the bits do not depend on the thread count; the basis spans what Householder on the whole
// of A spans (the same up to rounding and signs, which the caller does not depend on).
// Otherwise Householder on the whole of A, on the calling thread.
void orthonormalise(std::vector<float>& A, int64_t rows, int64_t l) {
  if (rows < 2 * kQrRows || 2 * l > kQrRows) {
    const Eigen::MatrixXd M = rows_of(A, 0, rows, l);
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(M);
    const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(rows, l);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t c = 0; c < l; ++c) A[i * l + c] = static_cast<float>(Q(i, c));
    return;
  }
  const int64_t blocks = rows / kQrRows;  // the last block takes the rest (kQrRows to 2 kQrRows - 1 rows)
  const auto first = [&](int64_t b) { return b * kQrRows; };
  const auto count = [&](int64_t b) { return b + 1 == blocks ? rows - b * kQrRows : kQrRows; };
  std::vector<Eigen::HouseholderQR<Eigen::MatrixXd>> qr(static_cast<size_t>(blocks));
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(blocks * l, l);  // the stacked R factors
  parallel_for(blocks, 1, [&](int64_t b, int64_t, int64_t) {
    qr[b].compute(rows_of(A, first(b), count(b), l));
    S.middleRows(b * l, l) = qr[b].matrixQR().topRows(l).triangularView<Eigen::Upper>();
  });
  const Eigen::HouseholderQR<Eigen::MatrixXd> top(S);
  const Eigen::MatrixXd Qs = top.householderQ() * Eigen::MatrixXd::Identity(blocks * l, l);
  parallel_for(blocks, 1, [&](int64_t b, int64_t, int64_t) {
    const int64_t m = count(b);
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(m, l);
    E.topRows(l) = Qs.middleRows(b * l, l);
    E.applyOnTheLeft(qr[b].householderQ());  // Q_b (m x m) [Qs_b; 0]: the thin Q_b times Qs_b
    for (int64_t i = 0; i < m; ++i)
      for (int64_t c = 0; c < l; ++c) A[(first(b) + i) * l + c] = static_cast<float>(E(i, c));
  });
}

}  // namespace

bool use_randomized(const PcaOptions& o, int64_t n, int64_t dim) {
  if (o.solver == PcaSolver::Randomized) return true;
  return o.solver == PcaSolver::Auto && n >= dim && n * dim >= kRandomizedCells && o.k + kOversample < dim;
}

// Returns components as columns (D, k); sets variance (k) and the total variance.
Eigen::MatrixXd randomized_path(const Rows& x, const Eigen::VectorXd& mean, int64_t k, Eigen::VectorXd& variance,
                                double& total) {
  const int64_t n = x.n, D = x.dim, l = std::min(D, k + kOversample);
  const double denom = n > 1 ? static_cast<double>(n - 1) : 1.0;
  // trace of the covariance, in double: fixed blocks of rows on the pool, each summed in row-major
  // order, the partials in block order
  total = parallel_reduce(
              n, kTraceRows, 0.0,
              [&](int64_t b, int64_t e) {
                double t = 0;
                for (int64_t i = b; i < e; ++i) {
                  const float* r = x.row(i);
                  for (int64_t d = 0; d < D; ++d) t += (r[d] - mean[d]) * (r[d] - mean[d]);
                }
                return t;
              },
              [](double a, double p) { return a + p; }) /
          denom;
  std::vector<float> omega(static_cast<size_t>(D * l)), Y(static_cast<size_t>(n * l)), Z(static_cast<size_t>(D * l));
  Generator g(0);  // a fixed test matrix: the same table gives the same map
  g.normal(omega.data(), omega.size());
  times_centred(x, omega, l, mean, Y);
  orthonormalise(Y, n, l);
  for (int it = 0; it < kPowerIterations; ++it) {
    transposed_times_centred(x, Y, l, mean, Z);
    orthonormalise(Z, D, l);
    times_centred(x, Z, l, mean, Y);
    orthonormalise(Y, n, l);
  }
  transposed_times_centred(x, Y, l, mean, Z);  // Z = X_c^T Q = B^T, B = Q^T X_c (l, D)
  Eigen::MatrixXd Bt(D, l);
  for (int64_t d = 0; d < D; ++d)
    for (int64_t c = 0; c < l; ++c) Bt(d, c) = Z[d * l + c];
  // B B^T = U S^2 U^T (l x l); the right singular vectors V = B^T U / S
  const Top t = top_eigen(Bt.transpose() * Bt, k);
  Eigen::MatrixXd V(D, k);
  for (int64_t c = 0; c < k; ++c) {
    V.col(c) = Bt * t.vectors.col(c);
    const double norm = V.col(c).norm();
    if (norm > 0) V.col(c) /= norm;
  }
  variance = t.values / denom;
  return V;
}

// points (n, k) = X_c V with the same blocked float32 products (the large-table path).
std::vector<float> randomized_points(const Rows& x, const Eigen::VectorXd& mean, const Eigen::MatrixXd& V, int64_t k) {
  std::vector<float> Vf(static_cast<size_t>(x.dim * k)), points(static_cast<size_t>(x.n * k));
  for (int64_t d = 0; d < x.dim; ++d)
    for (int64_t c = 0; c < k; ++c) Vf[d * k + c] = static_cast<float>(V(d, c));
  times_centred(x, Vf, k, mean, points);
  return points;
}

}  // namespace embedlab::pca_detail
