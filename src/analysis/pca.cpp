#include "analysis/pca.hpp"
#include "analysis/pca_randomized.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"

namespace embedlab {

using namespace pca_detail;

namespace {

using MatrixRM = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int64_t kBlockRows = 256;    // centred rows converted to double at a time

void check_inputs(std::span<const float> table, int64_t rows, int64_t dim, const PcaOptions& o, int64_t n) {
  uint64_t want = 0;  // rows x dim in 64 bits
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(dim), &want)) {
    fail("pca", "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) +
                    " x " + std::to_string(dim));
  }
  if (table.size() != want) {
    fail("pca", "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) +
                    " x " + std::to_string(dim) + " = " + std::to_string(want));
  }
  for (const int32_t id : o.ids) check_index("pca", "id", id, 0, rows);
  const int64_t most = std::min(n, dim);
  if (o.k < 1 || o.k > most) {
    fail("pca", "k " + std::to_string(o.k) + " out of range [1, " + std::to_string(most) + "] (" +
                    std::to_string(n) + " rows of " + std::to_string(dim) + " columns)");
  }
  if (!o.previous.empty() && static_cast<int64_t>(o.previous.size()) != o.k * dim) {
    fail("pca", "previous components have " + std::to_string(o.previous.size()) + " values, expected k x D = " +
                    std::to_string(o.k) + " x " + std::to_string(dim) + " = " + std::to_string(o.k * dim));
  }
}

// Rows in fixed blocks on the pool: the lowest failing block's error is the one reported
// (parallel.hpp), and a block stops at its first bad value, so the message names the first
// non-finite value in row order whatever the thread count.
void check_finite(const Rows& x) {
  parallel_for(x.n, kScanRows, [&](int64_t b, int64_t e, int64_t) {
    for (int64_t i = b; i < e; ++i) {
      const float* r = x.row(i);
      for (int64_t d = 0; d < x.dim; ++d) {
        if (!std::isfinite(r[d])) {
          fail("pca", "table value " + format_number(r[d]) + " at row " + std::to_string(x.id(i)) + ", column " +
                          std::to_string(d) + " is not finite");
        }
      }
    }
  });
}

// Each column summed over the rows in row order, columns in fixed blocks on the pool (the
// serial loop's bits).
Eigen::VectorXd mean_of(const Rows& x) {
  Eigen::VectorXd m = Eigen::VectorXd::Zero(x.dim);
  parallel_for(x.dim, kColumnBlock, [&](int64_t c0, int64_t c1, int64_t) {
    for (int64_t i = 0; i < x.n; ++i) {
      const float* r = x.row(i);
      for (int64_t d = c0; d < c1; ++d) m[d] += r[d];
    }
  });
  return m / static_cast<double>(x.n);
}

// Rows [start, start + out.rows()) of x minus mean, in double (rows in fixed blocks on the pool).
void centred_block(const Rows& x, const Eigen::VectorXd& mean, int64_t start, MatrixRM& out) {
  parallel_for(out.rows(), kScanRows, [&](int64_t b, int64_t e, int64_t) {
    for (int64_t i = b; i < e; ++i) {
      const float* r = x.row(start + i);
      for (int64_t d = 0; d < x.dim; ++d) out(i, d) = r[d] - mean[d];
    }
  });
}

}  // namespace

Top pca_detail::top_eigen(const Eigen::MatrixXd& sym, int64_t k) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(sym);
  if (es.info() != Eigen::Success) fail("pca", "the eigensolver did not converge");
  const int64_t m = sym.rows();
  Top t{Eigen::VectorXd(k), Eigen::MatrixXd(m, k)};
  for (int64_t c = 0; c < k; ++c) {  // Eigen sorts ascending
    t.values[c] = std::max(0.0, es.eigenvalues()[m - 1 - c]);
    t.vectors.col(c) = es.eigenvectors().col(m - 1 - c);
  }
  return t;
}

namespace {

// Block Krylov (block Lanczos with full reorthogonalisation, then Rayleigh-Ritz) for the top k
// eigenpairs of a large symmetric matrix (lower triangle filled). Blocks of b = k + 2
// columns, so an eigenvalue repeated up to b times is still found; a fixed pseudo-random
// start block keeps it deterministic. Converged when every top-k Ritz pair has
// |A u - theta u| <= 1e-9 theta_max; std::nullopt after kKrylovCap columns without that.
// (Golub & Van Loan, Matrix Computations 4th ed., 10.3.6 block Lanczos.)
constexpr int64_t kKrylovCap = 320;
std::optional<Top> top_eigen_krylov(const Eigen::MatrixXd& A, int64_t k) {
  const int64_t m = A.rows(), b = std::min<int64_t>(m, k + 2), cap = std::min<int64_t>(m, kKrylovCap);
  Eigen::MatrixXd Q(m, cap), AQ(m, cap), block(m, b);
  uint32_t s = 0x9e3779b9u;
  for (int64_t i = 0; i < block.size(); ++i) {
    s = s * 1664525u + 1013904223u;
    block.data()[i] = static_cast<double>(static_cast<int32_t>(s >> 8) - (1 << 23)) / (1 << 23);
  }
  Eigen::MatrixXd H(cap, cap);  // Q^T A Q, filled block column by block column
  int64_t p = 0, next_check = 2 * b;
  for (;;) {
    const int64_t start = p;
    for (int64_t c = 0; c < block.cols() && p < cap; ++c) {
      Eigen::VectorXd v = block.col(c);
      const double before = v.norm();
      for (int pass = 0; pass < 2 && p > 0; ++pass) v -= Q.leftCols(p) * (Q.leftCols(p).transpose() * v);
      const double after = v.norm();
      if (before == 0 || after <= 1e-10 * before) continue;  // already in the span: deflate
      Q.col(p++) = v / after;
    }
    const int64_t added = p - start;
    if (added > 0) {
      AQ.middleCols(start, added).noalias() = A.selfadjointView<Eigen::Lower>() * Q.middleCols(start, added);
      H.block(0, start, p, added).noalias() = Q.leftCols(p).transpose() * AQ.middleCols(start, added);
      H.block(start, 0, added, start) = H.block(0, start, start, added).transpose();
      const Eigen::MatrixXd d = H.block(start, start, added, added);
      H.block(start, start, added, added) = 0.5 * (d + d.transpose());
    }
    if (p < k && added == 0) return std::nullopt;
    // Rayleigh-Ritz costs O(p^3): do it when the basis has grown by a quarter, or at the end.
    if (p >= k && (p >= next_check || added == 0 || p >= cap)) {
      next_check = p + std::max<int64_t>(b, p / 4);
      const Top ritz = top_eigen(H.topLeftCorner(p, p), k);
      const double tol = 1e-9 * std::max(ritz.values[0], std::numeric_limits<double>::min());
      bool done = true;
      Top out{ritz.values, Eigen::MatrixXd(m, k)};
      for (int64_t c = 0; c < k; ++c) {
        out.vectors.col(c) = Q.leftCols(p) * ritz.vectors.col(c);
        const Eigen::VectorXd r = AQ.leftCols(p) * ritz.vectors.col(c) - ritz.values[c] * out.vectors.col(c);
        done = done && r.norm() <= tol;
      }
      if (done || added == 0) return out;  // added == 0: the span is invariant, the pairs are exact
      if (p >= cap) return std::nullopt;
    }
    block = AQ.middleCols(start, added);
  }
}

// The exact solver up to kExactDim (a 256 x 256 eigenproblem takes a few ms), block Krylov
// above it, falling back to the exact solver when Krylov does not converge.
constexpr int64_t kExactDim = 256;
Top top_eigen_auto(const Eigen::MatrixXd& A, int64_t k, PcaSolver solver, PcaSolver& used) {
  if (solver == PcaSolver::Krylov || (solver == PcaSolver::Auto && A.rows() > kExactDim)) {
    if (std::optional<Top> t = top_eigen_krylov(A, k)) {
      used = PcaSolver::Krylov;
      return *t;
    }
  }
  used = PcaSolver::Exact;
  return top_eigen(A, k);
}

// Covariance path (n >= D): C = X^T X accumulated block by block. Returns components as
// columns (D, k) and sets variance and the total variance trace(C).
Eigen::MatrixXd covariance_path(const Rows& x, const Eigen::VectorXd& mean, int64_t k, Eigen::VectorXd& variance,
                                double& total, PcaSolver solver, PcaSolver& used) {
  const double denom = x.n > 1 ? static_cast<double>(x.n - 1) : 1.0;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(x.dim, x.dim);
  MatrixRM block(std::min(kBlockRows, x.n), x.dim);
  for (int64_t start = 0; start < x.n; start += kBlockRows) {
    const int64_t m = std::min(kBlockRows, x.n - start);
    if (m != block.rows()) block.resize(m, x.dim);
    centred_block(x, mean, start, block);
    C.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
  }
  C /= denom;
  total = C.diagonal().sum();
  Top t = top_eigen_auto(C, k, solver, used);
  variance = t.values;
  return t.vectors;
}

// Columns [good, k) of V (D, k) completed to an orthonormal set from the standard basis, the
// columns [0, good) being orthonormal already (directions of zero variance, k <= D).
// subtle: completion must be deterministic, so it walks e_0, e_1, ... (Gram-Schmidt, twice),
// taking each e_j that keeps more than half its length; j stays below D. When no axis passes
// (the span can leave every e_j less than half of it: 8 orthonormal columns in D = 10 may
// leave each e_j only sqrt(0.2)), the rest take the e_j with the largest residual each, which
// is at least sqrt((D - c) / D) > 0 with c columns filled (sum_j |P e_j|^2 = c).
void complete_basis(Eigen::MatrixXd& V, int64_t good, int64_t k) {
  const int64_t D = V.rows();
  const auto residual = [&](int64_t j, int64_t c) {
    Eigen::VectorXd e = Eigen::VectorXd::Unit(D, j);
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t p = 0; p < c; ++p) e -= V.col(p).dot(e) * V.col(p);
    }
    return e;
  };
  int64_t c = good;
  for (int64_t j = 0; c < k && j < D; ++j) {
    const Eigen::VectorXd e = residual(j, c);
    if (e.norm() > 0.5) V.col(c++) = e.normalized();
  }
  for (; c < k; ++c) {  // O(D^2 c) per column, only for the spans no axis escapes
    int64_t best = 0;
    double best_norm = -1;
    for (int64_t j = 0; j < D; ++j) {
      const double norm = residual(j, c).norm();
      if (norm > best_norm * (1 + 1e-9)) best = j, best_norm = norm;
    }
    V.col(c) = residual(best, c).normalized();
  }
}

// Gram path (n < D): G = X X^T (n, n); v = X^T u / sqrt(mu). Directions with (numerically)
// zero variance have no v from this formula and are completed from the standard basis.
Eigen::MatrixXd gram_path(const Rows& x, const Eigen::VectorXd& mean, int64_t k, Eigen::VectorXd& variance,
                          double& total, PcaSolver solver, PcaSolver& used) {
  const double denom = x.n > 1 ? static_cast<double>(x.n - 1) : 1.0;
  MatrixRM X(x.n, x.dim);
  centred_block(x, mean, 0, X);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(x.n, x.n);
  G.selfadjointView<Eigen::Lower>().rankUpdate(X);
  total = G.diagonal().sum() / denom;
  const Top t = top_eigen_auto(G, k, solver, used);
  const double tol = t.values[0] * 1e-10;
  Eigen::MatrixXd V(x.dim, k);
  int64_t good = 0;
  for (; good < k && t.values[good] > tol; ++good) {
    V.col(good) = X.transpose() * t.vectors.col(good);
    V.col(good).normalize();
  }
  variance = t.values / denom;
  complete_basis(V, good, k);
  for (int64_t c = good; c < k; ++c) variance[c] = 0.0;
  return V;
}

// Largest-|loading| positive. Loadings within a relative 1e-6 of the largest count as tied
// and the lowest column of them wins.
// subtle: without the tolerance, a symmetric direction such as (1, -1)/sqrt2 would take its
// sign from rounding noise, which differs between the native and the wasm build.
void fix_sign(Eigen::Ref<Eigen::VectorXd> v) {
  const double top = v.cwiseAbs().maxCoeff();
  Eigen::Index best = 0;
  while (std::abs(v[best]) < top * (1 - 1e-6)) ++best;
  if (v[best] < 0) v = -v;
}

}  // namespace

const char* pca_solver_name(PcaSolver s) {
  switch (s) {
    case PcaSolver::Exact: return "exact";
    case PcaSolver::Krylov: return "krylov";
    case PcaSolver::Randomized: return "randomized";
    case PcaSolver::Auto: break;
  }
  return "auto";
}

PcaResult pca(std::span<const float> table, int64_t rows, int64_t dim, const PcaOptions& opts) {
  check_at_least("pca", "rows", rows, 1);
  check_at_least("pca", "dim", dim, 1);
  const int64_t n = opts.ids.empty() ? rows : static_cast<int64_t>(opts.ids.size());
  check_inputs(table, rows, dim, opts, n);
  const Rows x{table.data(), dim, opts.ids, n};
  check_finite(x);
  for (size_t i = 0; i < opts.previous.size(); ++i) {
    if (!std::isfinite(opts.previous[i])) {
      fail("pca", "previous component value " + format_number(opts.previous[i]) + " at index " +
                      std::to_string(i) + " is not finite");
    }
  }

  const int64_t m = std::min(n, dim);  // the side of the matrix to decompose
  const int64_t k = opts.k;            // <= m (checked)
  const bool randomized = use_randomized(opts, n, dim);
  MemoryPlan p("pca");
  if (randomized) {
    const int64_t l = std::min(dim, k + kOversample), rows = std::min(kRandomBlock, n);
    p.add("samples", {n, l}, kFloat32);                          // Y
    p.add("test matrix and projection", {2 * dim, l}, kFloat32);  // omega, Z
    p.add("transposed projections", {2 * l, dim}, kFloat32);      // Bt, Zt
    p.add("transposed samples", {l, n}, kFloat32);                // YT
    p.add("centred row block", {rows + 1, dim}, kFloat32);         // block, centred
    p.add("QR of the samples", {2 * n, l}, kFloat64);             // M and its Q (TSQR: the blocks' QR and E)
    p.add("stacked R factors", {n / kQrRows + 1, l, 2 * l}, kFloat64);  // S and Q_s
  } else {
    p.add(n < dim ? "Gram matrix" : "covariance matrix", {m, m}, kFloat64);
    p.add("centred rows", {n < dim ? n : std::min(kBlockRows, n), dim}, kFloat64);
    if (opts.solver == PcaSolver::Krylov || (opts.solver == PcaSolver::Auto && m > kExactDim)) {
      const int64_t cap = std::min(m, kKrylovCap);
      p.add("Krylov basis", {m, cap}, kFloat64);
      p.add("Krylov basis times the matrix", {m, cap}, kFloat64);
      p.add("Krylov projection", {cap, cap}, kFloat64);
      p.add("Krylov block", {m, std::min(m, k + 2)}, kFloat64);
    }
    p.add("eigenvectors", {m, m}, kFloat64);  // the exact solver's (also Krylov's fallback)
  }
  p.add("components", {k, dim}, kFloat32);
  p.add("points", {n, k}, kFloat32);
  p.add("mean", {dim}, kFloat64);
  p.check();
  const Eigen::VectorXd mean = mean_of(x);
  Eigen::VectorXd variance;
  double total = 0;
  PcaSolver used = PcaSolver::Exact;
  Eigen::MatrixXd V = randomized ? randomized_path(x, mean, opts.k, variance, total)
                     : n < dim  ? gram_path(x, mean, opts.k, variance, total, opts.solver, used)
                                : covariance_path(x, mean, opts.k, variance, total, opts.solver, used);
  if (randomized) used = PcaSolver::Randomized;
  for (int64_t c = 0; c < opts.k; ++c) fix_sign(V.col(c));

  PcaResult r;
  r.n = n, r.k = opts.k, r.dim = dim;
  r.solver = used;
  r.gram = n < dim;
  r.components.resize(static_cast<size_t>(opts.k * dim));
  for (int64_t c = 0; c < opts.k; ++c) {
    for (int64_t d = 0; d < dim; ++d) r.components[c * dim + d] = static_cast<float>(V(d, c));
  }
  r.mean.assign(mean.data(), mean.data() + dim);
  r.variance.assign(variance.data(), variance.data() + opts.k);
  r.explained.resize(static_cast<size_t>(opts.k));
  for (int64_t c = 0; c < opts.k; ++c) r.explained[c] = total > 0 ? variance[c] / total : 0.0;

  // points (n, k) = (row - mean) . v_c, in double (the large-table path: float32 SIMD products)
  if (randomized) {
    r.points = randomized_points(x, mean, V, opts.k);
  } else {
    r.points.resize(static_cast<size_t>(n * opts.k));
    parallel_for(n, kScanRows, [&](int64_t b, int64_t e, int64_t) {  // rows in fixed blocks, each its own points
      Eigen::VectorXd centred(dim);
      for (int64_t i = b; i < e; ++i) {
        const float* row = x.row(i);
        for (int64_t d = 0; d < dim; ++d) centred[d] = row[d] - mean[d];
        for (int64_t c = 0; c < opts.k; ++c) r.points[i * opts.k + c] = static_cast<float>(centred.dot(V.col(c)));
      }
    });
  }
  if (!opts.previous.empty()) align_to(r, opts.previous);
  return r;
}

void align_to(PcaResult& r, std::span<const float> previous) {
  if (static_cast<int64_t>(previous.size()) != r.k * r.dim) {
    fail("align_to", "previous components have " + std::to_string(previous.size()) + " values, expected k x D = " +
                         std::to_string(r.k) + " x " + std::to_string(r.dim) + " = " + std::to_string(r.k * r.dim));
  }
  for (int64_t c = 0; c < r.k; ++c) {
    double dot = 0;
    for (int64_t d = 0; d < r.dim; ++d) dot += static_cast<double>(r.components[c * r.dim + d]) * previous[c * r.dim + d];
    if (dot >= 0) continue;
    for (int64_t d = 0; d < r.dim; ++d) r.components[c * r.dim + d] = -r.components[c * r.dim + d];
    for (int64_t i = 0; i < r.n; ++i) r.points[i * r.k + c] = -r.points[i * r.k + c];
  }
}

}  // namespace embedlab
