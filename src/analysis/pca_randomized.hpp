// Internals shared by PCA's two source files (pca.cpp: the checks, the exact and Krylov
// solvers, the sign rule; pca_randomized.cpp: the randomized solver). Not a public interface:
// analysis/pca.hpp is. Shapes as in pca.hpp: n rows of width D, k components, l = k + 10 samples.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/pca.hpp"

namespace embedlab::pca_detail {

inline constexpr int64_t kScanRows = 256;     // rows of one block of a pass over the table on the pool
inline constexpr int64_t kColumnBlock = 64;   // columns of one block of a column-wise pass on the pool
inline constexpr int64_t kOversample = 10;    // l = k + 10 sample directions (sklearn's n_oversamples)
inline constexpr int64_t kRandomBlock = 1024; // centred rows per block of the randomized products
inline constexpr int64_t kQrRows = 512;       // rows of one TSQR block (orthonormalise)

// The rows to project: row i of the subset is table row ids[i] (or i when ids is empty).
struct Rows {
  const float* table;
  int64_t dim;
  std::span<const int32_t> ids;
  int64_t n;
  const float* row(int64_t i) const {
    return table + (ids.empty() ? i : static_cast<int64_t>(ids[static_cast<size_t>(i)])) * dim;
  }
  int64_t id(int64_t i) const { return ids.empty() ? i : ids[static_cast<size_t>(i)]; }
};

// Top-k eigenpairs of a symmetric matrix (lower triangle filled): values descending.
struct Top {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;  // columns
};
Top top_eigen(const Eigen::MatrixXd& sym, int64_t k);  // Eigen's SelfAdjointEigenSolver (pca.cpp)

// Auto picks the randomized solver for tall tables: n >= D, n x D >= 2^24, k + 10 < D.
bool use_randomized(const PcaOptions& o, int64_t n, int64_t dim);
// x (n, D), mean (D) -> components as columns (D, k); sets variance (k) and the total variance.
Eigen::MatrixXd randomized_path(const Rows& x, const Eigen::VectorXd& mean, int64_t k, Eigen::VectorXd& variance,
                                double& total);
// points (n, k) = X_c V with the same blocked float32 products.
std::vector<float> randomized_points(const Rows& x, const Eigen::VectorXd& mean, const Eigen::MatrixXd& V, int64_t k);

}  // namespace embedlab::pca_detail
