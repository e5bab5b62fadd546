// UMAP of a table's rows to 2 dimensions (McInnes, Healy & Melville 2018, "UMAP: Uniform
// Manifold Approximation and Projection for Dimension Reduction", arXiv:1802.03426), as
// umap-learn 0.5 computes it, in steps, seeded, with the same bits in the native and the wasm
// build.
//
// Shapes: table (n, D) float32 row-major; the map is (n, 2) float32 (row i's x, y); new rows
// for transform are (m, D) -> (m, 2).
//
// Method (umap-learn's names; the phases are timed separately):
//   knn     the n_neighbors - 1 nearest other rows of each row (maps/knn.hpp: exact below
//           kExactBelow = 4096 rows, NN-descent with random-projection trees above), the row
//           itself counting as its own first neighbour as in umap-learn.
//   graph   smooth_knn_dist: per row rho = the distance to the nearest neighbour
//           (local_connectivity 1) and sigma by binary search (64 steps, tolerance 1e-5) so that
//           sum_j exp(-max(0, d_j - rho) / sigma) = log2(n_neighbors) (bandwidth 1), sigma at
//           least 1e-3 times the mean distance; memberships w_ij = exp(-(d_ij - rho_i) / sigma_i);
//           fuzzy union W = A + A^T - A o A^T (set_op_mix_ratio 1); entries below
//           max(W) / n_epochs dropped.
//   init    spectral: the 2 eigenvectors after the trivial one of the normalised Laplacian
//           I - D^-1/2 W D^-1/2 (largest of D^-1/2 W D^-1/2; Lanczos with full
//           reorthogonalisation, deflating the trivial vector sqrt(degree), a fixed start
//           vector, explicit restarts, Ritz pairs from a Jacobi eigensolver: all plain double
//           loops, so deterministic). A graph of several components gets umap-learn's
//           multi_component_layout: the components' places from the spectral embedding of
//           their centroids (affinity exp(-d^2), as sklearn's SpectralEmbedding; more than 4
//           components) or +-e1, +-e2 (up to 4), each component's own spectral layout scaled
//           into half the distance to its nearest neighbouring place (uniform noise there for
//           components under 4 rows). Above 256 components (kMaxSpectralComponents) the
//           places are the top 2 principal components of the centroids instead (no C x C
//           matrix; info().init_note says so); the C x C matrices below it are planned, and
//           the init runs in units (the places, then components), so it can be cancelled.
//           subtle: the centroids are those of the rows the metric sees (unit rows for
//           cosine), where umap-learn averages the raw rows. pca: the top 2
//           principal components of the rows the metric sees (unit rows for cosine, the rows
//           for euclidean), by the same Lanczos on the covariance. Either is scaled so its
//           largest |coordinate| is 10, gets N(0, 1e-4) noise (umap-learn's noisy_scale_coords),
//           and every init, a given one too, is then mapped to [0, 10] per axis
//           (10 (x - min) / (max - min)), as umap-learn's simplicial_set_embedding does.
//   layout  optimize_layout_euclidean: each edge (both directions of every entry of W) is
//           sampled every max(W) / w_ij epochs; a sample pulls both ends together with
//           -2ab d^2(b-1) / (1 + a d^2b) (times the difference), then negative_sample_rate
//           random rows push the head away with 2 gamma b / ((0.001 + d^2)(1 + a d^2b)); each
//           gradient coordinate clipped to [-4, 4]; learning rate lr (1 - e / n_epochs) in
//           epoch e = 0 .. n_epochs - 1 (epoch 0 samples nothing, as in umap-learn), as umappp
//           and Embedding Atlas set it. subtle: umap-learn (and umap-js) set the rate after
//           each epoch, so their epoch e runs at lr (1 - (e - 1) / n_epochs) and the last
//           epochs at twice this rate; those last steps decide the fine structure (the
//           neighbours kept under each schedule: docs/benchmarks.md, "UMAP").
//           a, b come from find_ab_params.
//           The layout is in float32 with a deterministic float pow (2^(b log2 d^2), Cephes
//           polynomials, relative error below 1e-5), sequential (one thread) and driven by a
//           seeded generator, so the same seed gives the same bits on every run and in both
//           builds. Order: the edge list is cut into 16 stripes walked side by side; a round
//           takes the next due edge of each stripe (16 heads, almost always different rows),
//           computes their 16 attractions in one SIMD batch from the positions before the
//           round and applies them in stripe order, then pass k computes the k-th negative
//           sample of every edge of the round, so each head takes its samples one after the
//           other, each measured from where the previous one left it, as in umap-learn.
//           subtle: within a round the 16 attractions do not see each other's moves (an
//           edge's tail may be another lane's head): the price of filling the SIMD lanes with
//           independent work, much smaller than Hogwild's in umap-learn's parallel layout.
//           The kernel (umap_detail::forces) runs four 4-lane passes in wasm and SSE2, two
//           8-lane ones with AVX2, one 16-lane pass with AVX-512, chosen at run time, the
//           same bits. (This order against the previous one, and the options that keep more
//           input neighbours: docs/benchmarks.md, "UMAP".)
//   transform  umap-learn's transform: the n_neighbors nearest fitted rows of each new row
//           (exact scan, O(m n D)), memberships with local_connectivity 0 (rho = 0), rows
//           normalised to sum 1, the new point starts at the weighted mean of its neighbours'
//           map positions, then n_epochs / 3 epochs (100 when n_epochs was left to the default
//           and n <= 10000, else 30) at learning_rate / 4 move the new points only (the fitted
//           map stays fixed; negative samples are fitted points).
//
// Determinism: the same table, options and seed give the same coordinates bit for bit, in
// every run, at every step slicing (step(1) 500 times = step(500)), natively and in wasm
// (tests/test_umap.cpp, tests/js/umap.test.mjs). Nothing uses libm's exp/log/pow, Eigen or
// std algorithms with implementation-defined orders.
//
// Cost: knn O(n^2 D / 2) exact, about 15-25 n k D NN-descent; graph O(n k log k); spectral
// init a few hundred products with the n k sparse matrix plus O(n m^2) for m <= 96 Lanczos
// vectors; layout O(n_epochs * (edges + samples * negative_sample_rate)). Memory: the working
// copy of the table (n D float32), the heaps and candidate lists (n * (9 k + 16 * 30) bytes),
// the graph (n k entries, twice), the Lanczos basis (n m doubles), all planned first.
// Times against Embedding Atlas's wasm UMAP, per phase, native and wasm, and the quality
// (input neighbours kept): scripts/bench umap, umap-large; figures in docs/benchmarks.md.
//
// Threads: the kNN search, smooth_knn_dist and the memberships run on the thread pool in fixed
// blocks, so the map's bits do not depend on the thread count; the layout runs on one thread (a
// deterministic block-parallel epoch kept fewer neighbours: docs/maps.md, "Threads").
//
// It does not: output more than 2 dimensions, run densMAP, supervised or inverse transforms,
// or search an index for transform (it scans all fitted rows).
//
// Construction in slices (for a page that must stay interruptible): UmapRun::start validates,
// plans the memory and copies the rows; prepare(slices) then runs knn, graph and init in slices
// of about kUmapSliceWork multiply-adds (a few ms; the kNN search's units, blocks of rows of
// smooth_knn_dist; the fuzzy union, the pruning and the init are one unit each, except a
// multi-component init: the components' places, then components one after the other), reporting
// phase() and progress(). The units and their order do not depend on the slicing, so
// prepare(1) until done, prepare(7) until done and the one-call constructor give the same bits
// (tests/test_umap.cpp).
//
// Intended usage:
//   UmapOptions o;  o.n_neighbors = 15;  o.seed = 42;  o.metric = Metric::Cosine;
//   UmapRun run(table, n, D, o);             // knn + graph + init
//   UmapRun r2 = UmapRun::start(table, n, D, o);                  // or in slices:
//   while (!r2.prepare(8)) show(r2.phase(), r2.progress());      //   "knn" 0.4, ...
//   while (!run.done()) { run.step(10); draw(run.coordinates()); }   // (n, 2) float32
//   std::vector<float> p = run.transform(new_rows, m);               // (m, 2)
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "maps/knn.hpp"
#include "analysis/neighbours.hpp"  // Metric

namespace embedlab {

enum class UmapInit { Spectral, Pca, Given };
const char* umap_init_name(UmapInit i);     // "spectral" | "pca" | "given"
UmapInit parse_umap_init(const std::string& name);  // "spectral" | "pca", else fails naming them

struct UmapOptions {
  int64_t n_neighbors = 15;          // in [2, n - 1]
  double min_dist = 0.1;             // in [0, spread]
  double spread = 1.0;               // > 0
  int64_t n_epochs = -1;             // -1: 500 for n <= 10000, else 200; else in [0, 100000]
  Metric metric = Metric::Euclidean;  // umap-learn's default
  uint64_t seed = 0;                 // random_state
  UmapInit init = UmapInit::Spectral;
  std::span<const float> init_coords;  // (n, 2) when init is Given
  double learning_rate = 1.0;          // > 0
  int64_t negative_sample_rate = 5;    // in [0, 1000]
  double repulsion_strength = 1.0;     // gamma, >= 0
  double local_connectivity = 1.0;     // >= 0
  double set_op_mix_ratio = 1.0;       // in [0, 1]: 1 fuzzy union, 0 fuzzy intersection
  KnnMethod knn = KnnMethod::Auto;
};

struct UmapSeconds {
  double knn = 0, graph = 0, init = 0, layout = 0;
  double total() const { return knn + graph + init + layout; }
};

struct UmapInfo {
  double a = 0, b = 0;        // the curve 1 / (1 + a d^2b)
  int64_t n_epochs = 0;       // the total epochs of the layout
  KnnStats knn;               // the method that ran, its rounds and distance evaluations
  UmapInit init = UmapInit::Spectral;  // the init that ran (Pca when spectral fell back)
  int64_t components = 1;     // connected components of the graph
  int64_t edges = 0;          // directed edges of the layout (both directions of each entry)
  std::string init_note;      // why the init differs from the one asked for, or ""
};

// a, b of 1 / (1 + a x^2b) fitted by least squares (Levenberg-Marquardt from (1, 1), as
// scipy's curve_fit) to 1 for x < min_dist and exp(-(x - min_dist) / spread) beyond, on 300
// points of linspace(0, 3 spread, 300) (umap-learn's find_ab_params).
// Worked example: spread 1, min_dist 0.1 -> a = 1.5769, b = 0.8951 (scipy 1.10: 1.576943,
// 0.895061).
struct AbParams {
  double a, b;
};
AbParams find_ab_params(double spread, double min_dist);

// umap-learn's smooth_knn_dist on dists (n, k) ascending per row whose column 0 is the row
// itself (distance 0): rho from the non-zero distances (local_connectivity), sigma by binary
// search so that sum_{j >= 1} exp(-max(0, d_ij - rho_i) / sigma_i) = log2(k) * bandwidth.
struct SmoothKnn {
  std::vector<double> sigma, rho;  // (n)
};
SmoothKnn smooth_knn_dist(std::span<const float> dists, int64_t n, int64_t k, double local_connectivity = 1.0,
                          double bandwidth = 1.0);

// Multiply-adds of one slice of UmapRun::prepare (about 1-3 ms in wasm).
inline constexpr int64_t kUmapSliceWork = int64_t{1} << 21;

class UmapRun {
 public:
  // Runs knn, graph and init (see the file comment); fails on bad options naming the value and
  // its range ("umap: n_neighbors 1 out of range [2, 99] (n - 1 for 100 rows)"), a table of
  // another size, a non-finite value, or sizes over the memory limit.
  UmapRun(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& opts = {});
  // Validates the options and the table, plans the memory of the whole construction and copies
  // the rows (O(n D)), failing as the constructor does; knn, graph and init wait for prepare().
  // The run keeps no reference to table or opts.init_coords.
  static UmapRun start(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& opts = {});
  ~UmapRun();
  UmapRun(UmapRun&&) noexcept;
  UmapRun& operator=(UmapRun&&) noexcept;

  // Runs up to `slices` slices of the construction (each about kUmapSliceWork multiply-adds,
  // an init unit one slice however long); -> prepared().
  // work: the multiply-adds of a slice (tests use small ones to cut the units finely).
  bool prepare(int64_t slices, int64_t work = kUmapSliceWork);
  bool prepared() const;
  // "knn" | "graph" | "init" while preparing, then "layout"; progress() is the share of the
  // phase done, in [0, 1] (an estimate for knn with NN-descent; during init the share of the components laid out, else 0; epoch() /
  // total_epochs() in layout).
  const char* phase() const;
  double progress() const;

  // Runs up to `epochs` more epochs (fewer at the end), after the rest of the construction if
  // it was not prepared; returns epoch() after them.
  int64_t step(int64_t epochs);
  void run() { step(total_epochs()); }
  bool done() const { return prepared() && epoch() >= total_epochs(); }
  int64_t epoch() const;
  int64_t total_epochs() const;
  int64_t rows() const;

  std::span<const float> coordinates() const;  // (n, 2) float32, the current layout (empty before init)
  const UmapSeconds& seconds() const;          // per phase; layout accumulates over step()
  const UmapInfo& info() const;

  // new rows (m, D) -> (m, 2) positions in the current map (umap-learn's transform; see above);
  // fails before the map is prepared.
  std::vector<float> transform(std::span<const float> rows, int64_t m) const;

 private:
  struct State;
  static std::unique_ptr<State> begin(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& o);
  explicit UmapRun(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

// The SIMD variant of the layout's force kernel on this machine: "avx512", "avx2", "sse2",
// "wasm_simd128" or "scalar" (every one gives the same bits).
const char* umap_layout_isa();

// The whole map in one call: UmapRun(...).run(), coordinates (n, 2).
std::vector<float> umap(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& opts = {});

}  // namespace embedlab
