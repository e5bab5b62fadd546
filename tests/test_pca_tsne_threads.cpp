// PCA (analysis/pca.hpp) and t-SNE (maps/tsne/tsne.hpp) on the engine's thread pool (issue 25):
// every output has the same bytes at 1, 2, 3 and 4 threads. The pool runs real threads above the
// cores here (set_threads_oversubscribed), so a block whose result depended on which thread ran
// it, or on another block's progress, would show up even on a 2-core machine. Sizes are picked so
// every parallel loop has several blocks: PCA's TSQR (blocks of 512 rows from 1,024 rows), the
// column blocks (64 columns), the row blocks (256 rows); t-SNE's repulsive blocks (256 points),
// the calibration blocks (16 rows), Barnes-Hut above exact_max_rows.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "analysis/pca.hpp"
#include "core/parallel.hpp"
#include "core/rng.hpp"
#include "maps/tsne/tsne.hpp"
#include "maps/tsne/tsne_bench.hpp"

using namespace embedlab;

namespace {

// Restores the thread count a test changed.
struct KeepThreads {
  int saved = threads();
  ~KeepThreads() { set_threads(saved); }
};

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// A table with a few strong directions over noise and a mean far from 0 (rows, dim).
std::vector<float> planted_table(int64_t rows, int64_t dim, uint64_t seed) {
  std::vector<float> t(static_cast<size_t>(rows * dim)), dirs(static_cast<size_t>(4 * dim)), c(4);
  Generator g(seed);
  g.normal(t.data(), t.size());
  g.normal(dirs.data(), dirs.size());
  for (int64_t i = 0; i < rows; ++i) {
    g.normal(c.data(), c.size());
    for (int64_t a = 0; a < 4; ++a)
      for (int64_t d = 0; d < dim; ++d) t[i * dim + d] += 3.0f / static_cast<float>(a + 1) * c[a] * dirs[a * dim + d] + 2.0f;
  }
  return t;
}

void check_pca(const std::vector<float>& t, int64_t rows, int64_t dim, PcaSolver solver, const char* name) {
  PcaOptions o;
  o.k = 3;
  o.solver = solver;
  set_threads_oversubscribed(1);
  const PcaResult one = pca(t, rows, dim, o);
  REQUIRE(one.solver == solver);
  for (int n = 2; n <= 4; ++n) {
    set_threads_oversubscribed(n);
    const PcaResult r = pca(t, rows, dim, o);
    INFO(name << " at " << n << " threads");
    CHECK(same_bytes(r.points, one.points));
    CHECK(same_bytes(r.components, one.components));
    CHECK(same_bytes(r.explained, one.explained));
    CHECK(same_bytes(r.variance, one.variance));
    CHECK(same_bytes(r.mean, one.mean));
  }
}

}  // namespace

TEST_CASE("pca gives the same bytes at 1, 2, 3 and 4 threads", "[pca][threads]") {
  KeepThreads keep;
  SECTION("randomized (3,000 x 200: six TSQR blocks, four column blocks, twelve row blocks)") {
    check_pca(planted_table(3000, 200, 1), 3000, 200, PcaSolver::Randomized, "randomized");
  }
  SECTION("exact covariance (1,500 x 100) and block Krylov (700 x 300)") {
    check_pca(planted_table(1500, 100, 2), 1500, 100, PcaSolver::Exact, "exact");
    check_pca(planted_table(700, 300, 3), 700, 300, PcaSolver::Krylov, "krylov");
  }
  SECTION("the Gram path (300 x 400: fewer rows than columns)") {
    check_pca(planted_table(300, 400, 4), 300, 400, PcaSolver::Exact, "gram");
  }
  SECTION("a non-finite value is reported at the first row in order, whatever the thread count") {
    std::vector<float> t = planted_table(3000, 40, 5);
    t[2900 * 40 + 7] = 1.0f / 0.0f;
    t[1300 * 40 + 3] = -1.0f / 0.0f;
    for (int n = 1; n <= 4; ++n) {
      set_threads_oversubscribed(n);
      REQUIRE_THROWS_WITH(pca(t, 3000, 40), "pca: table value -inf at row 1300, column 3 is not finite");
    }
  }
}

TEST_CASE("t-SNE gives the same bytes at 1, 2, 3 and 4 threads", "[tsne][threads]") {
  KeepThreads keep;
  const auto run_at = [](const std::vector<float>& t, int64_t rows, int64_t dim, const TsneOptions& o, int n) {
    set_threads_oversubscribed(n);
    TsneRun run(t, rows, dim, o);
    run.step(o.iterations);
    return std::make_pair(run.coordinates(), run.kl());
  };
  const auto check = [&](const std::vector<float>& t, int64_t rows, int64_t dim, const TsneOptions& o) {
    const auto one = run_at(t, rows, dim, o, 1);
    for (int n = 2; n <= 4; ++n) {
      const auto r = run_at(t, rows, dim, o, n);
      INFO(n << " threads");
      CHECK(same_bytes(r.first, one.first));
      CHECK(std::memcmp(&r.second, &one.second, sizeof(double)) == 0);
    }
  };
  SECTION("Barnes-Hut (1,500 x 12, six repulsive blocks), euclidean, random init") {
    TsneOptions o;
    o.perplexity = 20, o.iterations = 60, o.seed = 3;
    check(tsne_bench_table(1500, 12, 5), 1500, 12, o);
  }
  SECTION("exact (600 x 8), cosine, PCA init") {
    TsneOptions o;
    o.perplexity = 15, o.iterations = 40, o.seed = 4, o.metric = Metric::Cosine, o.init = TsneInit::Pca;
    check(tsne_bench_table(600, 8, 4), 600, 8, o);
  }
  SECTION("the calibrated P and its betas") {
    const std::vector<float> t = tsne_bench_table(900, 10, 3);
    const TsneNeighbours nb = tsne_neighbours(t, 900, 10, 60, Metric::Euclidean);
    std::vector<double> betas_one, betas;
    set_threads_oversubscribed(1);
    const TsneAffinities one = tsne_conditional(nb, 20, &betas_one);
    for (int n = 2; n <= 4; ++n) {
      set_threads_oversubscribed(n);
      const TsneAffinities p = tsne_conditional(nb, 20, &betas);
      INFO(n << " threads");
      CHECK(same_bytes(p.values, one.values));
      CHECK(same_bytes(betas, betas_one));
    }
  }
}
