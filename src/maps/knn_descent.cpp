// NN-descent's steps (declared and described in maps/knn_detail.hpp), after pynndescent: a node of
// a random-projection tree, the local joins of a Joiner (pairs measured and pushed into both rows'
// heaps) and one round's candidate lists. It does not decide their order, their units of work or
// when to stop (KnnBuild's stages, knn.cpp), nor measure distances itself (KnnRows, knn_rows.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "kernels/dense.hpp"
#include "maps/knn_detail.hpp"

namespace embedlab::knn_detail {

int64_t rp_tree_node(const KnnRows& x, std::vector<int32_t>& perm, int64_t leaf, FastRng& rng,
                     const std::function<void(int64_t, int64_t)>& on_leaf, std::vector<float>& normal,
                     std::vector<int32_t>& scratch, std::vector<uint8_t>& side,
                     std::vector<std::pair<int64_t, int64_t>>& stack) {
  const size_t D = static_cast<size_t>(x.dim());
  const auto [b, e] = stack.back();
  stack.pop_back();
  const int64_t size = e - b;
  if (size <= leaf) {
    on_leaf(b, e);
    return 0;
  }
  const int32_t l = perm[b + rng.below(static_cast<uint32_t>(size))];
  int32_t r = perm[b + rng.below(static_cast<uint32_t>(size))];
  for (int tries = 0; r == l && tries < 8; ++tries) r = perm[b + rng.below(static_cast<uint32_t>(size))];
  const float* xl = x.row(l);
  const float* xr = x.row(r);
  float offset = 0;
  for (size_t d = 0; d < D; ++d) normal[d] = xl[d] - xr[d];
  if (x.metric() == Metric::Euclidean) {
    float s = 0;  // -normal . (xl + xr) / 2
    for (size_t d = 0; d < D; ++d) s += normal[d] * ((xl[d] + xr[d]) * 0.5f);
    offset = -s;
  }
  int64_t left = 0;
  // margins 64 rows at a time through dot_rows (its interleaved rows hide the add latency that
  // bounds one dot product; the same bits as kernels::dot)
  constexpr int64_t kBatch = 64;
  const float* rows[kBatch];
  float dots[kBatch];
  for (int64_t p0 = b; p0 < e; p0 += kBatch) {
    const int64_t count = std::min(kBatch, e - p0);
    for (int64_t c = 0; c < count; ++c) rows[c] = x.row(perm[p0 + c]);
    dense::dot_rows(D, normal.data(), rows, static_cast<size_t>(count), dots);
    for (int64_t c = 0; c < count; ++c) {
      const float m = dots[c] + offset;
      const uint8_t s = m > 0 ? 0 : m < 0 ? 1 : static_cast<uint8_t>(rng.next() & 1);
      side[p0 + c - b] = s;
      left += s == 0;
    }
  }
  if (left == 0 || left == size) {  // degenerate (duplicates): split at random, in halves
    left = 0;
    for (int64_t p = 0; p < size; ++p) {
      side[p] = static_cast<uint8_t>(p >= size / 2);
      left += side[p] == 0;
    }
  }
  // stable partition through scratch (no std::partition: its order differs between libraries)
  int64_t wl = 0, wr = left;
  for (int64_t p = 0; p < size; ++p) scratch[side[p] == 0 ? wl++ : wr++] = perm[b + p];
  std::copy_n(scratch.begin(), size, perm.begin() + b);
  stack.push_back({b + left, e});
  stack.push_back({b, b + left});
  return size * static_cast<int64_t>(D);
}

int64_t Joiner::join(int32_t p, const int32_t* qs, size_t count) {
  size_t m = 0;
  for (size_t c = 0; c < count; ++c) {
    const int32_t q = qs[c];
    if (q == p || q < 0) continue;
    if (h.contains(p, q) && h.contains(q, p)) continue;
    todo[m++] = q;
  }
  if (m == 0) return 0;
  x.proxies(x.row(p), x.squared_norm(p), todo.data(), m, out.data(), ptrs.data());
  return push_pairs(p, m);
}

int64_t Joiner::push_pairs(int32_t p, size_t m) {
  distances += static_cast<int64_t>(m);
  int64_t changed = 0;
  for (size_t c = 0; c < m; ++c) {
    changed += h.push(p, out[c], todo[c], 1);
    changed += h.push(todo[c], out[c], p, 1);
  }
  return changed;
}

int64_t Joiner::apply(int32_t p, const int32_t* qs, const float* proxies, size_t count) {
  size_t m = 0;
  for (size_t c = 0; c < count; ++c) {
    const int32_t q = qs[c];
    if (q == p || q < 0) continue;
    if (h.contains(p, q) && h.contains(q, p)) continue;
    todo[m] = q, out[m++] = proxies[c];
  }
  return push_pairs(p, m);
}

void build_candidates(Heaps& h, int64_t C, FastRng& rng, std::vector<int32_t>& nid, std::vector<float>& npri,
                      std::vector<int32_t>& oid, std::vector<float>& opri) {
  std::fill(nid.begin(), nid.end(), -1);
  std::fill(oid.begin(), oid.end(), -1);
  std::fill(npri.begin(), npri.end(), kInf);
  std::fill(opri.begin(), opri.end(), kInf);
  const auto push = [C](std::vector<int32_t>& ids, std::vector<float>& pri, int64_t i, float p, int32_t id) {
    int32_t* ii = ids.data() + i * C;
    float* pp = pri.data() + i * C;
    if (!(p < pp[0])) return;
    for (int64_t j = 0; j < C; ++j)
      if (ii[j] == id) return;
    int64_t pos = 0;
    for (;;) {
      const int64_t l = 2 * pos + 1, r = l + 1;
      if (l >= C) break;
      const int64_t big = (r < C && pp[r] > pp[l]) ? r : l;
      if (pp[big] <= p) break;
      pp[pos] = pp[big], ii[pos] = ii[big];
      pos = big;
    }
    pp[pos] = p, ii[pos] = id;
  };
  for (int64_t i = 0; i < h.n; ++i) {
    for (int64_t j = 0; j < h.k; ++j) {
      const int32_t id = h.ids[i * h.k + j];
      if (id < 0) continue;
      const float p = rng.uniform();
      if (h.flag[i * h.k + j]) {
        push(nid, npri, i, p, id);
        push(nid, npri, id, p, static_cast<int32_t>(i));
      } else {
        push(oid, opri, i, p, id);
        push(oid, opri, id, p, static_cast<int32_t>(i));
      }
    }
  }
  for (int64_t i = 0; i < h.n; ++i) {
    const int32_t* ni = nid.data() + i * C;
    for (int64_t j = 0; j < h.k; ++j) {
      if (!h.flag[i * h.k + j]) continue;
      const int32_t id = h.ids[i * h.k + j];
      for (int64_t c = 0; c < C; ++c)
        if (ni[c] == id) {
          h.flag[i * h.k + j] = 0;
          break;
        }
    }
  }
}

}  // namespace embedlab::knn_detail
