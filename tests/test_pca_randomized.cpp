// analysis/pca.hpp: PCA's randomized solver on tall tables, against the exact solver and
// against numpy's SVD (tests/reference/). The other solvers and edge cases: test_pca.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/pca.hpp"
#include "reference.hpp"

using namespace embedlab;

TEST_CASE("PCA's randomized solver finds the top components of a tall table", "[project][pca]") {
  // 6000 x 120: a rank-4 signal with variances 100, 50, 20, 10 along random orthonormal
  // directions, plus unit noise; the randomized solver against the exact one.
  const int64_t n = 6000, D = 120, r = 4;
  Generator g(5);
  std::vector<float> dirs(static_cast<size_t>(r * D)), coef(static_cast<size_t>(n * r)), table(static_cast<size_t>(n * D));
  g.normal(dirs.data(), dirs.size());
  for (int64_t a = 0; a < r; ++a) {  // Gram-Schmidt
    float* u = dirs.data() + a * D;
    for (int64_t b = 0; b < a; ++b) {
      const float* v = dirs.data() + b * D;
      double dot = 0;
      for (int64_t d = 0; d < D; ++d) dot += u[d] * v[d];
      for (int64_t d = 0; d < D; ++d) u[d] -= static_cast<float>(dot) * v[d];
    }
    double norm = 0;
    for (int64_t d = 0; d < D; ++d) norm += u[d] * u[d];
    for (int64_t d = 0; d < D; ++d) u[d] /= static_cast<float>(std::sqrt(norm));
  }
  g.normal(coef.data(), coef.size());
  g.normal(table.data(), table.size());
  const double scale[r] = {10, std::sqrt(50.0), std::sqrt(20.0), std::sqrt(10.0)};
  for (int64_t i = 0; i < n; ++i)
    for (int64_t a = 0; a < r; ++a)
      for (int64_t d = 0; d < D; ++d) table[i * D + d] += static_cast<float>(scale[a] * coef[i * r + a]) * dirs[a * D + d];
  PcaOptions o;
  o.k = 3;
  o.solver = PcaSolver::Exact;
  const PcaResult exact = pca(table, n, D, o);
  o.solver = PcaSolver::Randomized;
  const PcaResult fast = pca(table, n, D, o);
  CHECK(std::string(pca_solver_name(fast.solver)) == "randomized");
  for (int64_t c = 0; c < 3; ++c) {
    double dot = 0;
    for (int64_t d = 0; d < D; ++d) dot += exact.components[c * D + d] * fast.components[c * D + d];
    INFO("component " << c);
    CHECK(dot > 0.9999);  // same direction and sign (both follow the sign rule)
    CHECK(fast.explained[c] == Approx(exact.explained[c]).epsilon(1e-3));
  }
  for (int64_t i = 0; i < n * 3; i += 997) CHECK(fast.points[i] == Approx(exact.points[i]).margin(0.05));
}

TEST_CASE("PCA's randomized solver matches numpy's SVD on a table with a large mean and a slow spectrum",
          "[project][pca][reference]") {
  // tests/reference/pca_randomized_hard.json (scripts/gen-pca-reference.py): 2000 x 64 rows
  // offset + (G diag(1/sqrt(j+1)) H) / 8, offset 1e4, H the Sylvester-Hadamard matrix, G uniform
  // [-1, 1) from an LCG; rebuilt here bit for bit from the recipe and compared with numpy's SVD.
  // Tolerances: explained variance (ratio) within a relative 1e-4, each component within
  // |cos| >= 1 - 1e-6 of numpy's up to sign (the exact solver: 1e-9 and 1 - 1e-8, the float32
  // rounding of the components). Before the randomized products centred the rows first, they
  // were off by 2e-4 to 8e-4 in variance and 2e-5 in |cos|.
  const auto ref = testing::load_reference("pca_randomized_hard.json");
  const auto& rc = ref["recipe"];
  const int64_t n = rc["n"], D = rc["dim"], k = rc["k"];
  const double offset = rc["offset"], scale = rc["scale"];
  uint32_t g = rc["seed"].get<uint32_t>();
  std::vector<double> s(static_cast<size_t>(D)), a(static_cast<size_t>(D));
  for (int64_t j = 0; j < D; ++j) s[j] = 1.0 / std::sqrt(static_cast<double>(j + 1));
  std::vector<float> table(static_cast<size_t>(n * D));
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < D; ++j) {
      g = g * 1664525u + 1013904223u;
      a[j] = s[j] * (static_cast<double>(static_cast<int64_t>(g >> 8) - (1 << 23)) / static_cast<double>(1 << 23));
    }
    for (int64_t d = 0; d < D; ++d) {
      double acc = 0;
      for (int64_t j = 0; j < D; ++j) acc += __builtin_popcountll(static_cast<uint64_t>(j & d)) % 2 ? -a[j] : a[j];
      table[i * D + d] = static_cast<float>(offset + scale * (acc / std::sqrt(static_cast<double>(D))));
      sum += table[i * D + d];
    }
  }
  REQUIRE(table[1] == Approx(ref["table_first_row"][1].get<double>()).epsilon(1e-12));
  REQUIRE(sum == Approx(ref["table_sum"].get<double>()).epsilon(1e-12));
  const std::vector<double> ratio = ref["explained_variance_ratio"], variance = ref["explained_variance"];
  const std::vector<std::vector<double>> comps = ref["components"];
  const auto compare = [&](PcaSolver solver, double rel, double cos_gap) {
    PcaOptions o;
    o.k = k;
    o.solver = solver;
    const PcaResult r = pca(table, n, D, o);
    REQUIRE(r.solver == solver);
    for (int64_t c = 0; c < k; ++c) {
      INFO(pca_solver_name(solver) << " component " << c);
      CHECK(r.variance[c] == Approx(variance[c]).epsilon(rel));
      CHECK(r.explained[c] == Approx(ratio[c]).epsilon(rel));
      double dot = 0, norm = 0;
      for (int64_t d = 0; d < D; ++d) dot += r.components[c * D + d] * comps[c][d], norm += comps[c][d] * comps[c][d];
      CHECK(std::fabs(dot) / std::sqrt(norm) >= 1 - cos_gap);
    }
  };
  SECTION("the randomized solver") { compare(PcaSolver::Randomized, 1e-4, 1e-6); }
  SECTION("the exact solver (the reference's own check)") { compare(PcaSolver::Exact, 1e-9, 1e-8); }
}
