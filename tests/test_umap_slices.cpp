// maps/umap/umap.hpp and maps/knn.hpp in pieces: kNN graphs built in pieces, UMAP's
// construction in slices against the one-call map's bits, exact duplicates, detmath::exp's
// saturation, and the planned, sliced init of a graph of many components.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/detmath.hpp"
#include "core/rng.hpp"
#include "kernels/dense.hpp"
#include "limits.hpp"
#include "slices.hpp"
#include "maps/knn.hpp"
#include "maps/umap/umap.hpp"
#include "maps/umap/umap_detail.hpp"
#include "reference.hpp"

using namespace embedlab;

using embedlab::testing::clustered;
using embedlab::testing::same_bits;

TEST_CASE("kNN graphs built in pieces equal the one-call graph", "[umap][knn]") {
  const int64_t n = 700, D = 19;
  const std::vector<float> t = clustered(n, D, 5, 2.0f, 17);
  for (const KnnMethod method : {KnnMethod::Exact, KnnMethod::Descent}) {
    const KnnRows x(t, n, D, Metric::Cosine, "test");
    KnnStats whole_stats;
    const KnnGraph whole = knn_graph(x, 9, method, 4, &whole_stats);
    for (const int64_t work : {int64_t{1}, int64_t{5000}, int64_t{300000}}) {
      SECTION(std::string(knn_method_name(method)) + " in pieces of " + std::to_string(work) + " multiply-adds") {
        KnnBuild b(x, 9, method, 4);
        int64_t calls = 0;
        double last = -1;
        while (!b.done()) {
          CHECK(b.advance(work) > 0);
          CHECK(b.progress() >= last);
          last = b.progress();
          ++calls;
        }
        CHECK(b.advance(work) == 0);
        CHECK(b.progress() == 1.0);
        // one unit a call: Exact a round of 128-row tiles (one per block), Descent a tree node,
        // 256 rows of joins or a block
        if (work == 1) CHECK(calls > (method == KnnMethod::Exact ? n / 128 : n / 2));
        KnnStats stats;
        const KnnGraph g = b.take(&stats);
        CHECK(g.ids == whole.ids);
        CHECK(same_bits(g.dists, whole.dists));
        CHECK(stats.rounds == whole_stats.rounds);
        CHECK(stats.distances == whole_stats.distances);
        REQUIRE_THROWS_WITH(b.take(), "knn: the graph is not built yet");
      }
    }
  }
}

TEST_CASE("UMAP's construction in slices gives the one-call map's bits", "[umap]") {
  const int64_t n = 500, D = 12;
  const std::vector<float> t = clustered(n, D, 4, 3.0f, 23);
  UmapOptions o;
  o.n_epochs = 40;
  o.seed = 5;
  const auto check_slicings = [&](const UmapOptions& opts) {
    UmapRun whole(t, n, D, opts);
    whole.run();
    for (const int64_t work : {int64_t{1}, int64_t{20000}, int64_t{1} << 21}) {
      UmapRun r = UmapRun::start(t, n, D, opts);
      CHECK_FALSE(r.prepared());
      CHECK(std::string(r.phase()) == "knn");
      CHECK(r.coordinates().empty());
      const testing::Sliced sliced = testing::prepare_in_slices(r, work);
      if (work == 1) {
        CHECK(sliced.slices > n / 128);  // the kNN search's units (Exact: a round of tiles) and blocks of smooth rows
        CHECK(sliced.phases == std::vector<std::string>{"knn", "graph", "init"});
      }
      CHECK(std::string(r.phase()) == "layout");
      CHECK(r.info().edges == whole.info().edges);
      r.run();
      CHECK(same_bits(r.coordinates(), whole.coordinates()));
    }
  };
  SECTION("exact kNN, spectral init") { check_slicings(o); }
  SECTION("NN-descent, cosine, PCA init") {
    o.knn = KnnMethod::Descent, o.metric = Metric::Cosine, o.init = UmapInit::Pca;
    check_slicings(o);
  }
  SECTION("a graph of several components (multi_component_layout)") {
    const std::vector<float> far = clustered(n, D, 6, 40.0f, 3);
    UmapRun whole(far, n, D, o);
    REQUIRE(whole.info().components > 1);
    UmapRun r = UmapRun::start(far, n, D, o);
    while (!r.prepare(1, 3000)) {}
    CHECK(same_bits(r.coordinates(), whole.coordinates()));
  }
  SECTION("given coordinates are copied: the caller's buffer may go after start") {
    std::vector<float> given(static_cast<size_t>(2 * n));
    for (int64_t i = 0; i < 2 * n; ++i) given[i] = static_cast<float>(i % 17);
    o.init = UmapInit::Given, o.init_coords = given;
    UmapRun whole(t, n, D, o);
    whole.run();
    std::vector<float> copy = given;
    o.init_coords = copy;
    UmapRun r = UmapRun::start(t, n, D, o);
    std::fill(copy.begin(), copy.end(), 0.0f);
    r.run();  // step() finishes the construction first
    CHECK(same_bits(r.coordinates(), whole.coordinates()));
  }
  SECTION("a run stopped during construction can be dropped, and transform waits for the map") {
    UmapRun r = UmapRun::start(t, n, D, o);
    r.prepare(1, 1);
    REQUIRE_FALSE(r.prepared());
    REQUIRE_THROWS_WITH(r.transform(std::vector<float>(D), 1),
                        "umap transform: the map is not constructed yet (phase knn); prepare() or step() it first");
  }
  SECTION("start refuses bad options and tables at once, as the constructor") {
    o.n_neighbors = 1;
    REQUIRE_THROWS_WITH(UmapRun::start(t, n, D, o), "umap: n_neighbors 1 out of range [2, 499] (n - 1 for 500 rows)");
    std::vector<float> bad = t;
    bad[5] = std::numeric_limits<float>::quiet_NaN();
    REQUIRE_THROWS_WITH(UmapRun::start(bad, n, D), "umap: table value nan at row 0, column 5 is not finite");
    testing::WasmLimits small(1 << 16, 1 << 16);
    REQUIRE_THROWS_WITH(UmapRun::start(t, n, D), Catch::Matchers::StartsWith("umap: ") &&
                                                     Catch::Matchers::Contains("the limit here is 64.0 KiB"));
  }
}

TEST_CASE("UMAP maps rows with exact duplicates", "[umap]") {
  // Rows 0-4 are one vector: each has 4 neighbours at distance 0, so with n_neighbors 15
  // (log2 15 = 3.9) smooth_knn_dist's sum never falls to its target, the bandwidth halves 64
  // times and exp(-(d / sigma)) gets arguments near -1e19 (detmath::exp's int cast overflowed).
  const int64_t n = 80, D = 6;
  std::vector<float> t = clustered(n, D, 2, 3.0f, 31);
  for (int64_t i = 1; i < 5; ++i) std::copy_n(t.begin(), D, t.begin() + i * D);
  UmapOptions o;
  o.n_epochs = 50;
  o.seed = 2;
  UmapRun run(t, n, D, o);
  run.run();
  for (const float v : run.coordinates()) REQUIRE(std::isfinite(v));
  // the duplicates end up together: each within the map's typical neighbour distance of row 0
  const auto xy = run.coordinates();
  for (int64_t i = 1; i < 5; ++i) CHECK(std::hypot(xy[2 * i] - xy[0], xy[2 * i + 1] - xy[1]) < 1.0f);
}

TEST_CASE("detmath::exp saturates outside the range of double", "[umap][detmath]") {
  CHECK(detmath::exp(0.0) == 1.0);
  CHECK(detmath::exp(-1e19) == 0.0);
  CHECK(detmath::exp(-746.0) == 0.0);
  CHECK(detmath::exp(-745.0) > 0.0);  // the smallest subnormal, 4.9e-324
  CHECK(detmath::exp(709.0) == Approx(8.218407461554972e307).epsilon(1e-15));
  CHECK(std::isinf(detmath::exp(710.0)));
  CHECK(std::isinf(detmath::exp(1e19)));
  CHECK(std::isnan(detmath::exp(std::numeric_limits<double>::quiet_NaN())));
  CHECK(detmath::exp(-std::numeric_limits<double>::infinity()) == 0.0);
}

namespace {
// `pairs` pairs of rows 100 apart along a line, the two rows of a pair 1 apart: with
// n_neighbors 2 each row's one neighbour is its partner, so the graph has `pairs` components.
std::vector<float> far_pairs(int64_t pairs) {
  std::vector<float> t;
  for (int64_t p = 0; p < pairs; ++p) {
    const float x = 100.0f * static_cast<float>(p), y = static_cast<float>(p % 7);
    t.insert(t.end(), {x, y, x + 1.0f, y});
  }
  return t;
}
}  // namespace

TEST_CASE("UMAP's init of a graph of many components is planned and sliced", "[umap]") {
  UmapOptions o;
  o.n_neighbors = 2;
  o.n_epochs = 10;
  o.seed = 3;
  SECTION("the components' affinity matrix (C x C) is planned: 200 components need 312.5 KiB for it") {
    const std::vector<float> t = far_pairs(200);
    testing::WasmLimits small(256 << 10, 256 << 10);
    REQUIRE_THROWS_WITH(UmapRun(t, 400, 2, o),
                        "umap: component affinities 200 x 200 float64 need 312.5 KiB; the limit here is 256.0 KiB");
  }
  SECTION("above 256 components their places come from the centroids' principal components, no C x C matrix") {
    const std::vector<float> t = far_pairs(300);
    testing::WasmLimits small(256 << 10, 256 << 10);  // 300 x 300 doubles (703 KiB) would not fit
    UmapRun whole(t, 600, 2, o);
    REQUIRE(whole.info().components == 300);
    CHECK(whole.info().init == UmapInit::Spectral);
    CHECK(whole.info().init_note == "300 components: placed by the principal components of their centroids (above 256, "
                                    "their spectral embedding would be a 300 x 300 eigenproblem)");
    // the places follow the line of the pairs: pair order is kept along one axis
    const auto xy = whole.coordinates();
    int64_t ordered = 0;
    for (int64_t p = 1; p < 300; ++p) ordered += (xy[4 * p] > xy[4 * (p - 1)]) == (xy[4] > xy[0]);
    CHECK(ordered >= 290);
  }
  SECTION("components too far apart for a spectral placement each get a place of their own") {
    // 40 pairs 100 apart: every affinity exp(-d^2) between centroids is 0
    const std::vector<float> t = far_pairs(40);
    o.n_epochs = 0;
    UmapRun run(t, 80, 2, o);
    REQUIRE(run.info().components == 40);
    CHECK(run.info().init_note == "40 components: placed by the principal components of their centroids (the spectral "
                                  "embedding of their affinities exp(-d^2) has fewer than 2 dimensions: they are too far apart)");
    // the places follow the line of the pairs: each pair's rows lie beyond the previous pair's
    const auto xy = run.coordinates();
    int64_t ordered = 0;
    for (int64_t p = 1; p < 40; ++p) {
      const float lo = std::min(xy[4 * p], xy[4 * p + 2]), hi = std::max(xy[4 * p - 4], xy[4 * p - 2]);
      const float lo_prev = std::min(xy[4 * p - 4], xy[4 * p - 2]), hi_here = std::max(xy[4 * p], xy[4 * p + 2]);
      ordered += (xy[4] > xy[0]) ? lo >= hi : hi_here <= lo_prev;
    }
    CHECK(ordered == 39);
  }
  for (const int64_t pairs : {int64_t{40}, int64_t{300}}) {
    SECTION("the init of " + std::to_string(pairs) + " components runs in slices, with the one-call bits") {
      const std::vector<float> t = far_pairs(pairs);
      UmapRun whole(t, 2 * pairs, 2, o);
      whole.run();
      UmapRun r = UmapRun::start(t, 2 * pairs, 2, o);
      int64_t init_slices = 0;
      double last = 0;
      while (!r.prepare(1, 1)) {
        if (std::string(r.phase()) != "init") continue;
        ++init_slices;
        CHECK(r.progress() >= last);  // the share of the components laid out
        last = r.progress();
      }
      CHECK(init_slices >= pairs);  // the places, then one component a slice at this work
      r.run();
      CHECK(same_bits(r.coordinates(), whole.coordinates()));
    }
  }
}
