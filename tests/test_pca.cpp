// analysis/pca.hpp: PCA's exact and block Krylov solvers on designed tables, determinism,
// subsets, alignment with a previous frame, a worked example, edge cases and bad input.
// The randomized solver on tall tables: test_pca_randomized.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "analysis/pca.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

// Orthonormal directions u1, u2, u3 in D dimensions, not aligned with the axes:
// u1 = (1, 1, 0, 0, ...)/sqrt2, u2 = (0, 0, 1, -1, 0, ...)/sqrt2, u3 = (1, -1, 0, 0, ...)/sqrt2.
std::vector<std::vector<double>> directions(int64_t D) {
  const double h = 1 / std::sqrt(2.0);
  std::vector<std::vector<double>> u(3, std::vector<double>(static_cast<size_t>(D), 0.0));
  u[0][0] = h, u[0][1] = h;
  u[1][2] = h, u[1][3] = -h;
  u[2][0] = h, u[2][1] = -h;
  return u;
}

// The 8 rows of a 2^3 factorial design: row = offset + 3 a u1 + 1.5 b u2 + 0.3 c u3 with
// a, b, c in {-1, +1}. The coefficient columns are exactly orthogonal and centred, so the
// sample covariance is (8/7)(9 u1u1' + 2.25 u2u2' + 0.09 u3u3'): principal directions u1, u2,
// u3 with variances 72/7, 18/7, 0.72/7 and explained ratios 9/11.34, 2.25/11.34, 0.09/11.34.
std::vector<float> factorial_table(int64_t D) {
  const auto u = directions(D);
  std::vector<float> t;
  for (int r = 0; r < 8; ++r) {
    const double a = (r & 1) ? 1 : -1, b = (r & 2) ? 1 : -1, c = (r & 4) ? 1 : -1;
    for (int64_t d = 0; d < D; ++d) {
      const double offset = 0.25 * static_cast<double>(d + 1);
      t.push_back(static_cast<float>(offset + 3 * a * u[0][d] + 1.5 * b * u[1][d] + 0.3 * c * u[2][d]));
    }
  }
  return t;
}

double row_dot(const std::vector<float>& m, int64_t D, int64_t i, const std::vector<double>& v) {
  double s = 0;
  for (int64_t d = 0; d < D; ++d) s += m[i * D + d] * v[d];
  return s;
}

PcaOptions K(int64_t k, std::span<const int32_t> ids = {}, std::span<const float> previous = {}) {
  PcaOptions o;
  o.k = k, o.ids = ids, o.previous = previous;
  return o;
}

using embedlab::testing::lcg_table;
using embedlab::testing::same_bits;

}  // namespace

TEST_CASE("pca recovers the principal directions of a table", "[project][pca]") {
  // D = 6 >= n = 8 rows uses the covariance path; D = 20 > n uses the Gram path.
  const int64_t D = GENERATE(6, 20);
  const std::vector<float> t = factorial_table(D);
  const auto u = directions(D);

  SECTION("the top components are u1, u2, u3 up to sign, with the known variances") {
    const PcaResult r = pca(t, 8, D, K(3));
    REQUIRE(r.components.size() == static_cast<size_t>(3 * D));
    for (int c = 0; c < 3; ++c) CHECK(std::abs(row_dot(r.components, D, c, u[c])) == Approx(1).margin(1e-6));
    CHECK(r.variance[0] == Approx(72.0 / 7).margin(1e-5));
    CHECK(r.variance[1] == Approx(18.0 / 7).margin(1e-5));
    CHECK(r.variance[2] == Approx(0.72 / 7).margin(1e-5));
    CHECK(r.explained[0] == Approx(9 / 11.34).margin(1e-6));
    CHECK(r.explained[1] == Approx(2.25 / 11.34).margin(1e-6));
    CHECK(r.explained[2] == Approx(0.09 / 11.34).margin(1e-6));
  }

  SECTION("points are the rows' coordinates along the components") {
    const PcaResult r = pca(t, 8, D, K(2));
    REQUIRE(r.points.size() == 16);
    const double s0 = row_dot(r.components, D, 0, u[0]) > 0 ? 1 : -1;
    const double s1 = row_dot(r.components, D, 1, u[1]) > 0 ? 1 : -1;
    for (int i = 0; i < 8; ++i) {
      CHECK(r.points[i * 2 + 0] == Approx(s0 * 3 * ((i & 1) ? 1 : -1)).margin(1e-5));
      CHECK(r.points[i * 2 + 1] == Approx(s1 * 1.5 * ((i & 2) ? 1 : -1)).margin(1e-5));
    }
  }

  SECTION("components are orthonormal") {
    const PcaResult r = pca(t, 8, D, K(3));
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        double s = 0;
        for (int64_t d = 0; d < D; ++d) s += double(r.components[a * D + d]) * r.components[b * D + d];
        CHECK(s == Approx(a == b ? 1.0 : 0.0).margin(1e-6));
      }
    }
  }

  SECTION("explained ratios are sorted descending and sum to at most 1") {
    const PcaResult r = pca(t, 8, D, K(3));
    CHECK(r.explained[0] >= r.explained[1]);
    CHECK(r.explained[1] >= r.explained[2]);
    CHECK(r.explained[0] + r.explained[1] + r.explained[2] <= 1.0 + 1e-12);
    const PcaResult two = pca(t, 8, D, K(2));
    CHECK(two.explained[0] + two.explained[1] < 0.995);  // u3 holds 0.8% of the variance
  }

  SECTION("with tied largest loadings the lowest such column is positive: +u1, +u2, +u3") {
    const PcaResult r = pca(t, 8, D, K(3));
    for (int c = 0; c < 3; ++c) CHECK(row_dot(r.components, D, c, u[c]) == Approx(1).margin(1e-6));
  }

  SECTION("negating the table keeps the components and negates the points") {
    std::vector<float> neg(t);
    for (float& x : neg) x = -x;
    const PcaResult a = pca(t, 8, D, K(2)), b = pca(neg, 8, D, K(2));
    for (size_t i = 0; i < a.components.size(); ++i) CHECK(b.components[i] == Approx(a.components[i]).margin(1e-6));
    for (size_t i = 0; i < a.points.size(); ++i) CHECK(b.points[i] == Approx(-a.points[i]).margin(1e-5));
  }
}

TEST_CASE("pca is deterministic, projects subsets and aligns with a previous frame", "[project][pca]") {
  const int64_t V = 300, D = 17;
  const std::vector<float> t = lcg_table(V, D, 7);

  SECTION("two runs give the same bits") {
    const PcaResult a = pca(t, V, D, K(3)), b = pca(t, V, D, K(3));
    CHECK(same_bits(a.components, b.components));
    CHECK(same_bits(a.points, b.points));
  }

  SECTION("each component's largest-magnitude loading is positive") {
    const PcaResult r = pca(t, V, D, K(3));
    for (int c = 0; c < 3; ++c) {
      int64_t best = 0;
      for (int64_t d = 1; d < D; ++d) {
        if (std::abs(r.components[c * D + d]) > std::abs(r.components[c * D + best])) best = d;
      }
      CHECK(r.components[c * D + best] > 0);
    }
  }

  SECTION("ids select rows: the same result as the table of those rows") {
    const std::vector<int32_t> ids{5, 17, 3, 250, 99, 42, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 120, 121, 122, 200};
    std::vector<float> sub;
    for (const int32_t id : ids) sub.insert(sub.end(), t.begin() + id * D, t.begin() + (id + 1) * D);
    const PcaResult a = pca(t, V, D, K(2, ids));
    const PcaResult b = pca(sub, static_cast<int64_t>(ids.size()), D, K(2));
    CHECK(a.n == 20);
    CHECK(same_bits(a.components, b.components));
    CHECK(same_bits(a.points, b.points));
  }

  SECTION("previous components flip signs to match, points with them") {
    const PcaResult a = pca(t, V, D, K(2));
    std::vector<float> prev(a.components);
    for (int64_t d = 0; d < D; ++d) prev[d] = -prev[d];  // component 0 pointed the other way last frame
    const PcaResult b = pca(t, V, D, K(2, {}, prev));
    for (int64_t d = 0; d < D; ++d) {
      CHECK(b.components[d] == -a.components[d]);
      CHECK(b.components[D + d] == a.components[D + d]);
    }
    for (int64_t i = 0; i < V; ++i) {
      CHECK(b.points[i * 2] == -a.points[i * 2]);
      CHECK(b.points[i * 2 + 1] == a.points[i * 2 + 1]);
    }
  }

  SECTION("a slightly changed table keeps its signs when aligned to the last frame") {
    const PcaResult a = pca(t, V, D, K(3));
    std::vector<float> t2(t);
    for (size_t i = 0; i < t2.size(); ++i) t2[i] += 1e-3f * static_cast<float>(i % 5);
    const PcaResult b = pca(t2, V, D, K(3, {}, a.components));
    for (int c = 0; c < 3; ++c) {
      double s = 0;
      for (int64_t d = 0; d < D; ++d) s += double(a.components[c * D + d]) * b.components[c * D + d];
      CHECK(s > 0);
    }
  }
}

TEST_CASE("pca's block Krylov solver agrees with the exact one", "[project][pca]") {
  auto same_result = [](const PcaResult& a, const PcaResult& b) {
    REQUIRE(a.components.size() == b.components.size());
    for (size_t i = 0; i < a.components.size(); ++i) CHECK(a.components[i] == Approx(b.components[i]).margin(1e-5));
    for (size_t i = 0; i < a.points.size(); ++i) CHECK(a.points[i] == Approx(b.points[i]).margin(1e-4));
    for (size_t c = 0; c < a.explained.size(); ++c) CHECK(a.explained[c] == Approx(b.explained[c]).margin(1e-9));
  };

  SECTION("forced on a small table it gives the exact components, points and ratios") {
    const std::vector<float> t = lcg_table(300, 17, 5);
    PcaOptions kry = K(3), ex = K(3);
    kry.solver = PcaSolver::Krylov, ex.solver = PcaSolver::Exact;
    const PcaResult a = pca(t, 300, 17, kry), b = pca(t, 300, 17, ex);
    CHECK(a.solver == PcaSolver::Krylov);
    CHECK(b.solver == PcaSolver::Exact);
    same_result(a, b);
  }

  SECTION("Auto picks it above 256 columns (D = 260) with the exact answer") {
    // a random table plus strong directions along columns 0..2, so the top 3 are well separated
    std::vector<float> t = lcg_table(400, 260, 9);
    for (int64_t i = 0; i < 400; ++i) {
      for (int c = 0; c < 3; ++c) t[i * 260 + c * 7] += static_cast<float>((3 - c) * ((i * (c + 3)) % 11 - 5));
    }
    PcaOptions ex = K(3);
    ex.solver = PcaSolver::Exact;
    const PcaResult a = pca(t, 400, 260, K(3)), b = pca(t, 400, 260, ex);
    CHECK(a.solver == PcaSolver::Krylov);
    CHECK_FALSE(a.gram);
    same_result(a, b);
  }

  SECTION("a repeated top eigenvalue still gives its whole eigenspace") {
    // factorial design with equal scales along u1 and u2: lambda1 = lambda2 = 72/7
    const int64_t D = 6;
    const auto u = directions(D);
    std::vector<float> t;
    for (int r = 0; r < 8; ++r) {
      const double a = (r & 1) ? 1 : -1, b = (r & 2) ? 1 : -1, c = (r & 4) ? 1 : -1;
      for (int64_t d = 0; d < D; ++d) t.push_back(static_cast<float>(3 * a * u[0][d] + 3 * b * u[1][d] + 0.3 * c * u[2][d]));
    }
    PcaOptions o = K(2);
    o.solver = PcaSolver::Krylov;
    const PcaResult r = pca(t, 8, D, o);
    REQUIRE(r.solver == PcaSolver::Krylov);
    CHECK(r.variance[0] == Approx(72.0 / 7).margin(1e-6));
    CHECK(r.variance[1] == Approx(72.0 / 7).margin(1e-6));
    for (int c = 0; c < 2; ++c) {
      const double p0 = row_dot(r.components, D, c, u[0]), p1 = row_dot(r.components, D, c, u[1]);
      CHECK(p0 * p0 + p1 * p1 == Approx(1).margin(1e-6));  // inside span(u1, u2)
    }
  }
}

TEST_CASE("pca worked example and edge cases", "[project][pca]") {
  SECTION("rows (1,0), (-1,0), (0,0.5), (0,-0.5) give component (1,0) and explained 0.8") {
    const std::vector<float> t{1, 0, -1, 0, 0, 0.5f, 0, -0.5f};
    const PcaResult r = pca(t, 4, 2, K(1));
    CHECK(r.components[0] == Approx(1).margin(1e-7));
    CHECK(r.components[1] == Approx(0).margin(1e-7));
    CHECK(r.points == std::vector<float>{1, -1, 0, 0});
    CHECK(r.variance[0] == Approx(2.0 / 3).margin(1e-12));
    CHECK(r.explained[0] == Approx(0.8).margin(1e-12));
  }

  SECTION("components stay orthonormal when k exceeds the rank of the centred rows") {
    const std::vector<float> t{1, 2, 3, 4, 5, 2, 2, 3, 4, 5, 1, 3, 3, 4, 5};  // 3 rows, D = 5: rank 2
    const PcaResult r = pca(t, 3, 5, K(3));
    CHECK(r.explained[2] == 0.0);
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        double s = 0;
        for (int d = 0; d < 5; ++d) s += double(r.components[a * 5 + d]) * r.components[b * 5 + d];
        CHECK(s == Approx(a == b ? 1.0 : 0.0).margin(1e-6));
      }
    }
  }

  SECTION("the zero-variance completion stays within D when no axis is far from the span") {
    // 9 rows of D = 10 whose centred span (8 dimensions) is the complement of w1 = (1, ..., 1)
    // and w2 = (1, -1, 1, -1, ...), both over sqrt(10): every e_j keeps only
    // sqrt(w1_j^2 + w2_j^2) = sqrt(0.2) = 0.45 of its length outside the span, so no standard
    // axis passes the completion's 0.5 test and it used to walk on to e_10, e_11, ... past D.
    const int64_t D = 10, n = 9;
    std::vector<std::vector<double>> basis;
    std::vector<double> w1(D, 1 / std::sqrt(10.0)), w2(D);
    for (int64_t d = 0; d < D; ++d) w2[d] = (d % 2 ? -1 : 1) / std::sqrt(10.0);
    std::vector<std::vector<double>> span{w1, w2};
    for (int64_t j = 0; j < D && basis.size() < 8; ++j) {  // Gram-Schmidt of e_j against w1, w2, basis
      std::vector<double> e(D, 0.0);
      e[j] = 1;
      for (int pass = 0; pass < 2; ++pass)
        for (const auto& v : span) {
          double dot = 0;
          for (int64_t d = 0; d < D; ++d) dot += v[d] * e[d];
          for (int64_t d = 0; d < D; ++d) e[d] -= dot * v[d];
        }
      double norm = 0;
      for (double x : e) norm += x * x;
      if (norm < 1e-6) continue;
      for (double& x : e) x /= std::sqrt(norm);
      span.push_back(e), basis.push_back(e);
    }
    REQUIRE(basis.size() == 8);
    std::vector<float> t(static_cast<size_t>(n * D), 0.0f);
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t d = 0; d < D; ++d) {
        t[i * D + d] = static_cast<float>(basis[i][d]);
        t[8 * D + d] -= static_cast<float>(basis[i][d]);  // row 8: minus the sum, so the mean is 0
      }
    const PcaResult r = pca(t, n, D, K(9));
    REQUIRE(r.gram);
    CHECK(r.explained[8] == 0.0);
    for (int a = 0; a < 9; ++a) {
      for (int b = 0; b < 9; ++b) {
        double s = 0;
        for (int64_t d = 0; d < D; ++d) s += double(r.components[a * D + d]) * r.components[b * D + d];
        INFO("components " << a << ", " << b);
        CHECK(s == Approx(a == b ? 1.0 : 0.0).margin(1e-6));
      }
    }
    // the completion lies in span(w1, w2), the directions of no variance
    double in_span = 0;
    for (const auto& w : {w1, w2}) {
      double dot = 0;
      for (int64_t d = 0; d < D; ++d) dot += r.components[8 * D + d] * w[d];
      in_span += dot * dot;
    }
    CHECK(in_span == Approx(1.0).margin(1e-6));
  }

  SECTION("a single row has no variance and explained 0") {
    const PcaResult r = pca(std::vector<float>{3, 4}, 1, 2, K(1));
    CHECK(r.explained[0] == 0.0);
    CHECK(r.points == std::vector<float>{0});
  }
}

TEST_CASE("pca rejects bad input with messages", "[project][pca]") {
  const std::vector<float> t{1, 0, -1, 0, 0, 0.5f, 0, -0.5f};  // 4 x 2
  REQUIRE_THROWS_WITH(pca(t, 3, 3), "pca: table has 8 values, expected 3 x 3 = 9");
  REQUIRE_THROWS_WITH(pca(t, 4, 2, K(3)), "pca: k 3 out of range [1, 2] (4 rows of 2 columns)");
  REQUIRE_THROWS_WITH(pca(t, 4, 2, K(0)), "pca: k 0 out of range [1, 2] (4 rows of 2 columns)");
  const std::vector<int32_t> ids{0, 4};
  REQUIRE_THROWS_WITH(pca(t, 4, 2, K(1, ids)), "pca: id 4 out of range [0, 4)");
  const std::vector<int32_t> one{2};
  REQUIRE_THROWS_WITH(pca(t, 4, 2, K(2, one)), "pca: k 2 out of range [1, 1] (1 rows of 2 columns)");
  std::vector<float> bad(t);
  bad[3] = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_WITH(pca(bad, 4, 2, K(1)), "pca: table value nan at row 1, column 1 is not finite");
  bad[3] = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(pca(bad, 4, 2, K(1)), "pca: table value inf at row 1, column 1 is not finite");
  const std::vector<float> prev{1, 0, 0};
  REQUIRE_THROWS_WITH(pca(t, 4, 2, K(1, {}, prev)),
                      "pca: previous components have 3 values, expected k x D = 1 x 2 = 2");
  REQUIRE_THROWS_WITH(pca({}, 0, 2), "pca: rows must be >= 1, got 0");
}
