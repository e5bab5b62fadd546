// UMAP's graph (maps/umap/umap.hpp): the a/b curve (find_ab_params), smooth kNN distances
// (smooth_knn_dist) and the fuzzy simplicial set (umap_detail::fuzzy_graph, prune,
// count_components). It does not search neighbours (maps/knn.*) or lay anything out.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "maps/umap/umap.hpp"
#include "maps/umap/umap_detail.hpp"

namespace embedlab {

using umap_detail::check_number;
using umap_detail::check_positive;
using umap_detail::Graph;
using umap_detail::membership;
using umap_detail::smooth_params;
using umap_detail::SmoothParams;
using umap_detail::smooth_row;

namespace {
constexpr double kSmoothTolerance = 1e-5;  // umap-learn SMOOTH_K_TOLERANCE
constexpr double kMinDistScale = 1e-3;     // umap-learn MIN_K_DIST_SCALE
constexpr int64_t kSmoothBlock = 512;      // rows of a parallel block (sigmas, memberships)
}  // namespace

AbParams find_ab_params(double spread, double min_dist) {
  check_positive("spread", spread);
  check_number("min_dist", min_dist, 0.0, spread, "at most spread");
  constexpr int kPoints = 300;
  double xs[kPoints], ys[kPoints], lx[kPoints];
  const double step = 3.0 * spread / (kPoints - 1);  // numpy linspace(0, 3 spread, 300)
  for (int i = 0; i < kPoints; ++i) {
    xs[i] = i * step;
    ys[i] = xs[i] < min_dist ? 1.0 : detmath::exp(-(xs[i] - min_dist) / spread);
    lx[i] = xs[i] > 0 ? detmath::log(xs[i]) : 0.0;
  }
  // cost, gradient J^T r and J^T J of sum (1 / (1 + a x^2b) - y)^2 at (a, b)
  struct Eval {
    double cost, ga, gb, aa, ab, bb;
  };
  const auto eval = [&](double a, double b) {
    Eval e{0, 0, 0, 0, 0, 0};
    for (int i = 0; i < kPoints; ++i) {
      const double p = xs[i] > 0 ? detmath::exp(2 * b * lx[i]) : 0.0;  // x^2b
      const double den = 1 + a * p, f = 1 / den, r = f - ys[i];
      const double ja = -p / (den * den), jb = -a * p * 2 * lx[i] / (den * den);
      e.cost += r * r;
      e.ga += ja * r, e.gb += jb * r;
      e.aa += ja * ja, e.ab += ja * jb, e.bb += jb * jb;
    }
    return e;
  };
  // Levenberg-Marquardt from (1, 1) (scipy's curve_fit default start), Marquardt's scaling
  double a = 1, b = 1, lambda = 1e-3;
  Eval cur = eval(a, b);
  for (int it = 0; it < 500; ++it) {
    const double m11 = cur.aa * (1 + lambda), m22 = cur.bb * (1 + lambda), m12 = cur.ab;
    const double det = m11 * m22 - m12 * m12;
    if (!(det != 0)) break;
    const double da = -(m22 * cur.ga - m12 * cur.gb) / det, db = -(m11 * cur.gb - m12 * cur.ga) / det;
    const double na = a + da, nb = b + db;
    const Eval next = na > 0 && nb > 0 ? eval(na, nb) : Eval{std::numeric_limits<double>::infinity(), 0, 0, 0, 0, 0};
    if (next.cost < cur.cost) {
      const bool small = std::fabs(da) <= 1e-12 * (std::fabs(a) + 1e-12) && std::fabs(db) <= 1e-12 * (std::fabs(b) + 1e-12);
      a = na, b = nb, cur = next;
      lambda = std::max(lambda / 10, 1e-12);
      if (small) break;
    } else {
      lambda *= 10;
      if (lambda > 1e12) break;
    }
  }
  return {a, b};
}

namespace umap_detail {

SmoothParams smooth_params(std::span<const float> dists, int64_t k, double local_connectivity, double bandwidth) {
  SmoothParams q;
  q.target = detmath::log(static_cast<double>(k)) / detmath::log(2.0) * bandwidth;
  for (float d : dists) q.mean_all += d;
  q.mean_all /= static_cast<double>(dists.size());
  q.local_connectivity = local_connectivity;
  q.index = static_cast<int64_t>(std::floor(local_connectivity));
  q.interpolation = local_connectivity - static_cast<double>(q.index);
  return q;
}

// smooth_knn_dist of one row (k distances, ascending): -> sigma, rho. nz is scratch.
void smooth_row(const float* row, int64_t k, const SmoothParams& q, double& sigma_out, double& rho_out,
                std::vector<float>& nz) {
  nz.clear();
  double mean_row = 0;
  for (int64_t j = 0; j < k; ++j) {
    mean_row += row[j];
    if (row[j] > 0) nz.push_back(row[j]);
  }
  mean_row /= static_cast<double>(k);
  double rho = 0;
  const int64_t count = static_cast<int64_t>(nz.size()), index = q.index;
  if (count >= index && count > 0 && static_cast<double>(count) >= q.local_connectivity) {
    if (index > 0) {
      rho = nz[index - 1];
      if (q.interpolation > kSmoothTolerance && index < count) rho += q.interpolation * (nz[index] - nz[index - 1]);
    } else {
      rho = q.interpolation * nz[0];
    }
  } else if (count > 0) {
    rho = *std::max_element(nz.begin(), nz.end());
  }
  double lo = 0, hi = std::numeric_limits<double>::infinity(), mid = 1;
  for (int it = 0; it < 64; ++it) {
    double psum = 0;
    for (int64_t j = 1; j < k; ++j) {
      const double d = static_cast<double>(row[j]) - rho;
      psum += d > 0 ? detmath::exp(-(d / mid)) : 1.0;
    }
    if (std::fabs(psum - q.target) < kSmoothTolerance) break;
    if (psum > q.target) {
      hi = mid;
      mid = (lo + hi) / 2;
    } else {
      lo = mid;
      mid = std::isinf(hi) ? mid * 2 : (lo + hi) / 2;
    }
  }
  const double floor_ = kMinDistScale * (rho > 0 ? mean_row : q.mean_all);
  sigma_out = mid < floor_ ? floor_ : mid;
  rho_out = rho;
}

}  // namespace umap_detail

SmoothKnn smooth_knn_dist(std::span<const float> dists, int64_t n, int64_t k, double local_connectivity, double bandwidth) {
  if (static_cast<uint64_t>(dists.size()) != static_cast<uint64_t>(n) * static_cast<uint64_t>(k) || k < 2) {
    fail("smooth_knn_dist", "distances have " + std::to_string(dists.size()) + " values, expected n x k = " +
                                std::to_string(n) + " x " + std::to_string(k) + " with k >= 2");
  }
  const SmoothParams q = smooth_params(dists, k, local_connectivity, bandwidth);
  SmoothKnn s;
  s.sigma.resize(static_cast<size_t>(n));
  s.rho.resize(static_cast<size_t>(n));
  // rows are independent: blocks of kSmoothBlock rows in parallel, each writing its own rows
  parallel_for(n, kSmoothBlock, [&](int64_t b, int64_t e, int64_t) {
    std::vector<float> nz;
    for (int64_t i = b; i < e; ++i) smooth_row(dists.data() + i * k, k, q, s.sigma[i], s.rho[i], nz);
  });
  return s;
}

namespace umap_detail {

Graph fuzzy_graph(const KnnGraph& knn, const SmoothKnn& s, double mix) {
  const int64_t n = knn.n, k = knn.k;
  MemoryPlan p("umap");
  p.add("memberships", {n, k, 2}, kInt32);
  p.add("reverse memberships", {n, k, 2}, kInt32);
  p.add("fuzzy graph", {n, 2 * k, 2}, kInt32);
  p.add("row starts", {3, n + 1}, kInt64);
  p.check();
  // forward: row i's (column, a_ij), columns ascending; reverse: row j's (i, a_ij), i ascending
  std::vector<std::pair<int32_t, float>> fwd(static_cast<size_t>(n * k));
  std::vector<int64_t> rstart(static_cast<size_t>(n + 1), 0);
  parallel_for(n, kSmoothBlock, [&](int64_t b, int64_t e, int64_t) {  // each block its own rows of fwd
    for (int64_t i = b; i < e; ++i) {
      for (int64_t j = 0; j < k; ++j) {
        const int32_t c = knn.ids[i * k + j];
        fwd[i * k + j] = {c, c == i ? 0.0f : membership(knn.dists[i * k + j], s.rho[i], s.sigma[i])};
      }
      std::sort(fwd.begin() + i * k, fwd.begin() + (i + 1) * k);  // ids are distinct in a row
    }
  });
  for (int64_t e = 0; e < n * k; ++e) ++rstart[knn.ids[e] + 1];
  for (int64_t i = 0; i < n; ++i) rstart[i + 1] += rstart[i];
  std::vector<std::pair<int32_t, float>> rev(fwd.size());
  std::vector<int64_t> fill(rstart.begin(), rstart.end() - 1);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) {
      const auto [c, a] = fwd[i * k + j];
      rev[fill[c]++] = {static_cast<int32_t>(i), a};
    }
  Graph g;
  g.rows = g.cols = n;
  g.start.assign(static_cast<size_t>(n + 1), 0);
  g.col.reserve(static_cast<size_t>(2 * n * k));
  g.w.reserve(static_cast<size_t>(2 * n * k));
  const float fmix = static_cast<float>(mix);
  for (int64_t i = 0; i < n; ++i) {
    int64_t f = i * k, fe = (i + 1) * k, r = rstart[i], re = rstart[i + 1];
    while (f < fe || r < re) {
      int32_t c;
      float a = 0, b = 0;  // A_ic, A_ci
      if (r >= re || (f < fe && fwd[f].first < rev[r].first)) {
        c = fwd[f].first, a = fwd[f++].second;
      } else if (f >= fe || rev[r].first < fwd[f].first) {
        c = rev[r].first, b = rev[r++].second;
      } else {
        c = fwd[f].first, a = fwd[f++].second, b = rev[r++].second;
      }
      const float prod = a * b;
      const float w = fmix * ((a + b) - prod) + (1.0f - fmix) * prod;
      if (w > 0) g.col.push_back(c), g.w.push_back(w);
    }
    g.start[i + 1] = static_cast<int64_t>(g.col.size());
  }
  return g;
}

void prune(Graph& g, double threshold) {
  int64_t out = 0;
  int64_t begin = 0;
  for (int64_t i = 0; i < g.rows; ++i) {
    const int64_t end = g.start[i + 1];
    for (int64_t e = begin; e < end; ++e) {
      if (static_cast<double>(g.w[e]) >= threshold) g.col[out] = g.col[e], g.w[out++] = g.w[e];
    }
    begin = end;
    g.start[i + 1] = out;
  }
  g.col.resize(static_cast<size_t>(out));
  g.w.resize(static_cast<size_t>(out));
}

int64_t count_components(const Graph& g) {
  std::vector<int32_t> parent(static_cast<size_t>(g.rows));
  for (int64_t i = 0; i < g.rows; ++i) parent[i] = static_cast<int32_t>(i);
  const auto find = [&](int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  int64_t comps = g.rows;
  for (int64_t i = 0; i < g.rows; ++i)
    for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
      const int32_t a = find(static_cast<int32_t>(i)), b = find(g.col[e]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b), --comps;
    }
  return comps;
}

}  // namespace umap_detail

}  // namespace embedlab
