// Issue 25 for the maps: exact kNN, NN-descent, UMAP's graph and its layout run on the thread
// pool (src/core/parallel.hpp) and give the same bits at 1, 2, 3 and 4 real threads (the pool
// oversubscribed on purpose, above the cores of a small machine). Also: the exact graph is the
// plain all-pairs search's (the same proxies, nearest first), and transform is thread-count free.
// Not here: the single-thread behaviour of the maps (test_umap.cpp, test_umap_slices.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/parallel.hpp"
#include "maps/knn.hpp"
#include "maps/umap/umap.hpp"
#include "reference.hpp"

using namespace embedlab;
using embedlab::testing::clustered;
using embedlab::testing::same_bits;

namespace {

struct KeepThreads {
  int saved = threads();
  ~KeepThreads() { set_threads(saved); }
};

bool same_graph(const KnnGraph& a, const KnnGraph& b) {
  return a.n == b.n && a.k == b.k && a.ids == b.ids && same_bits(a.dists, b.dists);
}

}  // namespace

TEST_CASE("exact kNN: the same bits at 1-4 threads, the all-pairs search's", "[knn][threads]") {
  KeepThreads keep;
  const int64_t n = 1100, D = 37, k = 12;  // 9 blocks of 128 rows: 10 rounds of tiles; 37: a SIMD remainder
  const std::vector<float> t = clustered(n, D, 5, 1.5f, 3);
  for (const Metric metric : {Metric::Cosine, Metric::Euclidean}) {
    INFO(metric_name(metric));
    const KnnRows x(t, n, D, metric, "test");
    set_threads_oversubscribed(1);
    const KnnGraph one = knn_graph(x, k, KnnMethod::Exact, 0);
    // the plain search: every other row's proxy, sorted by (proxy, id)
    std::vector<int32_t> ids(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) ids[j] = static_cast<int32_t>(j);
    std::vector<float> out(ids.size());
    std::vector<const float*> ptrs(ids.size());
    for (int64_t i = 0; i < n; i += 7) {
      x.proxies(x.row(i), x.squared_norm(i), ids.data(), ids.size(), out.data(), ptrs.data());
      std::vector<std::pair<float, int32_t>> row;
      for (int64_t j = 0; j < n; ++j)
        if (j != i) row.push_back({out[j], static_cast<int32_t>(j)});
      std::sort(row.begin(), row.end());
      for (int64_t a = 0; a < k; ++a) {
        REQUIRE(one.ids[i * k + a] == row[a].second);
        REQUIRE(one.dists[i * k + a] == x.distance(row[a].first));
      }
    }
    for (int th : {2, 3, 4}) {
      set_threads_oversubscribed(th);
      INFO(th << " threads");
      CHECK(same_graph(knn_graph(x, k, KnnMethod::Exact, 0), one));
      const std::vector<float> q(t.begin(), t.begin() + 40 * D);
      set_threads_oversubscribed(1);
      const KnnGraph q1 = knn_query(x, q, 40, k);
      set_threads_oversubscribed(th);
      CHECK(same_graph(knn_query(x, q, 40, k), q1));
    }
  }
}

TEST_CASE("NN-descent: the same graph, rounds and distance count at 1-4 threads; recall kept", "[knn][threads]") {
  KeepThreads keep;
  const int64_t n = 2600, D = 24, k = 10;  // 11 join units of 256 rows, 16-row blocks
  const std::vector<float> t = clustered(n, D, 8, 1.5f, 17);
  for (const Metric metric : {Metric::Cosine, Metric::Euclidean}) {
    INFO(metric_name(metric));
    const KnnRows x(t, n, D, metric, "test");
    set_threads_oversubscribed(1);
    KnnStats s1;
    const KnnGraph one = knn_graph(x, k, KnnMethod::Descent, 4, &s1);
    CHECK(knn_recall(one, knn_graph(x, k, KnnMethod::Exact, 0)) >= 0.9);
    for (int th : {2, 3, 4}) {
      set_threads_oversubscribed(th);
      INFO(th << " threads");
      KnnStats s;
      CHECK(same_graph(knn_graph(x, k, KnnMethod::Descent, 4, &s), one));
      CHECK((s.rounds == s1.rounds && s.distances == s1.distances));
      // in pieces of bounded work too
      KnnBuild b(x, k, KnnMethod::Descent, 4);
      while (!b.done()) b.advance(1 << 18);
      CHECK(same_graph(b.take(), one));
    }
  }
}

TEST_CASE("UMAP: the same map at 1-4 threads, fit and transform, exact and NN-descent", "[umap][threads]") {
  KeepThreads keep;
  const int64_t n = 1800, D = 20;  // 8 layout blocks of 256 heads
  const std::vector<float> all = clustered(n + 50, D, 6, 2.0f, 41);
  const std::vector<float> fit(all.begin(), all.begin() + n * D), fresh(all.begin() + n * D, all.end());
  for (const KnnMethod method : {KnnMethod::Exact, KnnMethod::Descent}) {
    INFO(knn_method_name(method));
    UmapOptions o;
    o.n_epochs = 80;
    o.seed = 5;
    o.knn = method;
    o.metric = Metric::Cosine;
    set_threads_oversubscribed(1);
    UmapRun one(fit, n, D, o);
    one.run();
    const std::vector<float> xy1(one.coordinates().begin(), one.coordinates().end());
    const std::vector<float> p1 = one.transform(fresh, 50);
    for (int th : {2, 3, 4}) {
      set_threads_oversubscribed(th);
      INFO(th << " threads");
      UmapRun r(fit, n, D, o);
      while (!r.done()) r.step(7);  // in slices too
      CHECK(same_bits(r.coordinates(), xy1));
      CHECK(same_bits(r.transform(fresh, 50), p1));
    }
  }
}
