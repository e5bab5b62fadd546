// kNN graphs (maps/knn.hpp): KnnBuild (the exact search in tiles and the stages of NN-descent,
// in units of bounded work), knn_graph and knn_query. The rows and their distances (KnnRows),
// knn_method_name and knn_recall are in knn_rows.cpp; NN-descent's steps (random-projection
// trees, local joins, candidate lists) in knn_descent.cpp; the heaps in knn_detail.hpp.
#include "maps/knn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "kernels/kernels.hpp"
#include "maps/knn_detail.hpp"

namespace embedlab {

namespace {

using knn_detail::build_candidates;
using knn_detail::Heaps;
using knn_detail::Joiner;
using knn_detail::rp_tree_node;
using knn_detail::sort_rows;
using knn_detail::to_graph;

constexpr double kDelta = 0.001;  // NN-descent stops when a round changes < delta k n entries

// ---- KnnBuild: knn_graph in units of bounded work -------------------------------------------

constexpr int64_t kSortBlock = 1024;  // rows sorted into the graph per unit
constexpr int64_t kSortRows = 128;    // rows of a parallel block of the sort
constexpr int64_t kJoinRows = 256;   // NN-descent: rows of local joins per unit
constexpr int64_t kJoinBlock = 16;   // NN-descent: rows of a parallel block of the joins
constexpr int64_t kQueryBlock = 8;     // knn_query: new rows per parallel block
constexpr int64_t kExactBlock = 128;  // Exact: rows of a tile's side (two sides: ~D KiB, in L2)

// The exact search's tiles: the rows in blocks of kExactBlock; tile (a, b), a <= b, measures every
// pair (i in a, j in b, i < j) once and pushes it into both rows' heaps with the total order, so
// the heaps do not depend on the order of the tiles. The tiles run in rounds of a round-robin
// tournament (the circle method over m = the blocks rounded up to even): round 0 the diagonal
// tiles, round r >= 1 the pairs of blocks it matches; the tiles of a round share no block, so
// each writes heaps no other tile of the round writes. A pair's proxy has the same bits whichever
// row is the query (products commute), so the heaps are those of the one-sided scan (row j
// against the rows after it, ascending), bit for bit.
struct ExactTiles {
  int64_t blocks, m;  // m: blocks rounded up to even (>= 2)
  explicit ExactTiles(int64_t n) : blocks((n + kExactBlock - 1) / kExactBlock), m(blocks + (blocks & 1)) {
    if (m < 2) m = 2;
  }
  int64_t rounds() const { return m; }  // the diagonal round and m - 1 matchings
  // the tiles of round r: (a, b) pairs with a <= b < blocks
  std::vector<std::pair<int64_t, int64_t>> tiles(int64_t r) const {
    std::vector<std::pair<int64_t, int64_t>> t;
    if (r == 0) {
      for (int64_t a = 0; a < blocks; ++a) t.push_back({a, a});
      return t;
    }
    const int64_t q = r - 1, M = m - 1;  // element m - 1 fixed, the others rotate
    const auto add = [&](int64_t a, int64_t b) {
      if (a > b) std::swap(a, b);
      if (b < blocks) t.push_back({a, b});
    };
    add(q, m - 1);
    for (int64_t s = 1; s < m / 2; ++s) add((q + s) % M, (q - s + M) % M);
    return t;
  }
};

void exact_tile(const KnnRows& x, Heaps& h, const int32_t* ids, int64_t a, int64_t b) {
  const int64_t n = x.rows();
  const int64_t b0 = b * kExactBlock, b1 = std::min(n, b0 + kExactBlock);
  std::vector<float> out(static_cast<size_t>(kExactBlock));
  std::vector<const float*> ptrs(out.size());
  for (int64_t i = a * kExactBlock; i < std::min(n, (a + 1) * kExactBlock); ++i) {
    const int64_t j0 = a == b ? i + 1 : b0;
    if (j0 >= b1) continue;
    const size_t count = static_cast<size_t>(b1 - j0);
    x.proxies(x.row(i), x.squared_norm(i), ids + j0, count, out.data(), ptrs.data());
    for (size_t c = 0; c < count; ++c) {
      const int32_t j = ids[j0 + static_cast<int64_t>(c)];
      h.push(i, out[c], j, 0, true);
      h.push(j, out[c], static_cast<int32_t>(i), 0, true);
    }
  }
}
}  // namespace

struct KnnBuild::State {
  enum class Stage { Exact, Trees, Fill, Candidates, Joins, Sort, Done };
  const KnnRows& x;
  int64_t n, k, C = 0, leaf = 0;
  bool descent;
  Heaps h;
  Stage stage;
  int64_t row = 0;  // the next row of Exact, Fill, Joins and Sort
  // Exact: the ids of every row, and the proxies of one row against the later ones
  std::vector<int32_t> ids;
  std::vector<float> out;
  std::vector<const float*> ptrs;
  // Descent (pynndescent's order: trees, random rows for heaps not full, rounds of local joins)
  FastRng rng{0};
  std::unique_ptr<Joiner> join;
  int64_t trees = 0, tree = 0, tree_rows = 0;  // tree_rows: rows of the current tree in leaves
  std::vector<int32_t> perm, scratch;
  std::vector<uint8_t> side;
  std::vector<float> normal;
  std::vector<std::pair<int64_t, int64_t>> stack;
  int rounds = 0, round = 0;
  int64_t changed = 0;  // entries changed in the current round
  std::vector<int32_t> nid, oid;
  std::vector<int32_t> jids, jcount;  // Joins: the batches of kJoinRows rows (kJoinRows x C x 2C) and their sizes
  std::vector<float> jd;              //   and their proxies
  std::vector<float> npri, opri;
  KnnGraph g;
  State(const KnnRows& x_, int64_t k_, bool descent_, const char* where)
      : x(x_), n(x_.rows()), k(k_), descent(descent_), h(x_.rows(), k_, where),
        stage(descent_ ? Stage::Trees : Stage::Exact) {}

  // one unit of the current stage -> its cost in multiply-adds
  int64_t unit();
  void start_tree() {
    for (int64_t i = 0; i < n; ++i) perm[i] = static_cast<int32_t>(i);
    stack.assign(1, {0, n});
    tree_rows = 0;
  }
  void start_sort() {
    g.n = n, g.k = k;
    g.ids.resize(h.ids.size());
    g.dists.resize(h.d.size());
    // the search's buffers go before the graph grows to its full size
    ids = {}, out = {}, ptrs = {}, perm = {}, scratch = {}, side = {}, nid = {}, oid = {}, npri = {}, opri = {};
    jids = {}, jcount = {}, jd = {};
    row = 0;
    stage = Stage::Sort;
  }
};

int64_t KnnBuild::State::unit() {
  const int64_t D = x.dim();
  switch (stage) {
    case Stage::Exact: {  // one round of tiles (ExactTiles), its tiles in parallel
      const ExactTiles plan(n);
      const std::vector<std::pair<int64_t, int64_t>> tiles = plan.tiles(row);
      parallel_for(static_cast<int64_t>(tiles.size()), 1, [&](int64_t b, int64_t, int64_t) {
        exact_tile(x, h, ids.data(), tiles[static_cast<size_t>(b)].first, tiles[static_cast<size_t>(b)].second);
      });
      if (++row == plan.rounds()) start_sort();
      return static_cast<int64_t>(tiles.size()) * kExactBlock * kExactBlock * D + 1;
    }
    case Stage::Trees: {  // a forest of random-projection trees: every pair of rows sharing a leaf
      const int64_t before = join->distances;
      const int64_t cost = rp_tree_node(x, perm, leaf, rng, [&](int64_t b, int64_t e) {
        for (int64_t a = b; a + 1 < e; ++a) join->join(perm[a], perm.data() + a + 1, static_cast<size_t>(e - a - 1));
        tree_rows += e - b;
      }, normal, scratch, side, stack);
      if (stack.empty()) {
        if (++tree < trees) start_tree();
        else stage = Stage::Fill, row = 0;
      }
      return cost + (join->distances - before) * D + 1;
    }
    case Stage::Fill: {  // rows whose heaps are not full yet get random rows
      const int64_t before = join->distances;
      for (int tries = 0; h.ids[row * k] < 0 && tries < 4 * k; ++tries) {
        int32_t r = static_cast<int32_t>(rng.below(static_cast<uint32_t>(n)));
        join->join(static_cast<int32_t>(row), &r, 1);
      }
      if (++row == n) {
        nid.resize(static_cast<size_t>(n * C)), oid.resize(nid.size());
        npri.resize(nid.size()), opri.resize(nid.size());
        jids.resize(static_cast<size_t>(kJoinRows * C * 2 * C)), jd.resize(jids.size());
        jcount.resize(static_cast<size_t>(kJoinRows * C));
        stage = Stage::Candidates;
      }
      return (join->distances - before) * D + 1;
    }
    case Stage::Candidates:  // one round's candidate lists
      build_candidates(h, C, rng, nid, npri, oid, opri);
      changed = 0, row = 0;
      stage = Stage::Joins;
      return n * (k + C);
    case Stage::Joins: {  // rows [row, row + kJoinRows): new x new (later ones) and new x old, one batch per candidate
      // Measured in parallel (blocks of kJoinBlock rows, each writing its rows' batches), then
      // applied in row order on this thread: the heaps see the pushes of the one-row-at-a-time
      // loop, in its order, so the graph does not depend on the thread count. The price: pairs
      // that the serial loop skips (already listed both ways) are measured too.
      const int64_t before = join->distances;
      const int64_t begin = row, end = std::min(n, row + kJoinRows), W = 2 * C;
      parallel_for(end - begin, kJoinBlock, [&](int64_t b, int64_t e, int64_t) {
        std::vector<const float*> p(static_cast<size_t>(W));
        for (int64_t r = begin + b; r < begin + e; ++r) {
          const int32_t* ni = nid.data() + r * C;
          const int32_t* oi = oid.data() + r * C;
          for (int64_t a = 0; a < C; ++a) {
            const int64_t slot = (r - begin) * C + a;
            int32_t* bi = jids.data() + slot * W;
            int32_t m = 0;
            const int32_t pa = ni[a];
            if (pa >= 0) {
              for (int64_t c = a + 1; c < C; ++c)
                if (ni[c] >= 0) bi[m++] = ni[c];
              for (int64_t c = 0; c < C; ++c)
                if (oi[c] >= 0) bi[m++] = oi[c];
              if (m > 0) x.proxies(x.row(pa), x.squared_norm(pa), bi, static_cast<size_t>(m), jd.data() + slot * W, p.data());
            }
            jcount[static_cast<size_t>(slot)] = m;
          }
        }
      });
      int64_t measured = 0;
      for (int64_t r = begin; r < end; ++r) {
        const int32_t* ni = nid.data() + r * C;
        for (int64_t a = 0; a < C; ++a) {
          const int64_t slot = (r - begin) * C + a;
          const int32_t m = jcount[static_cast<size_t>(slot)];
          if (m == 0) continue;
          measured += m;
          changed += join->apply(ni[a], jids.data() + slot * W, jd.data() + slot * W, static_cast<size_t>(m));
        }
      }
      row = end;
      if (row == n) {
        ++round;
        if (round >= rounds || static_cast<double>(changed) <= kDelta * static_cast<double>(k) * static_cast<double>(n)) {
          start_sort();
        } else {
          stage = Stage::Candidates;
        }
      }
      return (measured + join->distances - before) * D / 2 + (end - begin) * 2 * C;
    }
    case Stage::Sort: {
      const int64_t begin = row, end = std::min(n, row + kSortBlock);
      parallel_for(end - begin, kSortRows, [&](int64_t b, int64_t e, int64_t) {
        std::vector<std::pair<float, int32_t>> scratch(static_cast<size_t>(k));
        sort_rows(x, h, g, begin + b, begin + e, scratch);
      });
      const int64_t cost = (end - row) * k * 16;
      row = end;
      if (row == n) stage = Stage::Done;
      return cost;
    }
    case Stage::Done: break;
  }
  return 0;
}

KnnBuild::KnnBuild(const KnnRows& x, int64_t k, KnnMethod method, uint64_t seed) {
  const int64_t n = x.rows(), D = x.dim();
  if (n < 2) fail("knn", "needs at least 2 rows, got " + std::to_string(n));
  if (k < 1 || k > n - 1) {
    fail("knn", "k " + std::to_string(k) + " out of range [1, " + std::to_string(n - 1) + "] (n - 1 for " +
                    std::to_string(n) + " rows)");
  }
  const bool descent = method == KnnMethod::Descent || (method == KnnMethod::Auto && n >= kExactBelow);
  const int64_t C = std::max<int64_t>(kMaxCandidates, k);
  MemoryPlan p("knn");
  p.add("neighbour heaps", {n, k, 9}, kBytes);  // ids, proxies, flags
  if (descent) {
    p.add("candidate lists", {4, n, C}, kFloat32);  // new/old ids and priorities
    p.add("join batches", {kJoinRows, C, 2 * C + 1, 2}, kFloat32);  // ids and proxies, sizes
    p.add("tree order and scratch", {2, n}, kInt32);
    p.add("tree sides", {n}, kBytes);
    p.add("hyperplane", {D}, kFloat32);
  } else {
    p.add("row ids, proxies and pointers", {n, 3}, kInt64);
  }
  p.check();
  s_ = std::make_unique<State>(x, k, descent, "knn");
  State& s = *s_;
  if (!descent) {
    s.ids.resize(static_cast<size_t>(n)), s.out.resize(s.ids.size()), s.ptrs.resize(s.ids.size());
    for (int64_t j = 0; j < n; ++j) s.ids[j] = static_cast<int32_t>(j);
    return;
  }
  s.C = C;
  s.leaf = std::max<int64_t>(10, k + 1);
  s.rng = FastRng(seed ^ 0x5eed0f0d5eedull);
  s.join = std::make_unique<Joiner>(x, s.h, static_cast<size_t>(std::max(2 * C, s.leaf)));
  // the reference n_trees (why not fewer: the "subtle" note in knn.hpp)
  s.trees = std::min<int64_t>(64, 5 + static_cast<int64_t>(std::lround(std::sqrt(static_cast<double>(n)) / 20.0)));
  s.rounds = std::max(5, static_cast<int>(std::lround(std::log2(static_cast<double>(n)))));
  s.perm.resize(static_cast<size_t>(n)), s.scratch.resize(static_cast<size_t>(n));
  s.side.resize(static_cast<size_t>(n));
  s.normal.resize(static_cast<size_t>(D));
  s.start_tree();
}

KnnBuild::~KnnBuild() = default;
KnnBuild::KnnBuild(KnnBuild&&) noexcept = default;
KnnBuild& KnnBuild::operator=(KnnBuild&&) noexcept = default;

int64_t KnnBuild::advance(int64_t work) {
  if (!s_) fail("knn", "the graph was taken already");
  int64_t spent = 0;
  while (s_->stage != State::Stage::Done) {
    spent += s_->unit();
    if (spent >= work) break;
  }
  return spent;
}

bool KnnBuild::done() const { return !s_ || s_->stage == State::Stage::Done; }

double KnnBuild::progress() const {
  if (done()) return 1.0;
  const State& s = *s_;
  const double n = static_cast<double>(s.n);
  using Stage = State::Stage;
  constexpr double kSorting = 0.02;  // the last share: sorting the heaps into the graph
  if (s.stage == Stage::Sort) return (1 - kSorting) + kSorting * static_cast<double>(s.row) / n;
  if (!s.descent) return (1 - kSorting) * static_cast<double>(s.row) / static_cast<double>(ExactTiles(s.n).rounds());
  // Descent: the trees a quarter, the rounds the rest, each round half of what is left (each
  // finds fewer new candidates than the one before; the search may stop after any round)
  constexpr double kTrees = 0.25;
  if (s.stage == Stage::Trees) {
    return (1 - kSorting) * kTrees * (static_cast<double>(s.tree) + static_cast<double>(s.tree_rows) / n) /
           static_cast<double>(s.trees);
  }
  double within = 0;  // of the current round
  if (s.stage == Stage::Joins) within = static_cast<double>(s.row) / n;
  const double rounds_done = 1 - std::ldexp(1.0, -s.round) * (1 - 0.5 * within);
  return (1 - kSorting) * (kTrees + (1 - kTrees) * rounds_done);
}

KnnGraph KnnBuild::take(KnnStats* stats) {
  if (!s_ || s_->stage != State::Stage::Done) fail("knn", "the graph is not built yet");
  State& s = *s_;
  if (stats) {
    if (s.descent) stats->method = KnnMethod::Descent, stats->rounds = s.round, stats->distances = s.join->distances;
    else stats->method = KnnMethod::Exact, stats->rounds = 0, stats->distances = s.n * (s.n - 1) / 2;
  }
  KnnGraph g = std::move(s.g);
  s_.reset();
  return g;
}

KnnGraph knn_graph(const KnnRows& x, int64_t k, KnnMethod method, uint64_t seed, KnnStats* stats) {
  KnnBuild b(x, k, method, seed);
  b.advance(std::numeric_limits<int64_t>::max());
  return b.take(stats);
}

KnnGraph knn_query(const KnnRows& x, std::span<const float> queries, int64_t m, int64_t k) {
  const int64_t n = x.rows(), D = x.dim();
  check_at_least("transform", "rows", m, 0);
  if (k < 1 || k > n) fail("transform", "k " + std::to_string(k) + " out of range [1, " + std::to_string(n) + "]");
  if (static_cast<uint64_t>(queries.size()) != static_cast<uint64_t>(m) * static_cast<uint64_t>(D)) {
    fail("transform", "new rows have " + std::to_string(queries.size()) + " values, expected " + std::to_string(m) +
                          " x " + std::to_string(D));
  }
  for (size_t i = 0; i < queries.size(); ++i) {
    if (!std::isfinite(queries[i])) {
      fail("transform", "new row value " + format_number(queries[i]) + " at row " + std::to_string(i / D) +
                            ", column " + std::to_string(i % D) + " is not finite");
    }
  }
  MemoryPlan p("transform");
  p.add("neighbours of the new rows", {m, k, 2}, kInt32);
  p.add("distances to every row", {n, 3}, kInt32);  // ids, proxies, pointers (<= 8 bytes)
  p.check();
  Heaps h(m, k, "transform");
  std::vector<int32_t> ids(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) ids[j] = static_cast<int32_t>(j);
  // blocks of query rows in parallel, each writing only its rows' heaps
  parallel_for(m, kQueryBlock, [&](int64_t b, int64_t e, int64_t) {
    std::vector<float> out(ids.size());
    std::vector<const float*> ptrs(ids.size());
    for (int64_t i = b; i < e; ++i) {
      const std::vector<float> q = x.prepare(queries.data() + i * D);
      const float q_sq = kernels::dot(static_cast<size_t>(D), q.data(), q.data());
      x.proxies(q.data(), q_sq, ids.data(), static_cast<size_t>(n), out.data(), ptrs.data());
      for (int64_t j = 0; j < n; ++j) h.push(i, out[j], static_cast<int32_t>(j), 0);
    }
  });
  return to_graph(x, h);
}

}  // namespace embedlab
