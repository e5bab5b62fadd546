// analysis/neighbours.hpp: nearest neighbours by cosine or euclidean distance, scores bit for
// bit as kernels::dot, analogies against gensim's most_similar, unit_rows, bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/kernels.hpp"
#include "analysis/neighbours.hpp"
#include "reference.hpp"

using namespace embedlab;
using embedlab::testing::lcg_table;

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
