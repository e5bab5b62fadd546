// PCA of an embedding table to 2 or 3 dimensions, for plotting vectors as they train.
//
// Shapes: V rows of width D (the table, float32, row-major); n = the rows projected (all V,
// or the given ids); k = the number of components (2 or 3 for plots, any in [1, min(n, D)]).
//
//   pca(table (V,D), V, D, {k, ids (n) int32, previous (k,D)})
//     -> points (n,k) float32, components (k,D) float32, explained (k) double
//
// Method (as sklearn.decomposition.PCA with svd_solver='full', up to signs): centre the n
// rows on their mean, form the D x D covariance C = X^T X / (n - 1) in double with Eigen, and
// take its top-k eigenvectors. When n < D the n x n Gram matrix G = X X^T is decomposed
// instead (same non-zero eigenvalues; component v = X^T u / sqrt(mu)). The eigensolver is
// Eigen's SelfAdjointEigenSolver for matrices up to 256 x 256 and block Krylov (block Lanczos
// with Rayleigh-Ritz, top k only) above, with the exact solver as its fallback.
// explained[i] = lambda_i / trace(C), the fraction of the total variance (sklearn's
// explained_variance_ratio_), so the ratios are sorted descending and sum to <= 1.
// subtle: Eigen's results are not bit-identical between the native and the wasm build (the
// neighbours are; see neighbours.hpp); tests/js/project.test.mjs checks 1e-5 on components.
//
// Signs: an eigenvector is only defined up to sign, so each component is flipped to make its
// largest-magnitude loading positive (loadings within a relative 1e-6 of the largest count as
// tied: the lowest column of them decides), or, when `previous` (the last
// frame's components) is given, to point the same way as the previous component of the same
// index (non-negative dot product). The second keeps an animation across training steps from
// jumping whenever two loadings trade places.
//
// Cost: O(max(n, D) m^2) to form the m x m matrix (m = min(n, D)), then O(m^3) for the
// exact eigensolver or a few dozen (m x m) x (m x (k+2)) products for Krylov. Memory: that
// matrix plus 256 centred rows in double (the Gram path: all n centred rows); the table is not
// copied. Times (random tables, the slowest case for Krylov: flat spectrum; the bench table
// against sklearn, scripts/bench table): docs/benchmarks.md, "PCA".
//
// Threads (core/parallel.hpp; docs/tables.md, "PCA on several threads"): the passes over the
// rows, the randomized solver's products and its QR (TSQR) run in fixed blocks that depend on the
// shape only, sums across blocks in block order, so every thread count gives the same bytes. The
// covariance / Gram products and the eigensolvers run on the calling thread.
//
// It does not: whiten, compute more than the top k, reorder components to match `previous`
// when two eigenvalues cross (only signs are aligned), or treat zero-variance directions
// specially beyond giving them explained = 0 (their components are an arbitrary, but
// deterministic, orthonormal completion).
//
// Intended usage:
//   PcaOptions o;  o.k = 2;
//   PcaResult r = pca(table, V, D, o);         // first frame
//   o.previous = r.components;
//   PcaResult s = pca(table2, V, D, o);        // next frame, signs aligned to the first
//   // s.points[i*2 + 0], s.points[i*2 + 1]: row i's x, y
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace embedlab {

// Exact: Eigen's SelfAdjointEigenSolver on the whole D x D (or n x n) matrix, O(m^3).
// Krylov: block Lanczos for the top k only (falls back to Exact if it does not converge).
// Auto: Exact up to m = 256, Krylov above.
// Randomized: Halko, Martinsson & Tropp (2011), algorithm 4.4 (a randomized range finder with
// power iterations, as sklearn's randomized_svd: k + 10 sample directions) on the centred rows
// themselves (each centred in double before its float32 SIMD products); Auto picks it for tall
// tables (n >= D, n x D >= 2^24 cells, k + 10 < D), where forming the D x D matrix is the cost
// (50257 x 768: 15 G multiply-adds). tests/reference/pca_randomized_hard.json (mean 1e4,
// spectrum 1/sqrt(j)) holds it to numpy's SVD within 1e-4 in variance and 1e-6 in |cos|.
enum class PcaSolver { Auto, Exact, Krylov, Randomized };
// "exact" | "krylov" | "randomized" ("auto" for Auto)
const char* pca_solver_name(PcaSolver s);

struct PcaOptions {
  int64_t k = 2;                       // components, in [1, min(n, D)]
  std::span<const int32_t> ids;        // rows to project (n); empty: all V rows in order
  std::span<const float> previous;     // (k, D) components of the last frame; empty: sign rule
  PcaSolver solver = PcaSolver::Auto;
};

struct PcaResult {
  int64_t n = 0, k = 0, dim = 0;
  std::vector<float> points;       // (n, k): (row - mean) . component
  std::vector<float> components;   // (k, D): orthonormal rows, largest variance first
  std::vector<double> explained;   // (k): variance ratio, descending, sum <= 1
  std::vector<double> variance;    // (k): eigenvalues of C (ddof 1, sklearn's explained_variance_)
  std::vector<float> mean;         // (D): the mean of the projected rows
  PcaSolver solver = PcaSolver::Exact;  // the eigensolver that produced the result
  bool gram = false;                    // true: the n x n Gram matrix was decomposed (n < D)
};

// table (V, D) float32 -> PcaResult (see above). Fails on a table size that is not V x D,
// an id out of [0, V), k out of [1, min(n, D)], a non-finite value, or `previous` not k x D.
// Worked example: rows (1,0), (-1,0), (0,0.5), (0,-0.5), k = 1 -> component (1, 0),
// points (1, -1, 0, 0), variance 2/3, explained 0.8 (= 2 / (2 + 0.5)).
PcaResult pca(std::span<const float> table, int64_t rows, int64_t dim, const PcaOptions& opts = {});

// Flips the signs of r's components (and the matching point columns) so that each has a
// non-negative dot product with the same row of previous (k, D). pca() calls this when
// opts.previous is set.
void align_to(PcaResult& r, std::span<const float> previous);

}  // namespace embedlab
