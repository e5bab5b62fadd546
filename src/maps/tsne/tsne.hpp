// t-SNE of an embedding table to 2 dimensions (van der Maaten 2014, "Accelerating t-SNE using
// tree-based algorithms", JMLR 15), run in steps so a page can draw the map as it forms.
//
// Shapes: the table (n, D) float32 row-major (n = V rows, all of them); the map Y (n, 2)
// float32 row-major; K = floor(3 perplexity) neighbours per row.
//
//   TsneRun run(table (n,D), n, D, opts);     // neighbours + affinities P (sparse, symmetric)
//   run.step(50);                             // 50 more gradient-descent iterations
//   run.coordinates()                         -> Y (n, 2) float32
//   run.iteration(), run.total_iterations(), run.kl()
//
// Method (as bhtsne's tsne.cpp, van der Maaten's reference implementation):
//  1. Neighbours: the K nearest rows of every row (all n - 1 other rows in exact mode), by
//     squared euclidean distance (or cosine distance 1 - cos, as sklearn's metric='cosine'),
//     exactly: the rows are centred, then every pair's dot product comes from blocked
//     dense::gemm on the (n, D) x (D, n) product, each pair once (n^2 D / 2 multiply-adds).
//     No vantage-point tree: O(n^2 D) time, which is why n is capped at kTsneMaxRows.
//  2. Affinities: per row, a binary search over the Gaussian precision beta until the
//     conditional distribution p_{j|i} over the row's neighbours has the requested perplexity
//     2^H within a relative 1e-5 (bhtsne's computeGaussianPerplexity: beta from 1, doubled or
//     halved until bracketed, then bisected; at most 200 steps; in double with detmath::exp).
//     Then P = (P + P^T) / (2n), normalised by its sum (2n up to rounding) as bhtsne and
//     sklearn do, stored sparse (CSR) in float32.
//  3. Layout: gradient descent on KL(P || Q), Q the Student-t (one degree of freedom)
//     similarities of the map, with bhtsne's schedule: early exaggeration (P x 12) and momentum
//     0.5 for the first 250 iterations, then momentum 0.8; per-coordinate gains (+0.2 when the
//     gradient's sign differs from the last update's, else x0.8, at least 0.01); the map is
//     re-centred after every step. The gradient is the true one, eq. (5) of the paper:
//       dC/dy_i = 4 [ sum_j e p_ij w_ij (y_i - y_j) - (1/Z) sum_j w_ij^2 (y_i - y_j) ],
//       w_ij = 1 / (1 + |y_i - y_j|^2),  Z = sum_{k != l} w_kl,  e the exaggeration.
//     subtle: bhtsne drops the factor 4 (its eta = 200 is 50 here); sklearn keeps it, so
//     learning rates mean what they mean in sklearn, and 'auto' is sklearn's
//     max(n / early_exaggeration / 4, 50).
//     The attractive sum runs over P's non-zeros. The repulsive sum (and Z) is exact, O(n^2),
//     in exact mode (n <= exact_max_rows, default 1000, or theta = 0), else Barnes-Hut: a
//     quadtree of the map rebuilt every iteration (a flat array in depth-first order, each node
//     holding its centre of mass, its point count and where its subtree ends, so the traversal
//     is one loop without a stack); a cell whose half-width h and distance d to a point's
//     position satisfy h / d < theta stands for all its points (bhtsne's criterion, half-width;
//     sklearn compares the full width, so sklearn's angle 0.5 is stricter than theta 0.5);
//     leaves hold up to 8 points, each taken exactly.
//  4. KL divergence: sum_ij p_ij log(p_ij / (w_ij / Z)) over P's non-zeros, with Z exact in
//     exact mode and the Barnes-Hut estimate otherwise (bhtsne's evaluateError); P without
//     exaggeration, so it is the objective itself even during the first 250 iterations.
//
// Initial layout: 'random' draws N(0, 1e-4^2) from the seed (bhtsne); 'pca' is the top two
// principal components of the centred rows, scaled so the first has standard deviation 1e-4
// (sklearn's init='pca'), found by subspace iteration in plain double loops (not Eigen, so the
// bits are the same in both builds); or any (n, 2) layout given, e.g. the last frame.
//
// Threads (core/parallel.hpp; docs/maps.md, "t-SNE on several threads"): the calibration runs
// in fixed blocks of rows; each gradient in fixed blocks of 256 points for the repulsive sums
// plus one block for the whole attractive pass (its serial scatter keeps the pair-once trick);
// the KL terms in blocks of rows. Every block writes only its own outputs, and sums across
// rows (Z, KL) are taken in index order afterwards, so any thread count gives the serial bits.
// Determinism: the same table, options and seed give the same bits, natively and in wasm.
// Every reduction runs in a fixed order in scalar float/double arithmetic, exp and log are
// core/detmath's, the products are dense::gemm's (fixed order in every variant), and the tree's
// partition and every sort break ties by index (no std::partition / std::nth_element, whose
// orders differ between libstdc++ and libc++).
//
// Cost: neighbours O(n^2 D) (n^2 D / 2 multiply-adds); affinities O(n K s), s <= 200 search
// steps (typically 20-30); each Barnes-Hut iteration O(n log n) plus O(nnz(P)) attractive terms
// (the tree traversals and the attractive terms, one division per pair of P, take most of an
// iteration; the tree builds and the update the rest). Times against scikit-learn's barnes_hut:
// scripts/bench tsne; figures in docs/benchmarks.md, "t-SNE".
// Memory: the centred table and its transpose (2 n D float32), K neighbours per row, P
// (<= 2 n K entries), the map, its update, gains and gradient (4 x n x 2 float32), the tree.
//
// It does not: build a vantage-point tree (neighbours are exact, n <= kTsneMaxRows), embed in
// more than 2 dimensions, build the quadtree on several threads, interpolate (FIt-SNE), transform new points into
// an existing map, or stop early on a flat KL divergence (sklearn's n_iter_without_progress).
//
// Intended usage:
//   TsneOptions o;  o.perplexity = 30;  o.iterations = 1000;  o.seed = 1;
//   TsneRun run(table, V, D, o);
//   TsneRun r2 = TsneRun::start(table, V, D, o);               // or the construction in slices:
//   while (!r2.prepare(8)) show(r2.phase(), r2.progress());   //   "neighbours" 0.4, ...
//   while (run.iteration() < run.total_iterations()) { run.step(50); draw(run.coordinates()); }
//   double kl = run.kl();
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/neighbours.hpp"  // Metric

namespace embedlab {

class MemoryPlan;

// Rows above this are refused: neighbours are exact, O(n^2 D).
inline constexpr int64_t kTsneMaxRows = 100000;
// Iterations with early exaggeration and momentum 0.5 (bhtsne's stop_lying_iter and
// mom_switch_iter; sklearn's _EXPLORATION_N_ITER).
inline constexpr int64_t kTsneExplorationIterations = 250;

enum class TsneInit { Random, Pca, Given };
// "random" | "pca" -> TsneInit; anything else fails naming the choices.
TsneInit parse_tsne_init(const std::string& name);
const char* tsne_init_name(TsneInit init);

struct TsneOptions {
  double perplexity = 30;            // in [1, (n - 1) / 3)
  int64_t iterations = 1000;         // total gradient-descent iterations, >= 1
  double theta = 0.5;                // Barnes-Hut accuracy in [0, 1]; 0: exact gradients
  double learning_rate = 200;        // > 0 (sklearn's units, see above)
  bool learning_rate_auto = false;   // true: max(n / early_exaggeration / 4, 50)
  double early_exaggeration = 12;    // >= 1, for the first 250 iterations
  uint64_t seed = 0;                 // the random initial layout
  Metric metric = Metric::Euclidean;
  TsneInit init = TsneInit::Random;
  std::span<const float> initial;    // (n, 2) when init == Given
  int64_t exact_max_rows = 1000;     // n at most this: exact affinities (all rows) and gradients
};

// The K nearest rows of every row: ids and distances (squared euclidean or cosine), each row
// sorted by (distance, id).
struct TsneNeighbours {
  int64_t n = 0, k = 0;
  std::vector<int32_t> ids;      // (n, k)
  std::vector<float> distances;  // (n, k)
};

// A sparse (n, n) matrix in CSR form: row i's entries are [row_start[i], row_start[i + 1]).
struct TsneAffinities {
  int64_t n = 0;
  std::vector<int64_t> row_start;  // (n + 1)
  std::vector<int32_t> cols;       // (nnz)
  std::vector<float> values;       // (nnz)
};

// table (n, D) -> the k nearest other rows of each row (k <= n - 1), exact (see above). Fails on
// a size mismatch, a non-finite value, or (cosine) a row of zeros.
TsneNeighbours tsne_neighbours(std::span<const float> table, int64_t rows, int64_t dim, int64_t k, Metric metric);

// The checks tsne_neighbours makes of the table before any work: its size, finite values and
// (cosine) no row of zeros; fails with the same messages.
void tsne_check_table(std::span<const float> table, int64_t rows, int64_t dim, Metric metric);

// tsne_neighbours in units of bounded work, so TsneRun's construction can be interrupted: the
// centring, transposing and norms (one unit), one product block of 64 rows x 512 columns, then
// blocks of 64 rows sorted. advance(work) runs units until their cost in multiply-adds reaches
// work (at least one unit); the units do not depend on work, so every slicing gives
// tsne_neighbours' result, bit for bit. subtle: keeps a view of table, which must outlive it.
class TsneNeighbourSearch {
 public:
  // Checks the table and k and plans the memory (fails before allocating).
  TsneNeighbourSearch(std::span<const float> table, int64_t rows, int64_t dim, int64_t k, Metric metric);
  ~TsneNeighbourSearch();
  TsneNeighbourSearch(TsneNeighbourSearch&&) noexcept;
  TsneNeighbourSearch& operator=(TsneNeighbourSearch&&) noexcept;
  // The buffers of a search, added to p (for a caller that plans its whole construction).
  static void plan(MemoryPlan& p, int64_t rows, int64_t dim, int64_t k, Metric metric);
  int64_t advance(int64_t work);  // -> multiply-adds spent (0 when done)
  bool done() const;
  double progress() const;        // in [0, 1], the share of the pairs measured
  TsneNeighbours take();          // once done; the search is empty afterwards

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Neighbours -> conditional P (row i: p_{j|i} over its neighbours, in their order, summing to 1)
// with perplexity 2^H(P_i) = perplexity within a relative 1e-5; betas (n) receives each row's
// precision when given. Worked example: a row with neighbour distances (0, 0) and perplexity 2
// -> (0.5, 0.5) at any beta.
TsneAffinities tsne_conditional(const TsneNeighbours& nb, double perplexity, std::vector<double>* betas = nullptr);
// The same in blocks of rows: begin plans and sizes the result (columns and row starts set),
// rows calibrates rows [begin, end) of it (betas, when given, sized n by the caller).
TsneAffinities tsne_conditional_begin(const TsneNeighbours& nb, double perplexity);
void tsne_conditional_rows(const TsneNeighbours& nb, double perplexity, TsneAffinities& out, int64_t begin,
                           int64_t end, std::vector<double>* betas = nullptr);

// Conditional P -> (P + P^T) normalised to sum 1, rows sorted by column.
TsneAffinities tsne_symmetrise(const TsneAffinities& conditional);

// The gradient of KL(P || Q) at Y (n, 2) with P multiplied by exaggeration (P as
// tsne_symmetrise makes it: symmetric, rows sorted by column; each pair is computed once): grad (n, 2)
// float32; returns Z = sum_{k != l} w_kl. exact: the O(n^2) sums; bh: the quadtree with theta
// (theta = 0 opens every cell, so it equals the exact gradient up to summation order).
double tsne_gradient_exact(const TsneAffinities& P, std::span<const float> Y, float exaggeration, std::span<float> grad);
double tsne_gradient_bh(const TsneAffinities& P, std::span<const float> Y, double theta, float exaggeration,
                        std::span<float> grad);
// KL(P || Q) at Y: exact Z when theta == 0, else the Barnes-Hut estimate of Z.
double tsne_kl(const TsneAffinities& P, std::span<const float> Y, double theta);

// The same, carrying the tree's point order from one call to the next (order (n): a permutation
// of [0, n), updated in place; TsneRun keeps it, so each build starts from nearly sorted input).
double tsne_gradient_bh_ordered(const TsneAffinities& P, std::span<const float> Y, double theta, float exaggeration,
                                std::span<float> grad, std::vector<int32_t>& order);
double tsne_kl_ordered(const TsneAffinities& P, std::span<const float> Y, double theta, std::vector<int32_t>& order);

// The 'pca' initial layout of table (n, D), D >= 2: (n, 2), column 0's standard deviation 1e-4.
std::vector<float> tsne_pca_init(std::span<const float> table, int64_t rows, int64_t dim);

// Multiply-adds of one slice of TsneRun::prepare (about 1-3 ms in wasm).
inline constexpr int64_t kTsneSliceWork = int64_t{1} << 21;

class TsneRun {
 public:
  // Validates the options, finds the neighbours, calibrates and symmetrises P, and sets the
  // initial layout. Fails naming the option, its value and its range, e.g.
  // "tsne: perplexity 30 must be below (n - 1) / 3 = 16.33 for 50 rows".
  TsneRun(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& opts = {});
  // Validates the options and the table (sizes, finite values, cosine's zero rows), plans the
  // memory of the construction and copies the table (O(n D)); the neighbours, P and the initial
  // layout wait for prepare(). Fails as the constructor does. Keeps no reference to table or
  // opts.initial.
  static TsneRun start(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& opts = {});
  ~TsneRun();
  TsneRun(TsneRun&&) noexcept;
  TsneRun& operator=(TsneRun&&) noexcept;

  // Runs up to `slices` slices of the construction, each about kTsneSliceWork multiply-adds
  // (TsneNeighbourSearch's units, blocks of rows of the calibration; the symmetrisation and the
  // initial layout one slice each); -> prepared(). Every slicing gives the same bits as the
  // constructor (tests/test_tsne.cpp).
  // work: the multiply-adds of a slice (tests use small ones to cut the units finely).
  bool prepare(int64_t slices, int64_t work = kTsneSliceWork);
  bool prepared() const { return !build_; }
  // "neighbours" | "affinities" | "init" while preparing, then "iteration"; progress() is the
  // share of the phase done, in [0, 1] (iteration() / total_iterations() once prepared).
  const char* phase() const;
  double progress() const;

  // Runs min(iterations, total - done) more iterations, after the rest of the construction if it
  // was not prepared; returns iteration() afterwards.
  // Fails, naming the iteration and the learning rate, if the map stops being finite.
  int64_t step(int64_t iterations);

  const std::vector<float>& coordinates() const { return y_; }  // (n, 2); empty before the init
  int64_t rows() const { return n_; }
  int64_t iteration() const { return iteration_; }
  int64_t total_iterations() const { return total_; }
  bool exact() const { return exact_; }
  double learning_rate() const { return learning_rate_; }
  const TsneAffinities& affinities() const { return p_; }  // empty before prepared
  // KL(P || Q) at the current map (exact or Barnes-Hut, as the gradient); computed on demand
  // (one more pass over the tree) and kept until the next step.
  double kl();  // fails before prepared

  // Wall-clock seconds of the phases so far: neighbours and affinities (in the constructor),
  // layout (all steps).
  double neighbours_seconds() const { return neighbours_s_; }
  double affinities_seconds() const { return affinities_s_; }
  double layout_seconds() const { return layout_s_; }

 private:
  struct Build;  // the construction's state until prepared (tsne.cpp)
  TsneRun(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& opts, bool prepare_now);
  std::unique_ptr<Build> build_;
  int64_t n_ = 0, iteration_ = 0, total_ = 0;
  bool exact_ = false;
  double theta_ = 0.5, learning_rate_ = 200, exaggeration_ = 12;
  TsneAffinities p_;
  std::vector<float> y_, update_, gains_, grad_;  // (n, 2) each
  std::vector<int32_t> order_;                    // (n) the quadtree's point order
  double kl_ = 0;
  int64_t kl_iteration_ = -1;  // the iteration kl_ belongs to
  double neighbours_s_ = 0, affinities_s_ = 0, layout_s_ = 0;
};

}  // namespace embedlab
