// maps/tsne/tsne.hpp: exact neighbours, perplexity calibration, symmetrised P, the exact and
// Barnes-Hut gradients (against each other and finite differences), KL, the stepped run
// (determinism, cluster separation, KL going down), the PCA layout and the errors.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "maps/tsne/tsne_bench.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "limits.hpp"
#include "slices.hpp"
#include "analysis/pca.hpp"
#include "maps/tsne/tsne.hpp"

using namespace embedlab;

namespace {

// n rows of dim columns from Generator(seed): N(0, 1) each.
std::vector<float> gaussian_table(int64_t n, int64_t dim, uint64_t seed) {
  std::vector<float> t(static_cast<size_t>(n * dim));
  Generator g(seed);
  g.normal(t.data(), t.size());
  return t;
}

// Three clusters in 10 dimensions: row i in cluster i % 3, centres 8 apart on three axes,
// N(0, 1) noise.
std::vector<float> three_clusters(int64_t n) {
  std::vector<float> t = gaussian_table(n, 10, 5);
  for (int64_t i = 0; i < n; ++i) t[i * 10 + (i % 3)] += 8.0f;
  return t;
}

std::vector<int32_t> labels_mod(int64_t n, int32_t m) {
  std::vector<int32_t> l(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) l[i] = static_cast<int32_t>(i % m);
  return l;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

double sq_dist(const std::vector<float>& t, int64_t D, int64_t i, int64_t j) {
  double s = 0;
  for (int64_t d = 0; d < D; ++d) s += (static_cast<double>(t[i * D + d]) - t[j * D + d]) * (t[i * D + d] - t[j * D + d]);
  return s;
}

TsneOptions options(double perplexity, int64_t iterations, uint64_t seed = 1) {
  TsneOptions o;
  o.perplexity = perplexity;
  o.iterations = iterations;
  o.seed = seed;
  return o;
}

}  // namespace

TEST_CASE("tsne neighbours are the exact nearest rows", "[tsne]") {
  const int64_t n = 300, D = 13;  // 13: a remainder in every SIMD width
  const std::vector<float> t = gaussian_table(n, D, 3);
  SECTION("euclidean: the k smallest squared distances, sorted, ties to the lower id") {
    const TsneNeighbours nb = tsne_neighbours(t, n, D, 7, Metric::Euclidean);
    REQUIRE(nb.ids.size() == static_cast<size_t>(n * 7));
    for (int64_t i = 0; i < n; ++i) {
      std::vector<std::pair<double, int32_t>> all;
      for (int64_t j = 0; j < n; ++j)
        if (j != i) all.push_back({sq_dist(t, D, i, j), static_cast<int32_t>(j)});
      std::sort(all.begin(), all.end());
      for (int64_t m = 0; m < 7; ++m) {
        CHECK(nb.ids[i * 7 + m] == all[m].second);
        CHECK(nb.distances[i * 7 + m] == Approx(all[m].first).epsilon(1e-4));
      }
    }
  }
  SECTION("cosine: 1 - cos of the rows as given") {
    const TsneNeighbours nb = tsne_neighbours(t, n, D, 5, Metric::Cosine);
    const auto cos_dist = [&](int64_t i, int64_t j) {
      double xy = 0, xx = 0, yy = 0;
      for (int64_t d = 0; d < D; ++d) xy += t[i * D + d] * t[j * D + d], xx += t[i * D + d] * t[i * D + d], yy += t[j * D + d] * t[j * D + d];
      return 1 - xy / std::sqrt(xx * yy);
    };
    for (int64_t i = 0; i < n; i += 17) {
      std::vector<std::pair<double, int32_t>> all;
      for (int64_t j = 0; j < n; ++j)
        if (j != i) all.push_back({cos_dist(i, j), static_cast<int32_t>(j)});
      std::sort(all.begin(), all.end());
      for (int64_t m = 0; m < 5; ++m) {
        CHECK(nb.ids[i * 5 + m] == all[m].second);
        CHECK(nb.distances[i * 5 + m] == Approx(all[m].first).margin(1e-5));
      }
    }
  }
}

TEST_CASE("tsne affinities: calibrated rows and a symmetric P", "[tsne]") {
  const int64_t n = 400, D = 20;
  const std::vector<float> t = gaussian_table(n, D, 4);
  const double perplexity = 25;
  const TsneNeighbours nb = tsne_neighbours(t, n, D, 75, Metric::Euclidean);
  std::vector<double> betas;
  const TsneAffinities c = tsne_conditional(nb, perplexity, &betas);

  SECTION("each conditional row sums to 1 and has the requested perplexity within a relative 1e-5") {
    for (int64_t i = 0; i < n; ++i) {
      double sum = 0;
      for (int64_t e = c.row_start[i]; e < c.row_start[i + 1]; ++e) sum += c.values[e];
      CHECK(sum == Approx(1.0).margin(1e-5));
      // the row again in double from its beta (libm here): the stored float32 values match it,
      // and its perplexity 2^H (H in bits) is the requested one
      const float* d = nb.distances.data() + i * nb.k;
      std::vector<double> p(static_cast<size_t>(nb.k));
      double z = 0;
      for (int64_t m = 0; m < nb.k; ++m) z += p[m] = std::exp(-betas[i] * (static_cast<double>(d[m]) - d[0]));
      double h = 0;
      for (int64_t m = 0; m < nb.k; ++m) {
        p[m] /= z;
        CHECK(c.values[i * nb.k + m] == Approx(p[m]).epsilon(1e-6).margin(1e-30));
        if (p[m] > 0) h -= p[m] * std::log2(p[m]);
      }
      CHECK(std::fabs(std::exp2(h) / perplexity - 1) <= 1e-5);
    }
  }
  SECTION("the symmetrised P is (P + P^T) / (2n), symmetric, and sums to 1") {
    const TsneAffinities s = tsne_symmetrise(c);
    double total = 0;
    for (const float v : s.values) total += v;
    CHECK(total == Approx(1.0).margin(1e-5));
    auto at = [](const TsneAffinities& m, int64_t i, int64_t j) {
      for (int64_t e = m.row_start[i]; e < m.row_start[i + 1]; ++e)
        if (m.cols[e] == j) return static_cast<double>(m.values[e]);
      return 0.0;
    };
    for (int64_t i = 0; i < n; i += 7) {
      for (int64_t e = s.row_start[i]; e < s.row_start[i + 1]; ++e) {
        const int64_t j = s.cols[e];
        if (e > s.row_start[i]) CHECK(s.cols[e - 1] < j);  // sorted by column
        CHECK(at(s, j, i) == s.values[e]);                 // symmetric, bit for bit
        CHECK(s.values[e] == Approx((at(c, i, j) + at(c, j, i)) / (2.0 * n)).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("tsne gradients: Barnes-Hut against exact, exact against finite differences", "[tsne]") {
  const int64_t n = 600, D = 10;
  const std::vector<float> t = three_clusters(n);
  TsneOptions o = options(20, 150);
  o.exact_max_rows = 0;  // the Barnes-Hut run, to get a map with structure
  TsneRun run(t, n, D, o);
  run.step(150);
  const std::vector<float> y = run.coordinates();
  const TsneAffinities& P = run.affinities();
  std::vector<float> exact(y.size()), bh(y.size());
  const double z_exact = tsne_gradient_exact(P, y, 1.0f, exact);
  double norm = 0, max_abs = 0;
  for (const float g : exact) norm += static_cast<double>(g) * g, max_abs = std::max(max_abs, static_cast<double>(std::fabs(g)));
  norm = std::sqrt(norm);

  SECTION("theta = 0 opens every cell: the exact gradient up to summation order") {
    const double z = tsne_gradient_bh(P, y, 0.0, 1.0f, bh);
    CHECK(z == Approx(z_exact).epsilon(1e-5));
    for (size_t i = 0; i < y.size(); ++i) CHECK(bh[i] == Approx(exact[i]).margin(1e-5 * max_abs));
  }
  SECTION("theta = 0.5 is within 5% (relative L2 error) and Z within 1%") {
    const double z = tsne_gradient_bh(P, y, 0.5, 1.0f, bh);
    double err = 0;
    for (size_t i = 0; i < y.size(); ++i) err += (static_cast<double>(bh[i]) - exact[i]) * (bh[i] - exact[i]);
    CHECK(std::sqrt(err) / norm < 0.05);  // measured 0.043 here: bhtsne's half-width criterion
    CHECK(z == Approx(z_exact).epsilon(0.01));
  }
  SECTION("the exact gradient is dKL/dy by central differences (a small map)") {
    const int64_t m = 30;
    TsneOptions s = options(5, 1);
    TsneRun small(std::span<const float>(t).first(static_cast<size_t>(m * D)), m, D, s);
    std::vector<float> ys(static_cast<size_t>(2 * m));
    Generator g(9);
    g.normal(ys.data(), ys.size());
    std::vector<float> grad(ys.size());
    tsne_gradient_exact(small.affinities(), ys, 1.0f, grad);
    double gmax = 0;
    for (const float v : grad) gmax = std::max(gmax, static_cast<double>(std::fabs(v)));
    const float h = 1.0f / 1024;
    for (size_t i = 0; i < ys.size(); i += 3) {
      std::vector<float> plus = ys, minus = ys;
      plus[i] += h, minus[i] -= h;
      const double fd = (tsne_kl(small.affinities(), plus, 0.0) - tsne_kl(small.affinities(), minus, 0.0)) /
                        (static_cast<double>(plus[i]) - minus[i]);
      CHECK(grad[i] == Approx(fd).margin(2e-3 * gmax));
    }
  }
}

TEST_CASE("tsne runs are deterministic and step-invariant", "[tsne]") {
  const int64_t n = 1100, D = 10;  // above the exact threshold: Barnes-Hut
  const std::vector<float> t = three_clusters(n);
  SECTION("the same seed gives the same bits, in one call or in steps") {
    TsneRun a(t, n, D, options(30, 300, 7)), b(t, n, D, options(30, 300, 7));
    REQUIRE_FALSE(a.exact());
    a.step(300);
    for (int s = 0; s < 6; ++s) b.step(50);
    CHECK(b.iteration() == 300);
    CHECK(same_bits(a.coordinates(), b.coordinates()));
    CHECK(a.kl() == b.kl());
    CHECK(b.step(10) == 300);  // the run is over
  }
  SECTION("another seed gives another map") {
    TsneRun a(t, n, D, options(30, 20, 7)), b(t, n, D, options(30, 20, 8));
    a.step(20), b.step(20);
    CHECK_FALSE(same_bits(a.coordinates(), b.coordinates()));
  }
  SECTION("the exact path (n <= 1000) is deterministic too") {
    const std::span<const float> part = std::span<const float>(t).first(300 * D);
    TsneRun a(part, 300, D, options(30, 100, 3)), b(part, 300, D, options(30, 100, 3));
    REQUIRE(a.exact());
    a.step(100), b.step(100);
    CHECK(same_bits(a.coordinates(), b.coordinates()));
  }
}

TEST_CASE("tsne separates three clusters and lowers KL", "[tsne]") {
  SECTION("Barnes-Hut (n = 1500): 10 map neighbours share the label >= 95%, KL goes down") {
    const int64_t n = 1500;
    const std::vector<float> t = three_clusters(n);
    TsneRun run(t, n, 10, options(30, 600, 2));
    REQUIRE_FALSE(run.exact());
    const double kl0 = run.kl();
    run.step(250);
    const double kl250 = run.kl();
    run.step(350);
    const double kl600 = run.kl();
    CHECK(kl250 < kl0);
    CHECK(kl600 < kl250);
    CHECK(map_label_agreement(run.coordinates(), labels_mod(n, 3), 10) >= 0.95);
  }
  SECTION("exact (n = 300), from the PCA layout") {
    const int64_t n = 300;
    const std::vector<float> t = three_clusters(n);
    TsneOptions o = options(20, 500, 2);
    o.init = TsneInit::Pca;
    TsneRun run(t, n, 10, o);
    REQUIRE(run.exact());
    const double kl0 = run.kl();
    run.step(500);
    CHECK(run.kl() < kl0);
    CHECK(map_label_agreement(run.coordinates(), labels_mod(n, 3), 10) >= 0.95);
  }
}

TEST_CASE("tsne initial layouts", "[tsne]") {
  const int64_t n = 200, D = 6;
  std::vector<float> t = gaussian_table(n, D, 6);
  for (int64_t i = 0; i < n; ++i) t[i * D + 1] *= 3, t[i * D + 4] *= 2;  // principal axes 1 then 4
  SECTION("pca: sklearn's layout, the top two components with column 0 at standard deviation 1e-4") {
    const std::vector<float> y = tsne_pca_init(t, n, D);
    PcaOptions po;
    const PcaResult r = pca(t, n, D, po);
    double m0 = 0, s0 = 0;
    for (int64_t i = 0; i < n; ++i) m0 += y[2 * i];
    m0 /= n;
    for (int64_t i = 0; i < n; ++i) s0 += (y[2 * i] - m0) * (y[2 * i] - m0);
    CHECK(std::sqrt(s0 / n) == Approx(1e-4).epsilon(1e-4));
    const double scale = y[0] / r.points[0];  // the same points up to one positive scale
    CHECK(scale > 0);
    for (int64_t i = 0; i < n; ++i) {
      CHECK(y[2 * i] == Approx(scale * r.points[2 * i]).margin(1e-4 * 1e-4));
      CHECK(y[2 * i + 1] == Approx(scale * r.points[2 * i + 1]).margin(1e-4 * 1e-4));
    }
  }
  SECTION("a given layout is the first frame; random is N(0, 1e-4^2)") {
    std::vector<float> given(static_cast<size_t>(2 * n));
    for (size_t i = 0; i < given.size(); ++i) given[i] = static_cast<float>(i) * 0.01f;
    TsneOptions o = options(10, 5);
    o.init = TsneInit::Given;
    o.initial = given;
    CHECK(same_bits(TsneRun(t, n, D, o).coordinates(), given));
    const std::vector<float> r = TsneRun(t, n, D, options(10, 5)).coordinates();
    double ss = 0;
    for (const float v : r) ss += static_cast<double>(v) * v;
    CHECK(std::sqrt(ss / r.size()) == Approx(1e-4).epsilon(0.1));
  }
}

TEST_CASE("tsne errors name the value and the limit", "[tsne]") {
  const int64_t n = 50, D = 4;
  const std::vector<float> t = gaussian_table(n, D, 1);
  auto run = [&](TsneOptions o) { TsneRun r(t, n, D, o); };
  SECTION("options") {
    REQUIRE_THROWS_WITH(run(options(30, 10)), "tsne: perplexity 30 must be below (n - 1) / 3 = 16.33 for 50 rows");
    REQUIRE_THROWS_WITH(run(options(0.5, 10)), "tsne: perplexity 0.5 must be a finite number >= 1");
    REQUIRE_THROWS_WITH(run(options(NAN, 10)), "tsne: perplexity nan must be a finite number >= 1");
    REQUIRE_THROWS_WITH(run(options(5, 0)), "tsne: iterations 0 out of range [1, 1000000000]");
    TsneOptions o = options(5, 10);
    o.theta = 1.5;
    REQUIRE_THROWS_WITH(run(o), "tsne: theta 1.5 must be in [0, 1]");
    o = options(5, 10);
    o.learning_rate = -1;
    REQUIRE_THROWS_WITH(run(o), "tsne: learning rate -1 must be a finite number > 0 (or auto)");
    o = options(5, 10);
    o.early_exaggeration = 0.5;
    REQUIRE_THROWS_WITH(run(o), "tsne: early exaggeration 0.5 must be a finite number >= 1");
    o = options(5, 10);
    o.init = TsneInit::Given;
    const std::vector<float> short_layout(10, 0.0f);
    o.initial = short_layout;
    REQUIRE_THROWS_WITH(run(o), "tsne: initial layout has 10 values, expected n x 2 = 50 x 2");
    REQUIRE_THROWS_WITH(parse_tsne_init("umap"), "tsne: unknown init 'umap', expected random or pca (or a given layout)");
  }
  SECTION("tables") {
    std::vector<float> bad = t;
    bad[4 * 3 + 2] = INFINITY;
    REQUIRE_THROWS_WITH(TsneRun(bad, n, D, options(5, 10)), "tsne: table value inf at row 3, column 2 is not finite");
    REQUIRE_THROWS_WITH(TsneRun(t, n, 5, options(5, 10)), "tsne: table has 200 values, expected 50 x 5");
    std::vector<float> zero = t;
    std::fill(zero.begin() + 8, zero.begin() + 12, 0.0f);
    TsneOptions o = options(5, 10);
    o.metric = Metric::Cosine;
    REQUIRE_THROWS_WITH(TsneRun(zero, n, D, o), "tsne: row 2 is all zeros, so its cosine distance is undefined");
    const std::vector<float> wide(static_cast<size_t>(kTsneMaxRows + 1), 0.0f);
    REQUIRE_THROWS_WITH(TsneRun(wide, kTsneMaxRows + 1, 1, options(5, 10)),
                        "tsne: table has 100001 rows; at most 100000 (the neighbours are exact, O(n^2 D))");
    REQUIRE_THROWS_WITH(tsne_pca_init(std::span<const float>(t).first(n), n, 1),
                        "tsne: init 'pca' needs at least 2 columns, the table has 1");
  }
  SECTION("sizes are planned: an over-limit table is refused before allocating") {
    const std::vector<float> big = gaussian_table(3000, 100, 2);
    testing::WasmLimits small(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(TsneRun(big, 3000, 100, options(30, 10)), Catch::Contains("the limit here is 1.0 MiB"));
  }
  SECTION("a learning rate that blows the map up stops with the iteration") {
    TsneOptions o = options(5, 50);
    o.learning_rate = 1e38;
    TsneRun r(t, n, D, o);
    REQUIRE_THROWS_WITH(r.step(50), Catch::StartsWith("tsne: the map became") && Catch::Contains("with learning rate 1e+38; lower the learning rate"));
  }
}

TEST_CASE("tsne's construction in slices gives the one-call map's bits", "[tsne]") {
  const int64_t n = 1100, D = 10;  // above the exact threshold: Barnes-Hut, K = 3 perplexity
  const std::vector<float> t = three_clusters(n);
  const auto check_slicings = [&](std::span<const float> table, int64_t rows, const TsneOptions& o) {
    TsneRun whole(table, rows, D, o);
    whole.step(o.iterations);
    for (const int64_t work : {int64_t{1}, int64_t{200000}, kTsneSliceWork}) {
      TsneRun r = TsneRun::start(table, rows, D, o);
      CHECK_FALSE(r.prepared());
      CHECK(r.coordinates().empty());
      const testing::Sliced sliced = testing::prepare_in_slices(r, work);
      if (work == 1) {
        CHECK(sliced.slices > 10);  // product blocks, sorted blocks and calibrated blocks one by one
        CHECK(sliced.phases == std::vector<std::string>{"neighbours", "affinities", "init"});
      }
      CHECK(std::string(r.phase()) == "iteration");
      CHECK(r.affinities().cols == whole.affinities().cols);
      CHECK(same_bits(r.affinities().values, whole.affinities().values));
      r.step(o.iterations);
      CHECK(same_bits(r.coordinates(), whole.coordinates()));
      CHECK(r.kl() == whole.kl());
    }
  };
  SECTION("Barnes-Hut, euclidean, random init") { check_slicings(t, n, options(20, 30, 4)); }
  SECTION("exact, cosine, PCA init") {
    TsneOptions o = options(10, 30, 4);
    o.metric = Metric::Cosine;
    o.init = TsneInit::Pca;
    check_slicings(std::span<const float>(t).first(300 * D), 300, o);
  }
  SECTION("the table and a given layout are copied: the caller's buffers may go after start") {
    std::vector<float> given(static_cast<size_t>(2 * n), 0.0f), table = t;
    for (size_t i = 0; i < given.size(); ++i) given[i] = static_cast<float>(i % 11) * 1e-3f;
    TsneOptions o = options(20, 10, 4);
    o.init = TsneInit::Given, o.initial = given;
    TsneRun whole(t, n, D, o);
    whole.step(10);
    std::vector<float> layout = given;
    o.initial = layout;
    TsneRun r = TsneRun::start(table, n, D, o);
    std::fill(table.begin(), table.end(), 0.0f), std::fill(layout.begin(), layout.end(), 0.0f);
    r.step(10);  // step() finishes the construction first
    CHECK(same_bits(r.coordinates(), whole.coordinates()));
  }
  SECTION("start checks the table and the options at once; kl waits for the map") {
    std::vector<float> zero = t;
    std::fill(zero.begin() + 20, zero.begin() + 30, 0.0f);
    TsneOptions o = options(20, 10);
    o.metric = Metric::Cosine;
    REQUIRE_THROWS_WITH(TsneRun::start(zero, n, D, o), "tsne: row 2 is all zeros, so its cosine distance is undefined");
    REQUIRE_THROWS_WITH(TsneRun::start(t, n, D, options(400, 10)),
                        "tsne: perplexity 400 must be below (n - 1) / 3 = 366.33 for 1100 rows");
    TsneRun r = TsneRun::start(t, n, D, options(20, 10));
    r.prepare(1, 1);
    REQUIRE_THROWS_WITH(r.kl(), "tsne kl: the map is not constructed yet (phase neighbours); prepare() it first");
  }
}
