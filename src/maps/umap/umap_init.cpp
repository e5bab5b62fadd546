// UMAP's initial layouts: spectral (umap-learn spectral_layout) and PCA, both through one
// deterministic Lanczos eigensolver written in plain double loops (no Eigen: its vectorised
// reductions differ between the native and the wasm build), then noisy_scale_coords and the
// [0, 10] rescaling of simplicial_set_embedding.
#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "kernels/kernels.hpp"
#include "maps/umap/umap_detail.hpp"

namespace embedlab::umap_detail {

namespace {

constexpr int64_t kMaxBasis = 64;   // Lanczos vectors per restart (umap-learn: max(2k+1, sqrt n))
constexpr int kRestarts = 6;        // explicit restarts at most
constexpr double kTolerance = 1e-4;  // residual |A y - theta y| / |theta_max| (umap-learn's eigsh tol)

// x . y in 4 partial sums combined as (s0 + s1) + (s2 + s3): a fixed order in both builds.
double dot_d(const double* x, const double* y, int64_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i] * y[i];
    s1 += x[i + 1] * y[i + 1];
    s2 += x[i + 2] * y[i + 2];
    s3 += x[i + 3] * y[i + 3];
  }
  for (; i < n; ++i) s0 += x[i] * y[i];
  return (s0 + s1) + (s2 + s3);
}
void axpy_d(double a, const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}
void normalise(double* x, int64_t n) {
  const double len = std::sqrt(dot_d(x, x, n));
  if (len > 0)
    for (int64_t i = 0; i < n; ++i) x[i] /= len;
}

// Cyclic Jacobi on a symmetric s x s matrix A (row-major, destroyed): eigenvalues on A's
// diagonal, eigenvectors in the columns of V (Golub & Van Loan, 4th ed., 8.5.2).
void jacobi(int64_t s, std::vector<double>& A, std::vector<double>& V) {
  V.assign(static_cast<size_t>(s * s), 0.0);
  for (int64_t i = 0; i < s; ++i) V[i * s + i] = 1.0;
  for (int sweep = 0; sweep < 64; ++sweep) {
    double off = 0, diag = 0;
    for (int64_t p = 0; p < s; ++p) {
      diag += A[p * s + p] * A[p * s + p];
      for (int64_t q = p + 1; q < s; ++q) off += A[p * s + q] * A[p * s + q];
    }
    if (off <= 1e-30 * diag || off == 0) return;
    for (int64_t p = 0; p < s; ++p) {
      for (int64_t q = p + 1; q < s; ++q) {
        const double apq = A[p * s + q];
        if (apq == 0) continue;
        const double theta = (A[q * s + q] - A[p * s + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), sn = t * c;
        for (int64_t r = 0; r < s; ++r) {  // A <- J^T A J
          const double arp = A[r * s + p], arq = A[r * s + q];
          A[r * s + p] = c * arp - sn * arq;
          A[r * s + q] = sn * arp + c * arq;
        }
        for (int64_t r = 0; r < s; ++r) {
          const double apr = A[p * s + r], aqr = A[q * s + r];
          A[p * s + r] = c * apr - sn * aqr;
          A[q * s + r] = sn * apr + c * aqr;
        }
        for (int64_t r = 0; r < s; ++r) {
          const double vrp = V[r * s + p], vrq = V[r * s + q];
          V[r * s + p] = c * vrp - sn * vrq;
          V[r * s + q] = sn * vrp + c * vrq;
        }
      }
    }
  }
}

using Op = std::function<void(const double* x, double* y)>;

// The k eigenvectors of largest eigenvalue of a symmetric operator on R^m, orthogonal to the
// q orthonormal rows of deflate (q, m): Lanczos with full reorthogonalisation (classical
// Gram-Schmidt twice), explicit restarts from the sum of the wanted Ritz vectors.
// -> (k, m) unit rows, or empty when the Krylov space has fewer than k dimensions.
std::vector<double> lanczos_top(int64_t m, const Op& op, int64_t k, const std::vector<double>& deflate, int64_t q,
                                const char* where) {
  const int64_t basis = std::min<int64_t>(m - q, std::max<int64_t>(2 * k + 8, std::min<int64_t>(kMaxBasis, std::llround(std::sqrt(static_cast<double>(m))))));
  if (basis < k) return {};
  MemoryPlan p(where);
  p.add("Lanczos basis", {basis + 1, m}, kFloat64);
  p.add("Lanczos work vectors", {2, m}, kFloat64);
  p.check();
  std::vector<double> Q(static_cast<size_t>((basis + 1) * m)), w(static_cast<size_t>(m)), v(static_cast<size_t>(m));
  uint32_t s = 0x9e3779b9u;  // a fixed start: the same map every time
  for (int64_t i = 0; i < m; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<double>(static_cast<int32_t>(s >> 8) - (1 << 23)) / (1 << 23);
  }
  const auto orthogonalise = [&](double* x, int64_t upto) {
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t d = 0; d < q; ++d) axpy_d(-dot_d(x, deflate.data() + d * m, m), deflate.data() + d * m, x, m);
      for (int64_t i = 0; i < upto; ++i) axpy_d(-dot_d(x, Q.data() + i * m, m), Q.data() + i * m, x, m);
    }
  };
  std::vector<double> out(static_cast<size_t>(k * m));
  for (int restart = 0; restart < kRestarts; ++restart) {
    orthogonalise(v.data(), 0);
    normalise(v.data(), m);
    std::copy(v.begin(), v.end(), Q.begin());
    std::vector<double> alpha, beta;
    int64_t size = 0;
    for (int64_t j = 0; j < basis; ++j) {
      op(Q.data() + j * m, w.data());
      alpha.push_back(dot_d(w.data(), Q.data() + j * m, m));
      orthogonalise(w.data(), j + 1);
      beta.push_back(std::sqrt(dot_d(w.data(), w.data(), m)));
      size = j + 1;
      if (beta.back() <= 1e-10 * std::max(1.0, std::fabs(alpha.back()))) break;  // an invariant subspace
      for (int64_t i = 0; i < m; ++i) Q[(j + 1) * m + i] = w[i] / beta.back();
    }
    if (size < k) return {};
    std::vector<double> T(static_cast<size_t>(size * size), 0.0), S;
    for (int64_t i = 0; i < size; ++i) {
      T[i * size + i] = alpha[i];
      if (i + 1 < size) T[i * size + i + 1] = T[(i + 1) * size + i] = beta[i];
    }
    jacobi(size, T, S);
    std::vector<int64_t> order(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      const double tx = T[x * size + x], ty = T[y * size + y];
      return tx != ty ? tx > ty : x < y;
    });
    const double scale = std::max(std::fabs(T[order[0] * size + order[0]]), 1e-300);
    bool converged = true;
    std::fill(v.begin(), v.end(), 0.0);
    for (int64_t c = 0; c < k; ++c) {
      const int64_t col = order[c];
      double* y = out.data() + c * m;
      std::fill(y, y + m, 0.0);
      for (int64_t i = 0; i < size; ++i) axpy_d(S[i * size + col], Q.data() + i * m, y, m);
      normalise(y, m);
      converged = converged && std::fabs(beta[size - 1] * S[(size - 1) * size + col]) <= kTolerance * scale;
      axpy_d(1.0, y, v.data(), m);
    }
    if (converged || size < basis) break;
  }
  return out;
}

// Flips v (m) so that its largest-magnitude entry (the first of equals) is positive.
void fix_sign(double* v, int64_t m) {
  int64_t best = 0;
  for (int64_t i = 1; i < m; ++i)
    if (std::fabs(v[i]) > std::fabs(v[best])) best = i;
  if (v[best] < 0)
    for (int64_t i = 0; i < m; ++i) v[i] = -v[i];
}

}  // namespace

bool spectral_layout(const Graph& g, std::vector<float>& out) {
  const int64_t n = g.rows;
  if (n < 3 || count_components(g) != 1) return false;
  std::vector<double> isd(static_cast<size_t>(n)), trivial(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    double deg = 0;
    for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) deg += g.w[e];
    if (!(deg > 0)) return false;
    isd[i] = 1 / std::sqrt(deg);
    trivial[i] = std::sqrt(deg);  // D^1/2 1: the eigenvector of eigenvalue 1
  }
  normalise(trivial.data(), n);
  // y = D^-1/2 W D^-1/2 x
  const Op op = [&](const double* x, double* y) {
    for (int64_t i = 0; i < n; ++i) {
      double acc = 0;
      for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) acc += static_cast<double>(g.w[e]) * (isd[g.col[e]] * x[g.col[e]]);
      y[i] = isd[i] * acc;
    }
  };
  const std::vector<double> vecs = lanczos_top(n, op, 2, trivial, 1, "umap");
  if (vecs.empty()) return false;
  out.assign(static_cast<size_t>(2 * n), 0.0f);
  for (int64_t c = 0; c < 2; ++c) {
    std::vector<double> v(vecs.begin() + c * n, vecs.begin() + (c + 1) * n);
    fix_sign(v.data(), n);
    for (int64_t i = 0; i < n; ++i) out[2 * i + c] = static_cast<float>(v[i]);
  }
  return true;
}

int64_t component_labels(const Graph& g, std::vector<int32_t>& label) {
  const int64_t n = g.rows;
  std::vector<int32_t> parent(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) parent[i] = static_cast<int32_t>(i);
  const auto find = [&](int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
      const int32_t a = find(static_cast<int32_t>(i)), b = find(g.col[e]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  label.assign(static_cast<size_t>(n), -1);
  std::vector<int32_t> id_of_root(static_cast<size_t>(n), -1);
  int32_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t r = find(static_cast<int32_t>(i));
    if (id_of_root[r] < 0) id_of_root[r] = count++;
    label[i] = id_of_root[r];
  }
  return count;
}

namespace {

// The components' centroids (C, D) in the space the metric sees (subtle: the centroids of the
// prepared rows, i.e. of the unit rows for cosine, where umap-learn averages the raw rows).
template <class T>
std::vector<T> centroids(const KnnRows& x, const std::vector<int32_t>& label, int64_t C) {
  const int64_t n = x.rows(), D = x.dim();
  std::vector<double> sum(static_cast<size_t>(C * D), 0.0), count(static_cast<size_t>(C), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const float* r = x.row(i);
    double* c = sum.data() + label[i] * D;
    for (int64_t d = 0; d < D; ++d) c[d] += r[d];
    count[label[i]] += 1;
  }
  std::vector<T> cent(static_cast<size_t>(C * D));
  for (int64_t c = 0; c < C; ++c)
    for (int64_t d = 0; d < D; ++d) cent[c * D + d] = static_cast<T>(sum[c * D + d] / count[c]);
  return cent;
}

// centroids<T>, planned first together with what the caller allocates next (also: its name,
// dims and type), so a layout of many components fails before it allocates.
template <class T>
std::vector<T> planned_centroids(const KnnRows& x, const std::vector<int32_t>& label, int64_t C, const char* also,
                                 std::initializer_list<int64_t> also_dims, ElementType also_type) {
  MemoryPlan p("umap");
  p.add("component centroids", {C, x.dim()}, std::is_same_v<T, double> ? kFloat64 : kFloat32);
  p.add(also, also_dims, also_type);
  p.check();
  return centroids<T>(x, label, C);
}

// meta divided by top, when top > 0 (a layout scaled so its largest entry is 1)
void divide_by(std::vector<double>& meta, double top) {
  if (top > 0)
    for (double& m : meta) m /= top;
}

// umap-learn's component_layout for C <= kMaxSpectralComponents: affinities exp(-d^2) between
// the centroids and their spectral embedding as sklearn's SpectralEmbedding(affinity=
// "precomputed") computes it: the eigenvectors 2 and 3 of the normalised Laplacian (diagonal
// ignored) divided by sqrt(degree), signs fixed, then the whole (C, 2) divided by its largest
// entry. The dense C x C matrix is planned; its eigenvectors come from lanczos_top (deflating
// the trivial sqrt(degree), as spectral_layout), O(C^2) a product: a few ms for 256
// components, where a cyclic Jacobi took 2.8 s (close centroids: many near-equal
// eigenvalues). -> (C, 2), or empty when the Krylov space is too small (affinities all 0).
std::vector<double> component_meta_layout(const KnnRows& x, const std::vector<int32_t>& label, int64_t C) {
  const int64_t D = x.dim();
  const std::vector<double> cent = planned_centroids<double>(x, label, C, "component affinities", {C, C}, kFloat64);
  std::vector<double> A(static_cast<size_t>(C * C), 0.0), deg(static_cast<size_t>(C), 0.0);
  for (int64_t a = 0; a < C; ++a) {
    for (int64_t b = a + 1; b < C; ++b) {
      const double* ca = cent.data() + a * D;
      const double* cb = cent.data() + b * D;
      double dist;
      if (x.metric() == Metric::Cosine) {
        const double ab = dot_d(ca, cb, D), aa = dot_d(ca, ca, D), bb = dot_d(cb, cb, D);
        dist = aa > 0 && bb > 0 ? 1.0 - ab / std::sqrt(aa * bb) : 1.0;
      } else {
        double s = 0;
        for (int64_t d = 0; d < D; ++d) s += (ca[d] - cb[d]) * (ca[d] - cb[d]);
        dist = std::sqrt(s);
      }
      A[a * C + b] = A[b * C + a] = detmath::exp(-(dist * dist));
    }
  }
  for (int64_t a = 0; a < C; ++a)
    for (int64_t b = 0; b < C; ++b) deg[a] += A[a * C + b];
  std::vector<double> dd(static_cast<size_t>(C)), trivial(static_cast<size_t>(C));
  for (int64_t a = 0; a < C; ++a) dd[a] = deg[a] > 0 ? std::sqrt(deg[a]) : 1.0;
  for (int64_t a = 0; a < C; ++a)
    for (int64_t b = 0; b < C; ++b) A[a * C + b] /= dd[a] * dd[b];  // D^-1/2 A D^-1/2
  for (int64_t a = 0; a < C; ++a) trivial[a] = std::sqrt(deg[a]);  // its eigenvector of eigenvalue 1
  normalise(trivial.data(), C);
  const Op op = [&](const double* v, double* y) {
    for (int64_t a = 0; a < C; ++a) y[a] = dot_d(A.data() + a * C, v, C);
  };
  const std::vector<double> vecs = lanczos_top(C, op, 2, trivial, 1, "umap");
  if (vecs.empty()) return {};
  std::vector<double> meta(static_cast<size_t>(C * 2), 0.0), v(static_cast<size_t>(C));
  for (int64_t c = 0; c < 2; ++c) {
    for (int64_t a = 0; a < C; ++a) v[a] = vecs[c * C + a] / dd[a];
    fix_sign(v.data(), C);
    for (int64_t a = 0; a < C; ++a) meta[2 * a + c] = v[a];
  }
  double top = 0;
  for (double m : meta) top = std::max(top, m);
  divide_by(meta, top);
  return meta;
}

// Above kMaxSpectralComponents: the top 2 principal components of the centroids (pca_layout's
// Lanczos, O(C D) a product), divided by the largest |coordinate|. Nothing C x C.
std::vector<double> component_pca_layout(const KnnRows& x, const std::vector<int32_t>& label, int64_t C) {
  const int64_t D = x.dim();
  const std::vector<float> cent = planned_centroids<float>(x, label, C, "prepared component centroids", {C, D}, kFloat32);
  const std::vector<float> xy = pca_layout(KnnRows(cent, C, D, Metric::Euclidean, "umap"));
  double top = 0;
  for (float v : xy) top = std::max(top, static_cast<double>(std::fabs(v)));
  std::vector<double> meta(xy.begin(), xy.end());
  divide_by(meta, top);
  return meta;
}

}  // namespace

MultiComponentLayout::MultiComponentLayout(const Graph& g, const KnnRows& x, uint64_t seed)
    : g_(g), x_(x), rng_(seed ^ 0xc0bb0e17ull) {
  const int64_t n = g.rows;
  MemoryPlan p("umap");
  p.add("component labels, members and local indices", {3, n}, kInt32);
  p.add("initial layout", {n, 2}, kFloat32);
  p.check();
  C_ = component_labels(g, label_);
  start_.assign(static_cast<size_t>(C_ + 1), 0);
  for (int64_t i = 0; i < n; ++i) ++start_[label_[i] + 1];
  for (int64_t c = 0; c < C_; ++c) start_[c + 1] += start_[c];
  rows_.resize(static_cast<size_t>(n));
  std::vector<int64_t> fill(start_.begin(), start_.end() - 1);
  for (int64_t i = 0; i < n; ++i) rows_[fill[label_[i]]++] = static_cast<int32_t>(i);
  local_.assign(static_cast<size_t>(n), -1);
  out_.assign(static_cast<size_t>(2 * n), 0.0f);
}

int64_t MultiComponentLayout::place() {
  const int64_t C = C_, D = x_.dim();
  if (C > kMaxSpectralComponents) {
    meta_ = component_pca_layout(x_, label_, C);
    note_ = std::to_string(C) + " components: placed by the principal components of their centroids (above " +
            std::to_string(kMaxSpectralComponents) + ", their spectral embedding would be a " + std::to_string(C) +
            " x " + std::to_string(C) + " eigenproblem)";
    return x_.rows() * D + C * D * 100;
  }
  if (C > 4) {
    meta_ = component_meta_layout(x_, label_, C);
    if (!meta_.empty()) return x_.rows() * D + C * C * (D + 100);
    meta_ = component_pca_layout(x_, label_, C);
    note_ = std::to_string(C) + " components: placed by the principal components of their centroids (the spectral "
            "embedding of their affinities exp(-d^2) has fewer than 2 dimensions: they are too far apart)";
    return x_.rows() * D + C * C * D + C * D * 100;
  }
  meta_.assign(static_cast<size_t>(2 * C), 0.0);  // umap-learn: +-e_1, +-e_2 for up to 2 dim components
  const int64_t half = (C + 1) / 2;
  for (int64_t c = 0; c < C; ++c) meta_[2 * c + (c % half)] = c < half ? 1.0 : -1.0;
  return C;
}

int64_t MultiComponentLayout::lay_out(int64_t c) {
  const int32_t* rows = rows_.data() + start_[c];
  const int64_t m = start_[c + 1] - start_[c];
  // half the distance to the nearest other component's place (umap-learn's data_range)
  double nearest = std::numeric_limits<double>::infinity();
  for (int64_t o = 0; o < C_; ++o) {
    const double dx = meta_[2 * o] - meta_[2 * c], dy = meta_[2 * o + 1] - meta_[2 * c + 1];
    const double d = std::sqrt(dx * dx + dy * dy);
    if (d > 0) nearest = std::min(nearest, d);
  }
  const double range = std::isfinite(nearest) ? nearest / 2 : 1.0;
  int64_t cost = C_ + m;
  std::vector<float> sub;
  bool ok = false;
  if (m >= 4) {  // umap-learn: spectral for components of at least 2 dim rows
    Graph h;
    h.rows = h.cols = m;
    h.start.assign(static_cast<size_t>(m + 1), 0);
    for (int64_t a = 0; a < m; ++a) local_[rows[a]] = static_cast<int32_t>(a);
    int64_t edges = 0;
    for (int64_t a = 0; a < m; ++a) edges += g_.start[rows[a] + 1] - g_.start[rows[a]];
    MemoryPlan p("umap");
    p.add("component graph", {edges, 2}, kInt32);
    p.check();
    h.col.reserve(static_cast<size_t>(edges));
    h.w.reserve(static_cast<size_t>(edges));
    for (int64_t a = 0; a < m; ++a) {
      const int32_t i = rows[a];
      for (int64_t e = g_.start[i]; e < g_.start[i + 1]; ++e) h.col.push_back(local_[g_.col[e]]), h.w.push_back(g_.w[e]);
      h.start[a + 1] = h.nnz();
    }
    ok = spectral_layout(h, sub);
    cost += (edges + m) * 200;  // a few hundred Lanczos products at most
  }
  if (ok) {
    float top = 0;
    for (float v : sub) top = std::max(top, std::fabs(v));
    const double expansion = top > 0 ? range / top : 0.0;
    for (int64_t a = 0; a < m; ++a)
      for (int d = 0; d < 2; ++d)
        out_[2 * rows[a] + d] = static_cast<float>(static_cast<double>(sub[2 * a + d]) * expansion + meta_[2 * c + d]);
  } else {  // too small, or the eigensolver failed: uniform in the component's square
    for (int64_t a = 0; a < m; ++a)
      for (int d = 0; d < 2; ++d)
        out_[2 * rows[a] + d] = static_cast<float>((2.0 * rng_.uniform_float() - 1.0) * range + meta_[2 * c + d]);
  }
  return cost;
}

int64_t MultiComponentLayout::advance(int64_t work) {
  if (!placed_) {
    placed_ = true;
    return place();
  }
  int64_t spent = 0;
  while (next_ < C_ && (spent == 0 || spent < work)) spent += lay_out(next_++);
  return spent;
}

std::vector<float> pca_layout(const KnnRows& x) {
  const int64_t n = x.rows(), D = x.dim();
  const size_t Ds = static_cast<size_t>(D);
  std::vector<double> mean(Ds, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const float* r = x.row(i);
    for (size_t d = 0; d < Ds; ++d) mean[d] += r[d];
  }
  for (double& m : mean) m /= static_cast<double>(n);
  std::vector<float> vf(Ds), t(plan("umap", "PCA scores", n, kFloat32));
  // y = X_c^T X_c x / (n - 1), the products in float32 SIMD (kernels::dot), the rest in double
  const Op op = [&](const double* v, double* y) {
    for (size_t d = 0; d < Ds; ++d) vf[d] = static_cast<float>(v[d]);
    const double shift = dot_d(mean.data(), v, D);
    double tsum = 0;
    for (int64_t i = 0; i < n; ++i) {
      t[i] = static_cast<float>(static_cast<double>(kernels::dot(Ds, x.row(i), vf.data())) - shift);
      tsum += t[i];
    }
    std::fill(y, y + D, 0.0);
    for (int64_t i = 0; i < n; ++i) {
      const float* r = x.row(i);
      const double ti = t[i];
      for (size_t d = 0; d < Ds; ++d) y[d] += ti * r[d];
    }
    const double denom = n > 1 ? static_cast<double>(n - 1) : 1.0;
    for (size_t d = 0; d < Ds; ++d) y[d] = (y[d] - mean[d] * tsum) / denom;
  };
  std::vector<double> vecs = lanczos_top(D, op, std::min<int64_t>(2, D), {}, 0, "umap");
  std::vector<float> out(plan("umap", "initial layout", {n, 2}, kFloat32), 0.0f);
  for (int64_t c = 0; c < 2 && !vecs.empty() && c * D < static_cast<int64_t>(vecs.size()); ++c) {
    double* v = vecs.data() + c * D;
    fix_sign(v, D);
    const double shift = dot_d(mean.data(), v, D);
    for (int64_t i = 0; i < n; ++i) {
      const float* r = x.row(i);
      double s = 0;
      for (size_t d = 0; d < Ds; ++d) s += r[d] * v[d];
      out[2 * i + c] = static_cast<float>(s - shift);
    }
  }
  return out;
}

void noisy_scale(std::vector<float>& xy, uint64_t seed) {
  float top = 0;
  for (float v : xy) top = std::fabs(v) > top ? std::fabs(v) : top;
  const double expansion = top > 0 ? 10.0 / top : 1.0;
  std::vector<float> noise(xy.size());
  Generator g(seed);
  g.normal(noise.data(), noise.size(), 0.0f, 1e-4f);
  for (size_t i = 0; i < xy.size(); ++i) xy[i] = static_cast<float>(xy[i] * expansion) + noise[i];
}

void rescale_to_10(std::vector<float>& xy) {
  const size_t n = xy.size() / 2;
  for (size_t c = 0; c < 2; ++c) {
    float lo = xy[c], hi = xy[c];
    for (size_t i = 0; i < n; ++i) lo = std::min(lo, xy[2 * i + c]), hi = std::max(hi, xy[2 * i + c]);
    const double range = static_cast<double>(hi) - lo;
    for (size_t i = 0; i < n; ++i) {
      xy[2 * i + c] = range > 0 ? static_cast<float>(10.0 * (static_cast<double>(xy[2 * i + c]) - lo) / range) : 0.0f;
    }
  }
}

}  // namespace embedlab::umap_detail
