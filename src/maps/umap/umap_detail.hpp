// The parts of UMAP (maps/umap/umap.hpp) that its three files share: the fuzzy graph, the
// initial layouts (umap_init.cpp) and the SGD layout (umap_layout.cpp). Not a public API: the
// tests reach these only through umap.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/detmath.hpp"
#include "core/rng.hpp"
#include "maps/knn.hpp"
#include "maps/umap/umap.hpp"

namespace embedlab::umap_detail {

// A sparse (rows, cols) matrix in CSR: row i's entries are col[start[i], start[i + 1]) with
// weights w, columns ascending within a row. The fitted graph is square and symmetric; the
// transform's graph is (new rows, fitted rows).
struct Graph {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> start;  // (rows + 1)
  std::vector<int32_t> col;    // (nnz)
  std::vector<float> w;        // (nnz)
  int64_t nnz() const { return static_cast<int64_t>(col.size()); }
};

// ---- options and the graph (umap.cpp, umap_graph.cpp) ----
// Fail unless lo <= v <= hi: "umap: <name> <v> out of range [lo, hi] (note)"; unless v is finite
// and > 0: "umap: <name> <v> must be a finite number > 0".
void check_number(const char* name, double v, double lo, double hi, const std::string& note = "");
void check_positive(const char* name, double v);
// compute_membership_strengths: exp(-(d - rho) / sigma), 1 within rho (or sigma 0).
inline float membership(float d, double rho, double sigma) {
  const double x = static_cast<double>(d) - rho;
  if (x <= 0 || sigma == 0) return 1.0f;
  return static_cast<float>(detmath::exp(-(x / sigma)));
}

// smooth_knn_dist's constants for one table of distances (n, k), and one row of it (k
// distances, ascending) -> sigma, rho (nz is scratch); UmapRun calls them in blocks of rows.
struct SmoothParams {
  double target = 0, mean_all = 0, local_connectivity = 1, interpolation = 0;
  int64_t index = 1;
};
SmoothParams smooth_params(std::span<const float> dists, int64_t k, double local_connectivity, double bandwidth);
void smooth_row(const float* row, int64_t k, const SmoothParams& q, double& sigma_out, double& rho_out,
                std::vector<float>& nz);

// knn (n, k), the row itself left out, and its smooth distances (computed with the row as
// column 0) -> memberships A (n, n), then mix (A + A^T - A o A^T) + (1 - mix) A o A^T.
Graph fuzzy_graph(const KnnGraph& knn, const SmoothKnn& s, double mix);
// Drops entries below threshold (umap-learn: max(w) / n_epochs).
void prune(Graph& g, double threshold);
// Connected components of a square graph (union-find).
int64_t count_components(const Graph& g);

// ---- init (umap_init.cpp) ----
// The 2 eigenvectors of D^-1/2 W D^-1/2 after the trivial one -> (n, 2), raw (unscaled);
// false when the graph is not connected or a row has no edge.
bool spectral_layout(const Graph& g, std::vector<float>& out);
// Component ids of a square graph's rows (label (n), numbered in order of each component's
// first row); returns their count.
int64_t component_labels(const Graph& g, std::vector<int32_t>& label);
// umap-learn's multi_component_layout for a graph of C > 1 components -> (n, 2), raw, in units
// (UmapRun::prepare slices it): the first advance() places the components (at +-e1, +-e2 up
// to 4; else by the spectral embedding of their centroids' affinities exp(-d^2), up to
// kMaxSpectralComponents, whose C x C float64 matrices are planned; above that by the top 2
// principal components of the centroids, O(C D) a product, no C x C matrix); each later one
// lays out components in order, each by spectral_layout within half the distance to its
// nearest neighbour's place (uniform noise there when it has fewer than 4 rows or its
// eigensolver fails), until about `work` multiply-adds are spent (one component at least).
// The units do not depend on `work`, so every slicing gives the same bits.
// Intended usage:
//   MultiComponentLayout m(g, x, seed);
//   while (!m.done()) m.advance(work);       // cancellable between calls
//   std::vector<float> xy = m.take();
inline constexpr int64_t kMaxSpectralComponents = 256;
class MultiComponentLayout {
 public:
  // g and x must outlive the object; labels the components and plans the layout (O(n)).
  MultiComponentLayout(const Graph& g, const KnnRows& x, uint64_t seed);
  int64_t advance(int64_t work);  // -> the multiply-adds spent (an estimate)
  bool done() const { return placed_ && next_ == C_; }
  double progress() const { return static_cast<double>(next_) / static_cast<double>(C_); }
  int64_t components() const { return C_; }
  // Why the places differ from umap-learn's, or "": above kMaxSpectralComponents.
  const std::string& note() const { return note_; }
  std::vector<float> take() { return std::move(out_); }

 private:
  int64_t place();              // the meta layout -> its cost
  int64_t lay_out(int64_t c);   // component c -> its cost
  const Graph& g_;
  const KnnRows& x_;
  int64_t C_ = 0, next_ = 0;
  bool placed_ = false;
  std::vector<int32_t> label_;    // (n) component of each row
  std::vector<int64_t> start_;    // (C + 1) component c's rows are rows_[start_[c], start_[c + 1])
  std::vector<int32_t> rows_;     // (n) rows grouped by component, ascending within each
  std::vector<int32_t> local_;    // (n) a row's index within its component
  std::vector<double> meta_;      // (C, 2) the places
  std::vector<float> out_;        // (n, 2)
  Generator rng_;
  std::string note_;
};
// The top 2 principal components of x's rows -> (n, 2) scores, raw.
std::vector<float> pca_layout(const KnnRows& x);
// umap-learn's noisy_scale_coords (largest |coordinate| -> 10, plus N(0, 1e-4) noise from seed).
void noisy_scale(std::vector<float>& xy, uint64_t seed);
// Each axis mapped to [0, 10]: 10 (x - min) / (max - min) (an axis with max == min becomes 0).
void rescale_to_10(std::vector<float>& xy);

// ---- layout (umap_layout.cpp) ----
// The sampling schedule of optimize_layout_euclidean for the entries of g (head = row,
// tail = column) over n_epochs.
struct Layout {
  std::vector<int32_t> head, tail;        // (E)
  std::vector<double> per_sample;         // (E) epochs_per_sample = max(w) / w
  std::vector<double> next, next_negative;  // (E) epoch_of_next_sample, ..._negative_sample
  float a = 0, b = 0, gamma = 1;
  double learning_rate = 1;
  int64_t negative_rate = 5, n_epochs = 0;
  FastRng rng{0};
};
Layout make_layout(const Graph& g, int64_t n_epochs, const AbParams& ab, const UmapOptions& o, double learning_rate,
                   uint64_t seed);
// One epoch e (0-based) of umap-learn's optimize_layout_euclidean_single_epoch: head (rows, 2)
// is moved; tail (n_tail, 2) too when move_other (then head == tail, the fit).
void layout_epoch(Layout& L, float* head, float* tail, int64_t n_tail, int64_t e, bool move_other);

// The moves of kLanes heads at squared distances x (kLanes) from their samples, offsets ox, oy
// (head minus sample), all attractions (an edge's own tail) or all negative samples:
//   pw = pow_float(x, y)
//   attract: coeff = -two_ab (pw / x) / (a pw + 1), 0 at x = 0
//   repel:   coeff = two_gamma_b / ((0.001 + x) (a pw + 1))
//   gx = clip4(coeff ox) alpha, gy = clip4(coeff oy) alpha   (clip4: to [-4, 4])
// One kernel, forces_n<N> (umap_forces.hpp, GCC/Clang vector extensions), runs the same float
// operations in the same order in each lane as forces_scalar, so every variant's bits equal
// its (tests/test_umap.cpp): forces takes 4 lanes at a time (wasm_simd128 or SSE2),
// forces_avx2 8 and forces_avx512 16 (umap_layout_x86.cpp, compiled for those ISAs);
// layout_epoch picks the widest the CPU has at run time. The AVX
// variants are forces_scalar on other targets, and have_forces_avx2/avx512 false there. Only
// the first `lanes` (1 to kLanes) results are defined: the narrower variants skip the passes
// past them (a round's last batches are often part full).
inline constexpr int kLanes = 16;
struct ForceConsts {
  float y, a, two_gamma_b, alpha, two_ab;
  bool attract;
};
void forces(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes);
void forces_scalar(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes);
void forces_avx2(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes);
void forces_avx512(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes);
bool have_forces_avx2();
bool have_forces_avx512();
// The variant layout_epoch runs here: "avx512", "avx2", "sse2", "wasm_simd128" or "scalar".
const char* forces_isa();

// x^y = 2^(y log2 x) for x > 0 (x below FLT_MIN counts as FLT_MIN), with short dependency
// chains (Estrin's scheme, no branches) so that independent calls overlap: log2 from Cephes
// logf's polynomial on m - 1, m in [sqrt(1/2), sqrt 2); 2^r for r in [-1/2, 1/2] from the
// Taylor polynomial of e^(r ln 2) to degree 6 (error below 2e-7); y log2 x clamped to
// [-126, 126]. Relative error below 1e-6 for the exponents UMAP uses (|y| <= 4).
inline float pow_float(float x, float y) {
  x = x < 1.17549435e-38f ? 1.17549435e-38f : x;
  int32_t bits;
  std::memcpy(&bits, &x, 4);
  int32_t e = (bits >> 23) - 127;
  bits = (bits & 0x007fffff) | 0x3f800000;  // m in [1, 2)
  float m;
  std::memcpy(&m, &bits, 4);
  const bool big = m > 1.41421356f;
  m = big ? m * 0.5f : m;
  e += big ? 1 : 0;
  const float f = m - 1.0f, f2 = f * f, f4 = f2 * f2;
  const float q0 = 3.3333331174E-1f + -2.4999993993E-1f * f, q1 = 2.0000714765E-1f + -1.6668057665E-1f * f;
  const float q2 = 1.4249322787E-1f + -1.2420140846E-1f * f, q3 = 1.1676998740E-1f + -1.1514610310E-1f * f;
  const float p = ((q0 + q1 * f2) + (q2 + q3 * f2) * f4) + 7.0376836292E-2f * (f4 * f4);
  const float ln1f = f + (f * f2 * p - 0.5f * f2);   // ln(1 + f)
  float t = y * (ln1f * 1.44269504f + static_cast<float>(e));  // y log2 x
  t = t < -126.0f ? -126.0f : (t > 126.0f ? 126.0f : t);
  const float n = (t + 12582912.0f) - 12582912.0f;  // round to nearest
  const float r = t - n, r2 = r * r, r4 = r2 * r2;
  const float s0 = 1.0f + 0.693147181f * r, s1 = 0.240226507f + 0.0555041087f * r;
  const float s2 = 0.00961812911f + 0.00133335581f * r;
  const float poly = (s0 + s1 * r2) + (s2 + 0.000154035304f * r2) * r4;
  const int32_t scale_bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &scale_bits, 4);
  return poly * scale;
}


}  // namespace embedlab::umap_detail
