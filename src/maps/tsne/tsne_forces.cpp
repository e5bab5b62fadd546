// t-SNE's gradient (see tsne.hpp): the attractive sum over P's non-zeros, the repulsive sum
// exactly or through a Barnes-Hut quadtree, and the KL divergence.
//
// The quadtree is rebuilt from scratch for every evaluation, as a flat array in depth-first
// order: node k's subtree is [k, next), its first child (if any) is k + 1. A point's traversal is
// then one loop: take the node's summary (and jump to next) when it is far enough, visit a
// leaf's points one by one (and jump to next), or step into the node (k + 1). Points are kept in
// tree order (a permutation carried over from one build to the next, so each build starts from
// nearly sorted input), and the traversals run in that order too, which keeps the nodes a point
// visits in cache for its neighbours.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "maps/tsne/tsne.hpp"

namespace embedlab {

namespace {

constexpr int64_t kLeafPoints = 8;  // a cell with at most this many points is a leaf
constexpr int kMaxDepth = 40;       // deeper cells (near-duplicate points) stay leaves
constexpr int64_t kForceRows = 256; // points of one block of repulsive sums on the pool

struct Node {
  float cx, cy;   // centre of mass
  float mass;     // points in the cell
  float r2;       // the cell is far enough from a point at squared distance d2 > r2 = (h / theta)^2
  int32_t next;   // the node after this subtree
  int32_t begin;  // leaf: its points are [begin, end) in tree order; internal: -1
  int32_t end;
  int32_t pad;
};

class QuadTree {
 public:
  // Y (n, 2): builds the tree; order (n) is the permutation to start from (updated in place).
  QuadTree(std::span<const float> Y, std::vector<int32_t>& order, double theta) : order_(order) {
    const int64_t n = static_cast<int64_t>(order.size());
    MemoryPlan p("tsne");
    p.add("quadtree points", {n, 4}, kFloat32);  // px, py and their scratch copies
    p.add("quadtree slots", {n, 3}, kInt32);     // quadrants, scratch ids, order
    p.add("quadtree partition", {n}, kInt64);
    p.add("quadtree nodes", {2 * n / kLeafPoints + 16, static_cast<int64_t>(sizeof(Node))}, kBytes);
    p.check();
    inv_theta2_ = theta > 0 ? 1.0 / (theta * theta) : 0.0;
    px_.resize(static_cast<size_t>(n));
    py_.resize(static_cast<size_t>(n));
    quadrant_.resize(static_cast<size_t>(n));
    scratch_.resize(static_cast<size_t>(n));
    nodes_.reserve(static_cast<size_t>(2 * n / kLeafPoints + 16));
    float x0 = std::numeric_limits<float>::max(), x1 = -x0, y0 = x0, y1 = -x0;
    for (int64_t i = 0; i < n; ++i) {
      x0 = std::min(x0, Y[2 * i]), x1 = std::max(x1, Y[2 * i]);
      y0 = std::min(y0, Y[2 * i + 1]), y1 = std::max(y1, Y[2 * i + 1]);
    }
    const double cx = 0.5 * (static_cast<double>(x0) + x1), cy = 0.5 * (static_cast<double>(y0) + y1);
    // half-width: a little over half the larger extent, so every point is strictly inside
    const double h = 0.5 * std::max(static_cast<double>(x1) - x0, static_cast<double>(y1) - y0) * (1 + 1e-5) + 1e-30;
    for (int64_t t = 0; t < n; ++t) {
      px_[t] = Y[2 * order_[t]];
      py_[t] = Y[2 * order_[t] + 1];
    }
    build(0, n, cx, cy, h, 0);
  }

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<float>& px() const { return px_; }
  const std::vector<float>& py() const { return py_; }

 private:
  // Adds the node of points [b, e) in the cell centred (cx, cy) with half-width h.
  void build(int64_t b, int64_t e, double cx, double cy, double h, int depth) {
    const int64_t k = static_cast<int64_t>(nodes_.size());
    nodes_.push_back({});
    double sx = 0, sy = 0;
    for (int64_t t = b; t < e; ++t) sx += px_[t], sy += py_[t];
    Node nd{};
    nd.cx = static_cast<float>(sx / static_cast<double>(e - b));
    nd.cy = static_cast<float>(sy / static_cast<double>(e - b));
    nd.mass = static_cast<float>(e - b);
    nd.r2 = inv_theta2_ > 0 ? static_cast<float>(h * h * inv_theta2_) : std::numeric_limits<float>::infinity();
    nd.begin = -1;
    nd.end = -1;
    if (e - b <= kLeafPoints || depth >= kMaxDepth) {
      nd.begin = static_cast<int32_t>(b);
      nd.end = static_cast<int32_t>(e);
    } else {
      // a stable partition by quadrant (x >= cx, y >= cy): 0 = (-,-), 1 = (+,-), 2 = (-,+), 3 = (+,+)
      int64_t count[4] = {0, 0, 0, 0};
      for (int64_t t = b; t < e; ++t) {
        const uint8_t q = static_cast<uint8_t>((px_[t] >= cx ? 1 : 0) | (py_[t] >= cy ? 2 : 0));
        quadrant_[t] = q;
        ++count[q];
      }
      int64_t start[5] = {b, 0, 0, 0, 0};
      for (int q = 0; q < 4; ++q) start[q + 1] = start[q] + count[q];
      int64_t fill[4] = {start[0], start[1], start[2], start[3]};
      for (int64_t t = b; t < e; ++t) scratch_[fill[quadrant_[t]]++] = t;  // destination <- source slot
      permute(b, e);
      const double hh = 0.5 * h;
      for (int q = 0; q < 4; ++q) {
        if (start[q + 1] == start[q]) continue;
        build(start[q], start[q + 1], cx + ((q & 1) ? hh : -hh), cy + ((q & 2) ? hh : -hh), hh, depth + 1);
      }
    }
    nd.next = static_cast<int32_t>(nodes_.size());
    nodes_[k] = nd;
  }

  // Moves the points [b, e) so that slot d receives the point in slot scratch_[d].
  void permute(int64_t b, int64_t e) {
    tmp_x_.resize(static_cast<size_t>(e - b));
    tmp_y_.resize(static_cast<size_t>(e - b));
    tmp_id_.resize(static_cast<size_t>(e - b));
    for (int64_t d = b; d < e; ++d) {
      const int64_t s = scratch_[d];
      tmp_x_[d - b] = px_[s];
      tmp_y_[d - b] = py_[s];
      tmp_id_[d - b] = order_[s];
    }
    for (int64_t d = b; d < e; ++d) {
      px_[d] = tmp_x_[d - b];
      py_[d] = tmp_y_[d - b];
      order_[d] = tmp_id_[d - b];
    }
  }

  std::vector<int32_t>& order_;
  double inv_theta2_ = 0;
  std::vector<Node> nodes_;
  std::vector<float> px_, py_, tmp_x_, tmp_y_;
  std::vector<uint8_t> quadrant_;
  std::vector<int64_t> scratch_;
  std::vector<int32_t> tmp_id_;
};

void check_shapes(const char* where, const TsneAffinities& P, std::span<const float> Y, std::span<float> grad) {
  const uint64_t want = 2 * static_cast<uint64_t>(P.n);
  if (Y.size() != want) {
    fail(where, "map has " + std::to_string(Y.size()) + " values, expected n x 2 = " + std::to_string(want));
  }
  if (grad.size() != want) {
    fail(where, "gradient has " + std::to_string(grad.size()) + " values, expected n x 2 = " + std::to_string(want));
  }
}

// The attractive sums (n, 2) into attr: sum_j p_ij w_ij (y_i - y_j) over P's non-zeros.
// P is symmetric with sorted rows, so each pair i < j is computed once, from row i, and added to
// i and subtracted from j (w_ij = w_ji, p_ij = p_ji): half the divisions. A row's terms are first
// computed element by element into scratch arrays (a loop the compiler may vectorize: the same
// IEEE operations per element either way), then summed in order.
// subtle: one serial pass (the scatter to row j is what makes it cheap: attr stays in cache);
// on the pool it is one block of the same loop as the repulsive sums (see forces()).
void attractive(const TsneAffinities& P, std::span<const float> Y, std::span<float> attr, std::span<float> scratch) {
  const int64_t n = P.n;
  std::fill(attr.begin(), attr.end(), 0.0f);
  float* fx = scratch.data();
  float* fy = fx + scratch.size() / 2;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t* cols = P.cols.data() + P.row_start[i];
    const float* p = P.values.data() + P.row_start[i];
    const int64_t len = P.row_start[i + 1] - P.row_start[i];
    int64_t first = 0;  // the first j > i
    while (first < len && cols[first] <= i) ++first;
    const float xi = Y[2 * i], yi = Y[2 * i + 1];
    const int64_t m = len - first;
    for (int64_t e = 0; e < m; ++e) {
      const int32_t j = cols[first + e];
      const float dx = xi - Y[2 * j], dy = yi - Y[2 * j + 1];
      const float w = p[first + e] / (1.0f + dx * dx + dy * dy);
      fx[e] = w * dx;
      fy[e] = w * dy;
    }
    float ax = 0, ay = 0;
    for (int64_t e = 0; e < m; ++e) {
      const int32_t j = cols[first + e];
      ax += fx[e];
      ay += fy[e];
      attr[2 * j] -= fx[e];
      attr[2 * j + 1] -= fy[e];
    }
    attr[2 * i] += ax;
    attr[2 * i + 1] += ay;
  }
}

// Exact repulsive sums of rows [b, e): rep (n, 2) = sum_j w_ij^2 (y_i - y_j), sums[i] = the
// row's part of Z (sum_j w_ij).
void repulsion_exact(int64_t n, std::span<const float> Y, int64_t b, int64_t e, float* rep, float* sums) {
  for (int64_t i = b; i < e; ++i) {
    const float xi = Y[2 * i], yi = Y[2 * i + 1];
    float sq = 0, fx = 0, fy = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const float dx = xi - Y[2 * j], dy = yi - Y[2 * j + 1];
      const float q = 1.0f / (1.0f + dx * dx + dy * dy);
      sq += q;
      const float q2 = q * q;
      fx += q2 * dx;
      fy += q2 * dy;
    }
    if (rep) rep[2 * i] = fx, rep[2 * i + 1] = fy;
    sums[i] = sq;
  }
}

// Barnes-Hut repulsive sums of the points [b, e) in tree order: rep (n, 2) by row (rep may be
// null: Z only), sums[t] = point t's part of Z.
void repulsion_bh(const QuadTree& tree, const std::vector<int32_t>& order, int64_t b, int64_t e, float* rep,
                  float* sums) {
  const Node* nodes = tree.nodes().data();
  const int32_t count = static_cast<int32_t>(tree.nodes().size());
  const float* px = tree.px().data();
  const float* py = tree.py().data();
  for (int64_t t = b; t < e; ++t) {  // points in tree order
    const float xi = px[t], yi = py[t];
    float sq = 0, fx = 0, fy = 0;
    int32_t k = 0;
    while (k < count) {
      const Node& nd = nodes[k];
      const float dx = xi - nd.cx, dy = yi - nd.cy;
      const float d2 = dx * dx + dy * dy;
      if (d2 > nd.r2) {  // far enough: the cell's summary
        const float q = 1.0f / (1.0f + d2);
        const float m = nd.mass * q;
        sq += m;
        const float m2 = m * q;
        fx += m2 * dx;
        fy += m2 * dy;
        k = nd.next;
      } else if (nd.begin >= 0) {  // a leaf: its points one by one, the point itself left out
        for (int32_t s = nd.begin; s < nd.end; ++s) {
          if (s == t) continue;
          const float ex = xi - px[s], ey = yi - py[s];
          const float q = 1.0f / (1.0f + ex * ex + ey * ey);
          sq += q;
          const float q2 = q * q;
          fx += q2 * ex;
          fy += q2 * ey;
        }
        k = nd.next;
      } else {
        ++k;
      }
    }
    if (rep) {
      const int32_t i = order[t];
      rep[2 * i] = fx, rep[2 * i + 1] = fy;
    }
    sums[t] = sq;
  }
}

// One evaluation on the pool (core/parallel.hpp): block 0 computes the attractive sums (when
// grad is given), blocks 1.. the repulsive sums of kForceRows points each (exact, or through the
// tree when it is given); each block writes only its own outputs, so the thread count changes no
// bit, and the serial loops' orders are kept: Z = the points' parts summed in order afterwards,
// then grad_i = 4 (e * attractive_i - repulsive_i / Z). Returns Z.
double forces(const TsneAffinities& P, std::span<const float> Y, const QuadTree* tree, const std::vector<int32_t>* order,
              float exaggeration, std::span<float> grad) {
  const int64_t n = P.n;
  int64_t widest = 0;
  for (int64_t i = 0; i < n; ++i) widest = std::max(widest, P.row_start[i + 1] - P.row_start[i]);
  MemoryPlan p("tsne");
  if (!grad.empty()) {
    p.add("repulsive forces", {n, 2}, kFloat32);
    p.add("attractive terms", {widest, 2}, kFloat32);
  }
  p.add("parts of Z", {n}, kFloat32);
  p.check();
  std::vector<float> rep(grad.empty() ? 0 : static_cast<size_t>(2 * n)), fx(grad.empty() ? 0 : static_cast<size_t>(2 * widest));
  std::vector<float> sums(static_cast<size_t>(n));
  const int64_t blocks = (n + kForceRows - 1) / kForceRows;
  parallel_for(blocks + 1, 1, [&](int64_t k, int64_t, int64_t) {
    if (k == 0) {
      if (!grad.empty()) attractive(P, Y, grad, fx);
      return;
    }
    const int64_t b = (k - 1) * kForceRows, e = std::min(n, b + kForceRows);
    float* r = grad.empty() ? nullptr : rep.data();
    if (tree) repulsion_bh(*tree, *order, b, e, r, sums.data());
    else repulsion_exact(n, Y, b, e, r, sums.data());
  });
  double z = 0;
  for (int64_t i = 0; i < n; ++i) z += sums[i];
  const float inv_z = static_cast<float>(1.0 / z);
  for (int64_t i = 0; i < static_cast<int64_t>(grad.size()); ++i) grad[i] = 4.0f * (exaggeration * grad[i] - rep[i] * inv_z);
  return z;
}

std::vector<int32_t> identity_order(int64_t n) {
  std::vector<int32_t> order(plan("tsne", "tree order", n, kInt32));
  for (int64_t i = 0; i < n; ++i) order[i] = static_cast<int32_t>(i);
  return order;
}

}  // namespace

double tsne_gradient_exact(const TsneAffinities& P, std::span<const float> Y, float exaggeration, std::span<float> grad) {
  check_shapes("tsne gradient", P, Y, grad);
  return forces(P, Y, nullptr, nullptr, exaggeration, grad);
}

double tsne_gradient_bh(const TsneAffinities& P, std::span<const float> Y, double theta, float exaggeration,
                        std::span<float> grad) {
  check_shapes("tsne gradient", P, Y, grad);
  std::vector<int32_t> order = identity_order(P.n);
  return tsne_gradient_bh_ordered(P, Y, theta, exaggeration, grad, order);
}

double tsne_gradient_bh_ordered(const TsneAffinities& P, std::span<const float> Y, double theta, float exaggeration,
                                std::span<float> grad, std::vector<int32_t>& order) {
  const QuadTree tree(Y, order, theta);
  return forces(P, Y, &tree, &order, exaggeration, grad);
}

// Z as the gradient finds it, then the terms p log(p / q) in fixed blocks of rows on the pool,
// one per entry, summed in entry order afterwards (the serial loop's order: the same bits at
// every thread count).
double tsne_kl_ordered(const TsneAffinities& P, std::span<const float> Y, double theta, std::vector<int32_t>& order) {
  double z = 0;
  if (theta == 0) {
    z = forces(P, Y, nullptr, nullptr, 1.0f, {});
  } else {
    const QuadTree tree(Y, order, theta);
    z = forces(P, Y, &tree, &order, 1.0f, {});
  }
  std::vector<double> terms(plan("tsne", "divergence terms", P.row_start[P.n], kFloat64));
  parallel_for(P.n, kForceRows, [&](int64_t b, int64_t end, int64_t) {
    for (int64_t i = b; i < end; ++i) {
      const float xi = Y[2 * i], yi = Y[2 * i + 1];
      for (int64_t e = P.row_start[i]; e < P.row_start[i + 1]; ++e) {
        const double p = P.values[e];
        terms[e] = 0;
        if (p <= 0) continue;
        const int32_t j = P.cols[e];
        const double dx = static_cast<double>(xi) - Y[2 * j], dy = static_cast<double>(yi) - Y[2 * j + 1];
        terms[e] = p * detmath::log(p * z * (1.0 + dx * dx + dy * dy));  // p log(p / q), q = w / Z, w = 1 / (1 + d^2)
      }
    }
  });
  double kl = 0;
  for (int64_t e = 0; e < P.row_start[P.n]; ++e) {
    if (!(P.values[e] <= 0)) kl += terms[e];
  }
  return kl;
}

double tsne_kl(const TsneAffinities& P, std::span<const float> Y, double theta) {
  if (Y.size() != 2 * static_cast<uint64_t>(P.n)) {
    fail("tsne kl", "map has " + std::to_string(Y.size()) + " values, expected n x 2 = " + std::to_string(2 * P.n));
  }
  std::vector<int32_t> order = identity_order(P.n);
  return tsne_kl_ordered(P, Y, theta, order);
}

}  // namespace embedlab
