// UMAP's SGD layout (umap-learn 0.5 layouts.py, optimize_layout_euclidean with
// move_other for the fit and without for transform), in float32, single-threaded.
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/dense.hpp"
#include "maps/umap/umap_detail.hpp"
#include "maps/umap/umap_forces.hpp"


namespace embedlab::umap_detail {

namespace {

inline float clip4(float v) { return v > 4.0f ? 4.0f : (v < -4.0f ? -4.0f : v); }

}  // namespace

void forces_scalar(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
  for (int c = 0; c < lanes; ++c) {
    const float pw = pow_float(x[c], k.y);
    float coeff;
    if (k.attract) {
      coeff = x[c] > 0.0f ? (-k.two_ab * (pw / x[c])) / (k.a * pw + 1.0f) : 0.0f;
    } else {
      coeff = k.two_gamma_b / ((0.001f + x[c]) * (k.a * pw + 1.0f));
    }
    gx[c] = clip4(coeff * ox[c]) * k.alpha;
    gy[c] = clip4(coeff * oy[c]) * k.alpha;
  }
}

void forces(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy, int lanes) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  for (int h = 0; h < lanes; h += 4) forces_n<4>(x + h, ox + h, oy + h, k, gx + h, gy + h);
#else
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
#endif
}

Layout make_layout(const Graph& g, int64_t n_epochs, const AbParams& ab, const UmapOptions& o, double learning_rate,
                   uint64_t seed) {
  const int64_t E = g.nnz();
  MemoryPlan p("umap");
  p.add("layout edges", {E, 2}, kInt32);
  p.add("layout schedule", {E, 3}, kFloat64);
  p.check();
  Layout L;
  L.head.resize(static_cast<size_t>(E));
  L.tail.resize(static_cast<size_t>(E));
  L.per_sample.resize(static_cast<size_t>(E));
  L.next.resize(static_cast<size_t>(E));
  L.next_negative.resize(static_cast<size_t>(E));
  float wmax = 0;
  for (float w : g.w) wmax = w > wmax ? w : wmax;
  const double rate = static_cast<double>(o.negative_sample_rate);
  for (int64_t i = 0; i < g.rows; ++i) {
    for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
      L.head[e] = static_cast<int32_t>(i);
      L.tail[e] = g.col[e];
      // make_epochs_per_sample: n_epochs / (n_epochs * w / max(w)); never for w = 0
      const double samples = static_cast<double>(n_epochs) * (static_cast<double>(g.w[e]) / wmax);
      L.per_sample[e] = samples > 0 ? static_cast<double>(n_epochs) / samples : -1.0;
      L.next[e] = samples > 0 ? L.per_sample[e] : std::numeric_limits<double>::infinity();
      L.next_negative[e] = rate > 0 ? L.per_sample[e] / rate : 0.0;
    }
  }
  L.a = static_cast<float>(ab.a), L.b = static_cast<float>(ab.b);
  L.gamma = static_cast<float>(o.repulsion_strength);
  L.learning_rate = learning_rate;
  L.negative_rate = o.negative_sample_rate;
  L.n_epochs = n_epochs;
  L.rng = FastRng(seed ^ 0x1a7e0017ull);
  return L;
}

namespace {

using ForcesFn = void (*)(const float*, const float*, const float*, const ForceConsts&, float*, float*, int);

// The widest variant this CPU runs (the dense kernels' AVX2 switch turns off AVX2 and AVX-512
// both, for tests): all give the same bits.
ForcesFn pick_forces() {
  if (!dense::detail::have_avx2()) return forces;
  if (have_forces_avx512()) return forces_avx512;
  return have_forces_avx2() ? forces_avx2 : forces;
}

}  // namespace

const char* forces_isa() {
  const ForcesFn f = pick_forces();
  if (f == forces_avx512) return "avx512";
  if (f == forces_avx2) return "avx2";
#if defined(__wasm_simd128__)
  return "wasm_simd128";
#elif defined(__SSE2__)
  return "sse2";
#else
  return "scalar";
#endif
}

void layout_epoch(Layout& L, float* head, float* tail, int64_t n_tail, int64_t e, bool move_other) {
  // alpha of epoch e: lr (1 - e / n_epochs), as in umappp and Embedding Atlas (umap-learn's
  // loop sets it after each epoch, so its epoch e runs at lr (1 - (e - 1) / n_epochs) and its
  // last epochs at twice this rate: see "learning rate" in umap.hpp)
  const double alpha_d = L.learning_rate * (1.0 - static_cast<double>(e) / static_cast<double>(L.n_epochs));
  const float alpha = static_cast<float>(alpha_d);
  const float a = L.a, b = L.b;
  const float two_ab = 2.0f * a * b, two_gamma_b = 2.0f * L.gamma * b;
  const double now = static_cast<double>(e), rate = static_cast<double>(L.negative_rate);
  const uint32_t n_neg_rows = static_cast<uint32_t>(n_tail);
  const ForceConsts attract{b, a, two_gamma_b, alpha, two_ab, true}, repel{b, a, two_gamma_b, alpha, two_ab, false};
  const ForcesFn fn = pick_forces();
  const int64_t E = static_cast<int64_t>(L.head.size());

  // kLanes stripes of the edge list, each walked in order; a round takes the next due edge of
  // every stripe (see the file comment in umap.hpp: the attractions of a round in one pass,
  // then their negative samples measured from the moved heads, kLanes at a time). A stripe
  // finds its due edges 64 at a time as a bit mask (no branch per edge: whether an edge is
  // due follows no pattern a branch predictor learns); an edge that is never sampled has
  // next = +inf (make_layout).
  const double* next = L.next.data();
  int64_t base[kLanes], stop[kLanes];
  uint64_t pending[kLanes];
  const auto due_mask = [&](int64_t from, int64_t to) {
    uint64_t mask = 0;
    const int64_t n = to - from < 64 ? to - from : 64;
    for (int64_t k = 0; k < n; ++k) mask |= static_cast<uint64_t>(next[from + k] <= now) << k;
    return mask;
  };
  for (int s = 0; s < kLanes; ++s) {
    base[s] = E * s / kLanes;
    stop[s] = E * (s + 1) / kLanes;
    pending[s] = base[s] < stop[s] ? due_mask(base[s], stop[s]) : 0;
  }
  const auto next_due = [&](int s) -> int64_t {  // the stripe's next due edge, or -1
    while (pending[s] == 0) {
      base[s] += 64;
      if (base[s] >= stop[s]) return -1;
      pending[s] = due_mask(base[s], stop[s]);
    }
    const int64_t i = base[s] + __builtin_ctzll(pending[s]);
    pending[s] &= pending[s] - 1;
    return i;
  };

  alignas(64) float x[kLanes], ox[kLanes], oy[kLanes], gx[kLanes], gy[kLanes];
  int64_t edge[kLanes];
  int32_t lane_row[kLanes];
  for (;;) {
    int g = 0;
    for (int s = 0; s < kLanes; ++s) {
      const int64_t i = next_due(s);
      if (i >= 0) edge[g++] = i;
    }
    if (g == 0) break;

    // the attractions, measured from the positions before the round, applied in lane order
    for (int c = 0; c < kLanes; ++c) {
      if (c < g) {
        const float* h = head + 2 * static_cast<int64_t>(L.head[edge[c]]);
        const float* t = tail + 2 * static_cast<int64_t>(L.tail[edge[c]]);
        ox[c] = h[0] - t[0], oy[c] = h[1] - t[1];
        x[c] = ox[c] * ox[c] + oy[c] * oy[c];
      } else {
        x[c] = 1, ox[c] = oy[c] = 0;  // unused lanes
      }
    }
    fn(x, ox, oy, attract, gx, gy, g);
    for (int c = 0; c < g; ++c) {
      const int64_t i = edge[c];
      float* h = head + 2 * static_cast<int64_t>(L.head[i]);
      h[0] += gx[c], h[1] += gy[c];
      if (move_other) {
        float* t = tail + 2 * static_cast<int64_t>(L.tail[i]);
        t[0] -= gx[c], t[1] -= gy[c];
      }
      L.next[i] += L.per_sample[i];
    }
    if (rate <= 0) continue;

    // the negative samples: pass k takes the k-th sample of every edge of the round that has
    // one, so each head's samples are applied one after the other, each measured from where
    // the one before left it (as umap-learn does), while the lanes hold different heads
    int64_t n_neg[kLanes], most = 0;
    for (int c = 0; c < g; ++c) {
      const int64_t i = edge[c];
      const double per_negative = L.per_sample[i] / rate;
      n_neg[c] = static_cast<int64_t>((now - L.next_negative[i]) / per_negative);
      L.next_negative[i] += static_cast<double>(n_neg[c]) * per_negative;
      most = n_neg[c] > most ? n_neg[c] : most;
    }
    for (int64_t k = 0; k < most; ++k) {
      int m = 0;
      for (int c = 0; c < g; ++c) {
        if (n_neg[c] <= k) continue;
        lane_row[m] = L.head[edge[c]];
        const float* h = head + 2 * static_cast<int64_t>(lane_row[m]);
        const float* o = tail + 2 * static_cast<int64_t>(L.rng.below(n_neg_rows));
        ox[m] = h[0] - o[0], oy[m] = h[1] - o[1];
        x[m] = ox[m] * ox[m] + oy[m] * oy[m];
        ++m;
      }
      for (int c = m; c < kLanes; ++c) x[c] = 1, ox[c] = oy[c] = 0;  // unused lanes
      fn(x, ox, oy, repel, gx, gy, m);
      for (int c = 0; c < m; ++c) {
        if (!(x[c] > 0.0f)) continue;  // the head itself, or a point on top of it: no push
        float* h = head + 2 * static_cast<int64_t>(lane_row[c]);
        h[0] += gx[c], h[1] += gy[c];
      }
    }
  }
}

}  // namespace embedlab::umap_detail

namespace embedlab {
const char* umap_layout_isa() { return umap_detail::forces_isa(); }
}  // namespace embedlab
