// The parts of the kNN search (maps/knn.hpp) that its two .cpp files share: the neighbour heaps
// (Heaps, and their rows sorted into a graph) and NN-descent's steps, defined in knn_descent.cpp
// (a node of a random-projection tree, the local joins, one round's candidate lists). Not a
// public API: the tests reach these only through knn.hpp. It does not hold the order of the
// steps, their units of work or the exact search: those are KnnBuild's, in knn.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "core/memory.hpp"
#include "maps/knn.hpp"

namespace embedlab::knn_detail {

constexpr float kInf = std::numeric_limits<float>::infinity();

// n max-heaps of k (proxy, id, new-flag) entries each, rooted at slot 0; empty slots hold
// (+inf, -1). Row i's heap is [i k, (i + 1) k).
struct Heaps {
  int64_t n, k;
  std::vector<int32_t> ids;
  std::vector<float> d;
  std::vector<uint8_t> flag;
  Heaps(int64_t n_, int64_t k_, const char* where) : n(n_), k(k_) {
    const size_t cells = plan(where, "neighbour heaps", {n, k}, kInt32);
    ids.assign(cells, -1);
    d.assign(cells, kInf);
    flag.assign(cells, 0);
  }
  float top(int64_t i) const { return d[static_cast<size_t>(i * k)]; }
  bool contains(int64_t i, int32_t id) const {
    const int32_t* r = ids.data() + i * k;
    for (int64_t j = 0; j < k; ++j)
      if (r[j] == id) return true;
    return false;
  }
  // Replaces the root of row i's heap by (dist, id) if dist is smaller and id not there yet.
  // total: if (dist, id) is smaller (a total order, so the heap ends with the k smallest pairs
  // whatever order they came in; for pushes in ascending id order, as the exact search's were,
  // the same heaps as without it).
  bool push(int64_t i, float dist, int32_t id, uint8_t is_new, bool total = false) {
    float* dd = d.data() + i * k;
    const bool smaller = dist < dd[0] || (total && dist == dd[0] && id < ids[static_cast<size_t>(i * k)]);
    if (!smaller || contains(i, id)) return false;
    int32_t* ii = ids.data() + i * k;
    uint8_t* ff = flag.data() + i * k;
    int64_t pos = 0;
    for (;;) {  // sift down
      const int64_t l = 2 * pos + 1, r = l + 1;
      if (l >= k) break;
      int64_t big = l;
      if (r < k && (dd[r] > dd[l] || (dd[r] == dd[l] && ii[r] > ii[l]))) big = r;
      if (dd[big] < dist || (dd[big] == dist && ii[big] < id)) break;
      dd[pos] = dd[big], ii[pos] = ii[big], ff[pos] = ff[big];
      pos = big;
    }
    dd[pos] = dist, ii[pos] = id, ff[pos] = is_new;
    return true;
  }
};

// Rows [begin, end) of the heaps sorted into g (sized by the caller): each row ascending by
// (proxy, id), proxies -> distances.
inline void sort_rows(const KnnRows& x, const Heaps& h, KnnGraph& g, int64_t begin, int64_t end,
                      std::vector<std::pair<float, int32_t>>& row) {
  for (int64_t i = begin; i < end; ++i) {
    for (int64_t j = 0; j < h.k; ++j) row[j] = {h.d[i * h.k + j], h.ids[i * h.k + j]};
    std::sort(row.begin(), row.end());  // (proxy, id): a total order
    for (int64_t j = 0; j < h.k; ++j) {
      g.ids[i * h.k + j] = row[j].second;
      g.dists[i * h.k + j] = x.distance(row[j].first);
    }
  }
}

// The heaps sorted into a graph (sort_rows over every row).
inline KnnGraph to_graph(const KnnRows& x, const Heaps& h) {
  KnnGraph g;
  g.n = h.n, g.k = h.k;
  g.ids.resize(h.ids.size());
  g.dists.resize(h.d.size());
  std::vector<std::pair<float, int32_t>> row(static_cast<size_t>(h.k));
  sort_rows(x, h, g, 0, h.n, row);
  return g;
}

// One node of a random-projection tree over perm: pops [b, e) from stack; a piece of at most
// leaf rows is a leaf (on_leaf(b, e)), a larger one is split around a random hyperplane and its
// halves pushed (left on top, so leaves come in depth-first order). Angular (cosine): the
// hyperplane through the origin between two random rows; euclidean: the perpendicular bisector
// of two random rows (pynndescent's angular_random_projection_split /
// euclidean_random_projection_split). Returns the split's cost (size x D), 0 for a leaf.
// Popping until the stack is empty, starting from {{0, n}}, builds one tree.
int64_t rp_tree_node(const KnnRows& x, std::vector<int32_t>& perm, int64_t leaf, FastRng& rng,
                     const std::function<void(int64_t, int64_t)>& on_leaf, std::vector<float>& normal,
                     std::vector<int32_t>& scratch, std::vector<uint8_t>& side,
                     std::vector<std::pair<int64_t, int64_t>>& stack);

// Measures every pair of ids in [first, last) (a leaf, or one row against its candidates) and
// pushes each into both heaps as new. Returns how many heap entries changed.
struct Joiner {
  const KnnRows& x;
  Heaps& h;
  int64_t distances = 0;
  std::vector<int32_t> todo;
  std::vector<float> out;
  std::vector<const float*> ptrs;
  Joiner(const KnnRows& x_, Heaps& h_, size_t most) : x(x_), h(h_), todo(most), out(most), ptrs(most) {}

  // p against qs[0, count): skips q == p and pairs that already list each other.
  int64_t join(int32_t p, const int32_t* qs, size_t count);

  // join(p, qs, count) with the proxies of p against qs measured beforehand (proxies[c] for
  // qs[c], p as the query): the same filter on the heaps as they are now, the same pushes in the
  // same order, so the same heaps and counts as join.
  int64_t apply(int32_t p, const int32_t* qs, const float* proxies, size_t count);

  // the m measured pairs (p, todo[c]) at distance out[c], pushed into both rows' heaps in order
  int64_t push_pairs(int32_t p, size_t m);
};

// Candidate lists for one round (pynndescent's new_build_candidates): each row's neighbours and
// reverse neighbours, split by their new flag, each list a max-heap on a random priority so at
// most C of them survive; new entries that made it into the list are flagged old.
void build_candidates(Heaps& h, int64_t C, FastRng& rng, std::vector<int32_t>& nid, std::vector<float>& npri,
                      std::vector<int32_t>& oid, std::vector<float>& opri);

}  // namespace embedlab::knn_detail
