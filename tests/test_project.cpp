// analysis/: PCA (pca.hpp), nearest neighbours and analogies (neighbours.hpp), and the .npy /
// metadata.tsv readers (table_file.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

#include "kernels/kernels.hpp"
#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"
#include "limits.hpp"
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

using embedlab::testing::same_bits;

std::vector<float> lcg_table(int64_t V, int64_t D, uint32_t seed) {
  std::vector<float> t(static_cast<size_t>(V * D));
  for (float& x : t) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(seed >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
  }
  return t;
}

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

TEST_CASE("NeighbourIndex ranks rows by cosine or euclidean distance", "[project][neighbours]") {
  // rows: 0 (1,0)  1 (0.8,0.6)  2 (0,1)  3 (-1,0)  4 (0,0)
  // cosine with row 0: 1 -> 0.8, 2 -> 0, 3 -> -1, 4 -> 0 (a zero row scores 0)
  // distance from row 0: 1 -> sqrt(0.04 + 0.36) = 0.632456, 2 -> sqrt2, 3 -> 2, 4 -> 1
  const std::vector<float> t{1, 0, 0.8f, 0.6f, 0, 1, -1, 0, 0, 0};
  const NeighbourIndex idx(t, 5, 2);

  SECTION("cosine: best first, the query left out, ties to the lower id") {
    const Neighbours n = idx.nearest(0, 3);
    CHECK(n.ids == std::vector<int32_t>{1, 2, 4});
    CHECK(n.scores[0] == Approx(0.8).margin(1e-6));
    CHECK(n.scores[1] == 0.0f);
    CHECK(n.scores[2] == 0.0f);
  }

  SECTION("euclidean: nearest first with distances") {
    const Neighbours n = idx.nearest(0, 2, Metric::Euclidean);
    CHECK(n.ids == std::vector<int32_t>{1, 4});
    CHECK(n.scores[0] == Approx(0.632456).margin(1e-6));
    CHECK(n.scores[1] == Approx(1).margin(1e-7));
  }

  SECTION("k larger than the other rows returns all of them") {
    const Neighbours n = idx.nearest(2, 10);
    CHECK(n.ids == std::vector<int32_t>{1, 0, 3, 4});  // 0.6, 0, 0, 0 (ties by id)
  }

  SECTION("a query vector scans every row, except the excluded ones") {
    const std::vector<float> q{0, -2};
    const std::vector<int32_t> ex{3};
    const Neighbours n = idx.nearest_to(q, 3, Metric::Cosine, ex);
    CHECK(n.ids == std::vector<int32_t>{0, 4, 1});  // 0, 0, -0.6
    CHECK(n.scores[2] == Approx(-0.6).margin(1e-6));
  }

  SECTION("the norms are the rows' lengths") {
    CHECK(idx.norm(1) == Approx(1).margin(1e-7));
    CHECK(idx.norm(4) == 0.0f);
  }
}

TEST_CASE("NeighbourIndex scores are kernels::dot bit for bit", "[project][neighbours]") {
  const int64_t V = 200, D = 37;  // 37 leaves a SIMD remainder
  const std::vector<float> t = lcg_table(V, D, 3);
  const NeighbourIndex idx(t, V, D);
  const Neighbours n = idx.nearest(11, 199);
  REQUIRE(n.ids.size() == 199);
  const float* q = t.data() + 11 * D;
  const float qn = std::sqrt(kernels::ref::dot(D, q, q));
  for (size_t i = 0; i < n.ids.size(); ++i) {
    const float* r = t.data() + n.ids[i] * D;
    const float want = kernels::ref::dot(D, q, r) / qn / std::sqrt(kernels::ref::dot(D, r, r));
    CHECK(std::memcmp(&want, &n.scores[i], 4) == 0);
    if (i) CHECK(n.scores[i - 1] >= n.scores[i]);
  }
}

TEST_CASE("NeighbourIndex::analogy matches gensim's most_similar", "[project][neighbours]") {
  // rows: 0 man (1,0,0)  1 woman (1,1,0)  2 king (1,0,1)  3 queen (1,1,1)  4 apple (0,0,1)
  //       5 prince (1,0,1.2)  6 girl (0.5,1,0)
  // gensim 4.2 KeyedVectors with these vectors:
  //   most_similar(positive=['king','woman'], negative=['man'], topn=4) ->
  //   queen 0.9752869, girl 0.7554539, prince 0.7468528, apple 0.6532815
  //   most_similar('king', topn=3) -> prince 0.9958932, queen 0.8164966, man 0.7071068
  const std::vector<float> t{1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1.2f, 0.5f, 1, 0};
  const NeighbourIndex idx(t, 7, 3);

  SECTION("king - man + woman is queen, the inputs left out") {
    const std::vector<int32_t> pos{2, 1}, neg{0};
    const Neighbours n = idx.analogy(pos, neg, 4);
    CHECK(n.ids == std::vector<int32_t>{3, 6, 5, 4});
    CHECK(n.scores[0] == Approx(0.9752869).margin(1e-6));
    CHECK(n.scores[1] == Approx(0.7554539).margin(1e-6));
    CHECK(n.scores[2] == Approx(0.7468528).margin(1e-6));
    CHECK(n.scores[3] == Approx(0.6532815).margin(1e-6));
  }

  SECTION("one positive id is the plain nearest-neighbour query") {
    const std::vector<int32_t> pos{2};
    const Neighbours n = idx.analogy(pos, {}, 3);
    CHECK(n.ids == std::vector<int32_t>{5, 3, 0});
    CHECK(n.scores[0] == Approx(0.9958932).margin(1e-6));
    CHECK(n.scores[1] == Approx(0.8164966).margin(1e-6));
    CHECK(n.scores[2] == Approx(0.7071068).margin(1e-6));
    CHECK(idx.nearest(2, 3).ids == n.ids);
  }
}

TEST_CASE("NeighbourIndex rejects bad input with messages", "[project][neighbours]") {
  const std::vector<float> t{1, 0, 0.8f, 0.6f, 0, 1, -1, 0, 0, 0};
  const NeighbourIndex idx(t, 5, 2);
  REQUIRE_THROWS_WITH(idx.nearest(5, 3), "nearest: id 5 out of range [0, 5)");
  REQUIRE_THROWS_WITH(idx.nearest(0, 0), "nearest: k must be >= 1, got 0");
  REQUIRE_THROWS_WITH(idx.nearest(4, 3), "nearest: row 4 is all zeros, so its cosine similarity is undefined");
  CHECK(idx.nearest(4, 1, Metric::Euclidean).ids == std::vector<int32_t>{0});  // distances still work
  REQUIRE_THROWS_WITH(idx.nearest_to(std::vector<float>{1, 2, 3}, 3), "nearest: query vector has 3 values, expected D = 2");
  REQUIRE_THROWS_WITH(idx.nearest_to(std::vector<float>{0, 0}, 3),
                      "nearest: the query vector is all zeros, so its cosine similarity is undefined");
  REQUIRE_THROWS_WITH(idx.nearest_to(std::vector<float>{0, std::numeric_limits<float>::infinity()}, 3),
                      "nearest: query value inf at index 1 is not finite");
  REQUIRE_THROWS_WITH(idx.analogy({}, {}, 3), "analogy: needs at least one positive or negative id");
  REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{9}, {}, 3), "analogy: positive id 9 out of range [0, 5)");
  REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{1}, std::vector<int32_t>{-1}, 3),
                      "analogy: negative id -1 out of range [0, 5)");
  REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{4}, {}, 3), "analogy: row 4 is all zeros and has no direction");
  REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{1}, std::vector<int32_t>{1}, 3),
                      "analogy: the inputs cancel out: their weighted mean is all zeros");
  REQUIRE_THROWS_WITH(NeighbourIndex(t, 3, 2), "nearest: table has 10 values, expected 3 x 2 = 6");
  std::vector<float> bad(t);
  bad[5] = -std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(NeighbourIndex(bad, 5, 2), "nearest: table value -inf at row 2, column 1 is not finite");
  REQUIRE_THROWS_WITH(parse_metric("dot"), "metric: unknown metric 'dot', expected cosine or euclidean");
}

TEST_CASE("unit_rows scales every row to length 1", "[project][neighbours]") {
  // rows (3, 4), (0, 0), (0, -2): lengths 5, 0, 2 -> (0.6, 0.8), (0, 0), (0, -1)
  const std::vector<float> t{3, 4, 0, 0, 0, -2};

  SECTION("the worked example: each row divided by its length, a zero row stays zero") {
    const std::vector<float> u = unit_rows(t, 3, 2);
    REQUIRE(u.size() == 6);
    CHECK(u[0] == Approx(0.6).margin(1e-7));
    CHECK(u[1] == Approx(0.8).margin(1e-7));
    CHECK(u[2] == 0.0f);
    CHECK(u[3] == 0.0f);
    CHECK(u[4] == 0.0f);
    CHECK(u[5] == -1.0f);
    CHECK(t[0] == 3.0f);  // the input is not changed
  }

  SECTION("on a random table, norms become 1, cosines stay and distances become sqrt(2 - 2 cos)") {
    const int64_t V = 300, D = 37;  // 37 leaves a SIMD remainder
    std::vector<float> r(V * D);
    uint32_t s = 7;
    for (float& x : r) {
      s = s * 1103515245u + 12345u;
      x = 3.0f * (static_cast<float>(s) / 4294967296.0f - 0.5f);
    }
    const std::vector<float> u = unit_rows(r, V, D);
    const NeighbourIndex raw(r, V, D), unit(u, V, D);
    for (int32_t i = 0; i < V; ++i) CHECK(unit.norm(i) == Approx(1).margin(1e-6));
    const Neighbours a = raw.nearest(5, 10), b = unit.nearest(5, 10);
    CHECK(a.ids == b.ids);
    for (size_t k = 0; k < a.scores.size(); ++k) CHECK(b.scores[k] == Approx(a.scores[k]).margin(1e-6));
    const Neighbours e = unit.nearest(5, 10, Metric::Euclidean);
    CHECK(e.ids == a.ids);  // on unit rows the euclidean ranking is the cosine ranking
    for (size_t k = 0; k < e.scores.size(); ++k) {
      CHECK(e.scores[k] == Approx(std::sqrt(2.0 - 2.0 * a.scores[k])).margin(1e-5));
      CHECK(e.scores[k] <= 2.0f);
    }
  }

  SECTION("bad tables fail naming where and what") {
    REQUIRE_THROWS_WITH(unit_rows(t, 2, 2), "unit_rows: table has 6 values, expected 2 x 2 = 4");
    REQUIRE_THROWS_WITH(unit_rows({}, 0, 2), "unit_rows: rows must be >= 1, got 0");
    std::vector<float> bad(t);
    bad[3] = std::numeric_limits<float>::quiet_NaN();
    REQUIRE_THROWS_WITH(unit_rows(bad, 3, 2), "unit_rows: table value nan at row 1, column 1 is not finite");
  }
}

TEST_CASE("table_file reads what table_io writes", "[project][table_file]") {
  SECTION("a float32 .npy round-trips") {
    const std::vector<float> t{1.5f, -2, 3.25f, 0, 1e-30f, 7};
    const NpyTable r = parse_npy(npy_bytes(t, 3, 2));
    CHECK(r.rows == 3);
    CHECK(r.cols == 2);
    CHECK(r.data == t);
  }

  SECTION("a float64 .npy is rounded to float32, a 1-D array is one column") {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes.push_back(static_cast<char>(header.size()));
    bytes.push_back(0);
    bytes += header;
    for (const double v : {0.1, -2.0, 1e300}) bytes.append(reinterpret_cast<const char*>(&v), 8);
    const NpyTable r = parse_npy(bytes);
    CHECK(r.rows == 3);
    CHECK(r.cols == 1);
    CHECK(r.data == std::vector<float>{0.1f, -2.0f, std::numeric_limits<float>::infinity()});
  }

  SECTION("unsupported arrays fail naming what was found") {
    std::string b = npy_bytes(std::vector<float>{1, 2}, 1, 2);
    std::string i8 = b;
    i8.replace(i8.find("<f4"), 3, "<i4");
    REQUIRE_THROWS_WITH(parse_npy(i8), "read_npy: dtype '<i4' is not supported (expected '<f4', '<f8' or '<f2')");
    std::string fortran = b;  // Fortran order is read, transposed (tests/test_import.cpp)
    fortran.replace(fortran.find("False"), 5, "True ");
    CHECK(parse_npy(fortran).data == std::vector<float>{1, 2});
    REQUIRE_THROWS_WITH(parse_npy(b.substr(0, b.size() - 1)), "read_npy: the data has 7 bytes, expected 1 x 2 x 4 = 8: the file is cut short");
    REQUIRE_THROWS_WITH(parse_npy("hello world"), "read_npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'hello '");
  }

  SECTION("files written by write_npy and write_projector_tsv read back") {
    const std::string dir = (std::filesystem::temp_directory_path() / "embedlab-test-project").string();
    const std::vector<float> t{1, 2, 3, 4, 5, 6};
    const std::vector<std::string> labels{"the", "a\tb", "back\\slash"};
    write_npy(dir + ".npy", t, 3, 2);
    write_projector_tsv(dir, t, 3, 2, labels);
    const NpyTable r = read_npy(dir + ".npy");
    CHECK(r.data == t);
    CHECK(read_labels(dir + "/metadata.tsv") == labels);
    std::filesystem::remove_all(dir);
    std::filesystem::remove(dir + ".npy");
    REQUIRE_THROWS_WITH(read_npy(dir + ".npy"), "read_npy: cannot open '" + dir + ".npy': No such file or directory");
  }

  SECTION("metadata labels unescape what tsv_escape wrote") {
    for (const std::string s : {"", "plain", "a\tb", "line\nbreak\r", "back\\slash\\t"}) {
      CHECK(tsv_unescape(tsv_escape(s)) == s);
    }
  }
}

namespace {
// A version 1.0 .npy header for descr '<f4' and the given shape text, then `body` bytes.
std::string npy_with_shape(const std::string& shape, size_t body) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  return out + header + std::string(body, '\0');
}
}  // namespace

TEST_CASE("Table files are checked against their size before anything is allocated", "[project][memory]") {
  testing::WasmLimits wasm;

  SECTION("a small file declaring a huge shape is refused without allocating it") {
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(1000000000, 1000000000)", 16)),
                        "read_npy: the data has 16 bytes, expected 1000000000 x 1000000000 x 4 = 4000000000000000000: "
                        "the file is cut short");
    // 2^62 x 4 x 4 bytes passes 64 bits
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(4611686018427387904, 4)", 0)),
                        "read_npy: the data has 0 bytes, expected 4611686018427387904 x 4 x 4, more than 2^64: the file is cut short");
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(-1, 4)", 0)),
                        "read_npy: the .npy shape (-1, 4) has a negative dimension");
    const NpyTable t = parse_npy(npy_with_shape("(2, 2)", 16));
    CHECK(t.data == std::vector<float>(4, 0.0f));
  }

  SECTION("a version 2 header length near 4 GiB does not wrap the bounds check") {
    std::string b("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14);
    REQUIRE_THROWS_WITH(parse_npy(b), "read_npy: the header needs 4294967307 bytes (12 + its length 4294967295), the file has 14: it is cut short");
  }

  SECTION("labels parse from bytes, one per line, and are planned") {
    CHECK(parse_labels("").empty());
    CHECK(parse_labels("a\nb\r\n") == std::vector<std::string>{"a", "b"});
    CHECK(parse_labels("x\\ty\n\nlast") == std::vector<std::string>{"x\ty", "", "last"});
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(parse_labels(std::string(100000, '\n')),
                        "read_labels: labels 100000 x " + std::to_string(sizeof(std::string)) + " bytes need " +
                            format_bytes(100000 * sizeof(std::string)) + "; the limit here is 1.0 MiB");
  }

  SECTION("read_npy and read_labels use the one file reader") {
    const std::string dir = std::filesystem::temp_directory_path().string();
    REQUIRE_THROWS_WITH(read_npy(dir), "read_npy: '" + dir + "' is a directory, expected a file");
    REQUIRE_THROWS_WITH(read_labels(dir), "read_labels: '" + dir + "' is a directory, expected a file");
  }

  SECTION("pca checks rows x dim in 64 bits and plans its matrices") {
    const std::vector<float> t(8, 1.0f);
    REQUIRE_THROWS_WITH(pca(t, int64_t{1} << 40, int64_t{1} << 40),
                        "pca: table has 8 values, expected 1099511627776 x 1099511627776");
    std::vector<float> square(400 * 400);
    for (size_t i = 0; i < square.size(); ++i) square[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    std::vector<float> wide(10 * 40000);
    for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(pca(square, 400, 400), "pca: covariance matrix 400 x 400 float64 need 1.2 MiB; the limit here is 1.0 MiB");
    REQUIRE_THROWS_WITH(pca(wide, 10, 40000), "pca: centred rows 10 x 40000 float64 need 3.1 MiB; the limit here is 1.0 MiB");
  }

  SECTION("neighbours check rows x dim in 64 bits and plan the scores of all rows") {
    const std::vector<float> t(8, 1.0f);
    REQUIRE_THROWS_WITH(NeighbourIndex(t, int64_t{1} << 40, int64_t{1} << 40),
                        "nearest: table has 8 values, expected 1099511627776 x 1099511627776");
    std::vector<float> col(100000);
    for (size_t i = 0; i < col.size(); ++i) col[i] = 1.0f + static_cast<float>(i);
    const NeighbourIndex idx(col, 100000, 1);
    testing::WasmLimits tiny(1 << 19, 1 << 19);
    REQUIRE_THROWS_WITH(idx.nearest(0, 3), "nearest: candidate scores 100000 x 8 bytes need 781.2 KiB; the limit here is 512.0 KiB");
    REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{1}, {}, 3),
                        "nearest: candidate scores 100000 x 8 bytes need 781.2 KiB; the limit here is 512.0 KiB");
  }
}

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
