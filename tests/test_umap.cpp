// maps/umap/umap.hpp and maps/knn.hpp: the a/b curve against scipy, smooth kNN distances
// against their definition, the kNN graphs (exact against a plain loop, NN-descent's recall),
// the SIMD repulsion against its scalar twin, determinism, cluster separation, transform, and
// errors. Construction in slices, duplicates and many components: test_umap_slices.cpp.
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

namespace {

// The share of each point's k nearest map points (2-D euclidean) with its label.
double label_share(std::span<const float> xy, const std::vector<int32_t>& labels, int k) {
  const size_t n = labels.size();
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::pair<float, size_t>> d;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const float dx = xy[2 * i] - xy[2 * j], dy = xy[2 * i + 1] - xy[2 * j + 1];
      d.push_back({dx * dx + dy * dy, j});
    }
    std::partial_sort(d.begin(), d.begin() + k, d.end());
    int same = 0;
    for (int a = 0; a < k; ++a) same += labels[d[a].second] == labels[i];
    total += static_cast<double>(same) / k;
  }
  return total / static_cast<double>(n);
}

}  // namespace

TEST_CASE("find_ab_params fits umap-learn's curve", "[umap]") {
  // Expected values: scipy 1.10's curve_fit on umap-learn's find_ab_params target (computed
  // here with /usr/bin/python3: xv = linspace(0, 3 spread, 300), yv = 1 below min_dist, else
  // exp(-(xv - min_dist) / spread)).
  SECTION("min_dist 0.1, spread 1 gives a = 1.577, b = 0.895") {
    const AbParams p = find_ab_params(1.0, 0.1);
    CHECK(p.a == Approx(1.5769434601962196).epsilon(1e-5));
    CHECK(p.b == Approx(0.8950608779914887).epsilon(1e-5));
  }
  SECTION("min_dist 0, spread 1 gives a = 1.933, b = 0.7905") {
    const AbParams p = find_ab_params(1.0, 0.0);
    CHECK(p.a == Approx(1.9328083975546724).epsilon(1e-5));
    CHECK(p.b == Approx(0.7904949734010681).epsilon(1e-5));
  }
  SECTION("min_dist 0.5, spread 1 gives a = 0.5830, b = 1.334") {
    const AbParams p = find_ab_params(1.0, 0.5);
    CHECK(p.a == Approx(0.583030020479462).epsilon(1e-5));
    CHECK(p.b == Approx(1.3341669929263487).epsilon(1e-5));
  }
  SECTION("min_dist 0.5, spread 2 gives a = 0.2589, b = 1.0575") {
    const AbParams p = find_ab_params(2.0, 0.5);
    CHECK(p.a == Approx(0.25887874119038884).epsilon(1e-5));
    CHECK(p.b == Approx(1.057499699581397).epsilon(1e-5));
  }
  SECTION("min_dist beyond spread is refused") {
    REQUIRE_THROWS_WITH(find_ab_params(1.0, 1.5), "umap: min_dist 1.5 out of range [0, 1] (at most spread)");
    REQUIRE_THROWS_WITH(find_ab_params(0.0, 0.0), "umap: spread 0 must be a finite number > 0");
  }
}

TEST_CASE("smooth_knn_dist solves the binary-search definition", "[umap]") {
  SECTION("a worked example: distances 0, 1, 2 with k = 3") {
    // rho = 1 (nearest non-zero); 1 + exp(-(2 - 1) / sigma) = log2(3) -> sigma = -1 / ln(log2(3) - 1)
    const std::vector<float> d{0, 1, 2};
    const SmoothKnn s = smooth_knn_dist(d, 1, 3);
    CHECK(s.rho[0] == 1.0);
    CHECK(s.sigma[0] == Approx(-1.0 / std::log(std::log2(3.0) - 1.0)).epsilon(1e-4));
  }
  SECTION("every row's memberships sum to log2(k)") {
    const int64_t n = 200, k = 15;
    std::vector<float> d(static_cast<size_t>(n * k));
    Generator g(3);
    for (int64_t i = 0; i < n; ++i) {
      float acc = 0;
      d[i * k] = 0;  // the row itself
      for (int64_t j = 1; j < k; ++j) d[i * k + j] = acc += 0.05f + g.uniform_float();
    }
    const SmoothKnn s = smooth_knn_dist(d, n, k);
    for (int64_t i = 0; i < n; ++i) {
      CHECK(s.rho[i] == d[i * k + 1]);
      double sum = 0;
      for (int64_t j = 1; j < k; ++j) sum += std::exp(-std::max(0.0, d[i * k + j] - s.rho[i]) / s.sigma[i]);
      CHECK(sum == Approx(std::log2(static_cast<double>(k))).margin(1e-4));
    }
  }
}

TEST_CASE("kNN graphs: exact against a plain loop, NN-descent's recall", "[umap][knn]") {
  const int64_t n = 1500, D = 37;  // 37 leaves a SIMD remainder
  const std::vector<float> t = clustered(n, D, 6, 1.5f, 11);
  for (const Metric metric : {Metric::Euclidean, Metric::Cosine}) {
    const KnnRows x(t, n, D, metric, "test");
    const KnnGraph exact = knn_graph(x, 10, KnnMethod::Exact, 0);
    SECTION(std::string("exact neighbours are the plain loop's, ") + metric_name(metric)) {
      for (int64_t i = 0; i < n; i += 97) {
        std::vector<std::pair<double, int32_t>> d;
        for (int64_t j = 0; j < n; ++j) {
          if (j == i) continue;
          double dot = 0, ni = 0, nj = 0, sq = 0;
          for (int64_t c = 0; c < D; ++c) {
            const double a = t[i * D + c], b = t[j * D + c];
            dot += a * b, ni += a * a, nj += b * b, sq += (a - b) * (a - b);
          }
          d.push_back({metric == Metric::Cosine ? 1 - dot / std::sqrt(ni * nj) : std::sqrt(sq), static_cast<int32_t>(j)});
        }
        std::sort(d.begin(), d.end());
        for (int a = 0; a < 10; ++a) {
          CHECK(exact.ids[i * 10 + a] == d[a].second);
          CHECK(exact.dists[i * 10 + a] == Approx(d[a].first).margin(1e-4));
        }
      }
    }
    SECTION(std::string("NN-descent finds >= 90% of the exact neighbours, ") + metric_name(metric)) {
      KnnStats stats;
      const KnnGraph approx = knn_graph(x, 10, KnnMethod::Descent, 1, &stats);
      CHECK(stats.method == KnnMethod::Descent);
      CHECK(stats.distances < n * (n - 1) / 2);  // cheaper than all pairs
      CHECK(knn_recall(approx, exact) >= 0.9);
      for (int64_t i = 0; i < n; ++i)
        for (int a = 0; a + 1 < 10; ++a) CHECK(approx.dists[i * 10 + a] <= approx.dists[i * 10 + a + 1]);
    }
  }
  SECTION("k out of range is refused") {
    const KnnRows x(t, n, D, Metric::Euclidean, "test");
    REQUIRE_THROWS_WITH(knn_graph(x, 1500, KnnMethod::Auto, 0), "knn: k 1500 out of range [1, 1499] (n - 1 for 1500 rows)");
  }
}

TEST_CASE("the SIMD forces equal their scalar twin bit for bit", "[umap]") {
  using umap_detail::kLanes;
  Generator g(5);
  for (int rep = 0; rep < 2000; ++rep) {
    float x[kLanes], ox[kLanes], oy[kLanes], gx[kLanes], gy[kLanes], sx[kLanes], sy[kLanes];
    for (int c = 0; c < kLanes; ++c) {
      ox[c] = (g.uniform_float() - 0.5f) * 40.0f * g.uniform_float();
      oy[c] = (g.uniform_float() - 0.5f) * 40.0f * g.uniform_float();
      x[c] = ox[c] * ox[c] + oy[c] * oy[c];
    }
    x[rep % kLanes] = rep % 3 == 0 ? 1e-30f : x[rep % kLanes];  // below FLT_MIN: clamped in all
    if (rep % 5 == 0) x[(rep / 5) % kLanes] = 0.0f, ox[(rep / 5) % kLanes] = oy[(rep / 5) % kLanes] = 0.0f;  // distance 0
    // negative samples (repel) or the edges' own tails (attract) on alternate reps
    const umap_detail::ForceConsts k{0.895f, 1.577f, 2.0f * 0.895f, 0.75f, 2.0f * 1.577f * 0.895f, rep % 2 == 1};
    const int lanes = rep % 4 == 3 ? 1 + rep % kLanes : kLanes;  // part-full batches too
    const auto same = [&](const float* p, const float* q) { return same_bits({p, size_t(lanes)}, {q, size_t(lanes)}); };
    umap_detail::forces(x, ox, oy, k, gx, gy, lanes);
    umap_detail::forces_scalar(x, ox, oy, k, sx, sy, lanes);
    REQUIRE(same(gx, sx));
    REQUIRE(same(gy, sy));
    if (umap_detail::have_forces_avx2()) {  // two 8-lane AVX2 passes
      float ax[kLanes], ay[kLanes];
      umap_detail::forces_avx2(x, ox, oy, k, ax, ay, lanes);
      REQUIRE(same(ax, sx));
      REQUIRE(same(ay, sy));
    }
    if (umap_detail::have_forces_avx512()) {  // one 16-lane AVX-512 pass
      float ax[kLanes], ay[kLanes];
      umap_detail::forces_avx512(x, ox, oy, k, ax, ay, lanes);
      REQUIRE(same(ax, sx));
      REQUIRE(same(ay, sy));
    }
    for (int c = 0; c < lanes; ++c) {
      if (k.attract && x[c] > 0) REQUIRE(gx[c] * ox[c] <= 0.0f);  // towards the tail
      if (!k.attract) REQUIRE(gx[c] * ox[c] >= 0.0f);              // away from the sample
      if (k.attract && x[c] == 0) REQUIRE((gx[c] == 0 && gy[c] == 0));
    }
  }
  SECTION("pow_float is within 1e-5 of pow") {
    for (const float b : {0.5f, 0.79f, 0.895f, 1.334f}) {
      for (double lx = -20; lx < 20; lx += 0.01) {
        const float x = static_cast<float>(std::exp(lx));
        CHECK(umap_detail::pow_float(x, b) == Approx(std::pow(static_cast<double>(x), b)).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("UMAP is deterministic for a seed", "[umap]") {
  const int64_t n = 400, D = 16;
  const std::vector<float> t = clustered(n, D, 4, 3.0f, 7);
  UmapOptions o;
  o.n_epochs = 60;
  o.seed = 9;
  SECTION("two runs give the same bits") {
    CHECK(same_bits(umap(t, n, D, o), umap(t, n, D, o)));
  }
  SECTION("stepping 1 epoch at a time gives the same bits as one run") {
    UmapRun a(t, n, D, o), b(t, n, D, o);
    a.run();
    while (!b.done()) b.step(1);
    CHECK(b.epoch() == 60);
    CHECK(same_bits(a.coordinates(), b.coordinates()));
  }
  SECTION("another seed gives another map") {
    UmapOptions p = o;
    p.seed = 10;
    CHECK_FALSE(same_bits(umap(t, n, D, o), umap(t, n, D, p)));
  }
  SECTION("the 4-lane layout kernel (SSE2, as wasm's) gives the AVX2 / AVX-512 bits") {
    // the widest kernel this CPU has, then the 4-lane one the wasm build also runs (the dense
    // kernels' AVX2 switch turns the AVX2 and AVX-512 layout kernels off too)
    const std::string widest = umap_layout_isa();
    const std::vector<float> wide = umap(t, n, D, o);
    dense::detail::set_avx2_enabled(false);
    const std::string narrow = umap_layout_isa();
    const std::vector<float> four = umap(t, n, D, o);
    dense::detail::set_avx2_enabled(true);
    INFO(widest << " vs " << narrow);
    CHECK(same_bits(wide, four));
  }
  SECTION("NN-descent, cosine and PCA init are deterministic too") {
    o.knn = KnnMethod::Descent;
    o.metric = Metric::Cosine;
    o.init = UmapInit::Pca;
    CHECK(same_bits(umap(t, n, D, o), umap(t, n, D, o)));
  }
}

TEST_CASE("UMAP separates three clusters", "[umap]") {
  const int64_t n = 600, D = 20;
  std::vector<int32_t> labels;
  const std::vector<float> t = clustered(n, D, 3, 2.0f, 21, &labels);
  for (const UmapInit init : {UmapInit::Spectral, UmapInit::Pca}) {
    SECTION(std::string("every point's 10 map neighbours share its label, init ") + umap_init_name(init)) {
      UmapOptions o;
      o.init = init;
      o.seed = 1;
      UmapRun run(t, n, D, o);
      run.run();
      CHECK(run.info().n_epochs == 500);
      CHECK(run.info().a == Approx(1.577).epsilon(1e-3));
      CHECK(label_share(run.coordinates(), labels, 10) >= 0.95);
    }
  }
  SECTION("a connected graph gets the spectral init, scaled to [0, 10]") {
    const std::vector<float> one = clustered(n, D, 1, 0.0f, 22);  // one Gaussian blob
    UmapOptions o;
    o.n_epochs = 0;
    UmapRun run(one, n, D, o);
    CHECK(run.info().components == 1);
    CHECK(run.info().init == UmapInit::Spectral);
    CHECK(run.info().init_note.empty());
    float lo = 1e9f, hi = -1e9f;
    for (float v : run.coordinates()) lo = std::min(lo, v), hi = std::max(hi, v);
    CHECK(lo == 0.0f);
    CHECK(hi == 10.0f);
  }
  SECTION("a graph of several components gets umap-learn's multi-component spectral init") {
    UmapOptions o;
    o.n_epochs = 0;
    o.seed = 1;
    UmapRun run(t, n, D, o);
    REQUIRE(run.info().components == 3);
    CHECK(run.info().init == UmapInit::Spectral);
    CHECK(run.info().init_note.empty());
    // each component starts in its own region (umap-learn's regions may touch at their corners)
    CHECK(label_share(run.coordinates(), labels, 10) >= 0.98);
  }
  SECTION("a given init is used, mapped to [0, 10] per axis") {
    std::vector<float> init(static_cast<size_t>(2 * n));
    for (int64_t i = 0; i < n; ++i) init[2 * i] = static_cast<float>(i), init[2 * i + 1] = static_cast<float>(2 * i);
    UmapOptions o;
    o.init = UmapInit::Given;
    o.init_coords = init;
    o.n_epochs = 0;
    UmapRun run(t, n, D, o);
    CHECK(run.coordinates()[2 * 599] == 10.0f);
    CHECK(run.coordinates()[2 * 300 + 1] == Approx(10.0 * 600 / 1198).epsilon(1e-6));
  }
}

TEST_CASE("transform places new rows near their cluster", "[umap]") {
  const int64_t n = 600, D = 20;
  std::vector<int32_t> labels;
  const std::vector<float> all = clustered(n + 60, D, 3, 2.0f, 31, &labels);  // the last 60 rows are new
  const std::vector<float> fit(all.begin(), all.begin() + n * D), fresh(all.begin() + n * D, all.end());
  UmapOptions o;
  o.seed = 2;
  UmapRun run(fit, n, D, o);
  run.run();
  const std::span<const float> xy = run.coordinates();
  double cx[3] = {0, 0, 0}, cy[3] = {0, 0, 0}, count[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; ++i) cx[labels[i]] += xy[2 * i], cy[labels[i]] += xy[2 * i + 1], ++count[labels[i]];
  const std::vector<float> p = run.transform(fresh, 60);
  REQUIRE(p.size() == 120);
  int right = 0;
  for (int64_t i = 0; i < 60; ++i) {
    int best = 0;
    double bd = 1e300;
    for (int c = 0; c < 3; ++c) {
      const double dx = p[2 * i] - cx[c] / count[c], dy = p[2 * i + 1] - cy[c] / count[c];
      if (dx * dx + dy * dy < bd) bd = dx * dx + dy * dy, best = c;
    }
    right += best == labels[n + i];
  }
  CHECK(right == 60);
  SECTION("the fitted map does not move") {
    std::vector<float> before(xy.begin(), xy.end());
    run.transform(fresh, 60);
    CHECK(same_bits(before, run.coordinates()));
  }
  SECTION("new rows of another width are refused") {
    REQUIRE_THROWS_WITH(run.transform(std::vector<float>(19), 1), "transform: new rows have 19 values, expected 1 x 20");
  }
}

TEST_CASE("UMAP refuses bad options with the value and the limit", "[umap]") {
  const int64_t n = 100, D = 4;
  std::vector<float> t = clustered(n, D, 2, 3.0f, 1);
  const auto with = [&](auto&& set) {
    UmapOptions o;
    set(o);
    return UmapRun(t, n, D, o);
  };
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.n_neighbors = 1; }), "umap: n_neighbors 1 out of range [2, 99] (n - 1 for 100 rows)");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.n_neighbors = 100; }), "umap: n_neighbors 100 out of range [2, 99] (n - 1 for 100 rows)");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.min_dist = 2; }), "umap: min_dist 2 out of range [0, 1] (at most spread)");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.min_dist = -0.5; }), "umap: min_dist -0.5 out of range [0, 1] (at most spread)");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.spread = 0; }), "umap: spread 0 must be a finite number > 0");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.n_epochs = -2; }), "umap: n_epochs -2 out of range [0, 100000] (or -1 for the default)");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.learning_rate = std::nan(""); }), "umap: learning_rate nan must be a finite number > 0");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.negative_sample_rate = -1; }), "umap: negative_sample_rate -1 out of range [0, 1000]");
  REQUIRE_THROWS_WITH(with([](UmapOptions& o) { o.set_op_mix_ratio = 1.5; }), "umap: set_op_mix_ratio 1.5 out of range [0, 1]");
  std::vector<float> few(5);
  REQUIRE_THROWS_WITH(with([&](UmapOptions& o) { o.init = UmapInit::Given, o.init_coords = few; }),
                      "umap: init coordinates have 5 values, expected n x 2 = 100 x 2");
  REQUIRE_THROWS_WITH(parse_umap_init("random"), "umap: unknown init 'random', expected spectral or pca (or initial coordinates)");
  REQUIRE_THROWS_WITH(UmapRun(t, n, D + 1), "umap: table has 400 values, expected 100 x 5");
  REQUIRE_THROWS_WITH(UmapRun(std::vector<float>(8), 2, 4), "umap: needs at least 3 rows, got 2");
  t[7] = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(UmapRun(t, n, D), "umap: table value inf at row 1, column 3 is not finite");
}

TEST_CASE("UMAP plans its memory before allocating", "[umap]") {
  const int64_t n = 2000, D = 64;
  const std::vector<float> t = clustered(n, D, 2, 3.0f, 1);
  SECTION("a limit too small for the working buffers gives the planner's message") {
    testing::WasmLimits small(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(UmapRun(t, n, D),
                        "umap: fuzzy graph and layout schedule 2000 x 28 x 40 bytes need 2.1 MiB; the limit here is 1.0 MiB");
  }
  SECTION("n_neighbors near n on a big table is refused, not allocated") {
    testing::WasmLimits wasm;
    const std::vector<float> tall(30000, 0.5f);  // 30000 rows of 1 column
    UmapOptions o;
    o.n_neighbors = 29999;
    REQUIRE_THROWS_WITH(UmapRun(tall, 30000, 1, o), Catch::Matchers::StartsWith("umap: ") &&
                                                        Catch::Matchers::Contains("the limit here is"));
  }
}
