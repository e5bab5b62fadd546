// Positional encodings: sinusoidal against tests/reference/sinusoidal_pe.json, learned
// tables and their limit, RoPE invariants (norms, relative positions), ALiBi slopes.
#include <catch2/catch.hpp>
#include <cmath>

#include "embed/embedding.hpp"
#include "embed/positional.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

TEST_CASE("sinusoidal encodings match the reference", "[positional]") {
  const auto ref = embedlab::testing::load_reference("sinusoidal_pe.json");
  const int64_t T = ref["max_len"], D = ref["d_model"];
  const auto pe = sinusoidal(T, D);

  SECTION("rows 0, 1, 2, 63 and 127 agree within 1e-6 (float32 rounding of float64 values)") {
    for (const auto& [row, values] : ref["rows"].items()) {
      const int r = std::stoi(row);
      const auto want = embedlab::testing::flatten(values);
      REQUIRE(want.size() == static_cast<size_t>(D));
      INFO("row " << r);
      CHECK(embedlab::testing::max_abs_diff(want, pe.data() + r * D, D) < 1e-6);
    }
  }

  SECTION("the full-table sums agree") {
    double sum = 0, sum_sq = 0;
    for (float v : pe) sum += v, sum_sq += double(v) * v;
    CHECK(sum == Approx(ref["full_table_sum"].get<double>()).margin(1e-4));
    CHECK(sum_sq == Approx(ref["full_table_sum_sq"].get<double>()).margin(1e-4));
  }

  SECTION("values stay in [-1, 1] and position 0 is (0, 1, 0, 1, ...)") {
    for (float v : pe) CHECK((v >= -1.0f && v <= 1.0f));
    for (int k = 0; k < D; ++k) CHECK(pe[k] == (k % 2 ? 1.0f : 0.0f));
  }

  SECTION("odd widths and huge sizes are refused") {
    REQUIRE_THROWS_WITH(sinusoidal(4, 5), "sinusoidal: dim must be even, got 5");
    REQUIRE_THROWS_WITH(sinusoidal(2000000, 8), "sinusoidal: positions 2000000 out of range [0, 1048576]");
  }
}

TEST_CASE("learned positions", "[positional]") {
  SECTION("drawn like nn.Embedding from the same generator after the token table") {
    Generator a(123), b(123);
    Embedding tok(50, 8, a);
    LearnedPositions pos(4, 8, a);
    Embedding tok2(50, 8, b);
    Embedding pos2(4, 8, b);
    CHECK(pos.table() == pos2.weight());
  }

  SECTION("a position beyond the context length is an error that says so") {
    Generator g(0);
    LearnedPositions pos(8, 4, g);
    CHECK(pos.forward(8).size() == 32);
    REQUIRE_THROWS_WITH(pos.forward(9),
                        "learned positions: position 8 out of range [0, 8): the table was made for context_length 8");
    REQUIRE_THROWS_WITH(pos.forward(std::vector<int32_t>{3, 12}),
                        "learned positions: position 12 out of range [0, 8)");
  }

  SECTION("fused token*scale + position forward equals the two steps") {
    Generator g(5);
    Embedding tok(20, 6, g, EmbeddingOptions{.scale = true});
    LearnedPositions pos(4, 6, g);
    const std::vector<int32_t> ids{1, 5, 7, 19, 2, 3, 3, 0};  // B=2, T=4
    std::vector<float> fused(ids.size() * 6);
    tok.forward_with_positions(ids, pos.table().data(), 4, fused.data());
    const auto plain = tok.forward(ids);
    for (size_t i = 0; i < ids.size(); ++i)
      for (int k = 0; k < 6; ++k) CHECK(fused[i * 6 + k] == plain[i * 6 + k] + pos.table()[(i % 4) * 6 + k]);
  }
}

TEST_CASE("rotary encodings", "[positional]") {
  Generator g(1);
  const int64_t T = 16, D = 8;
  std::vector<float> q(T * D), k(T * D);
  g.normal(q.data(), q.size());
  g.normal(k.data(), k.size());

  SECTION("rotation preserves every row's norm") {
    auto r = q;
    rope_apply(r.data(), T, D);
    for (int t = 0; t < T; ++t) {
      double a = 0, b = 0;
      for (int j = 0; j < D; ++j) a += double(q[t * D + j]) * q[t * D + j], b += double(r[t * D + j]) * r[t * D + j];
      CHECK(std::sqrt(b) == Approx(std::sqrt(a)).epsilon(1e-5));
    }
  }

  SECTION("the dot product of rotated vectors depends only on their distance") {
    // <rope(q, m), rope(k, n)> for (m, n) = (3, 1) and (12, 10): same q and k, same distance.
    std::vector<float> q1(q.begin(), q.begin() + D), k1(k.begin(), k.begin() + D);
    auto rot = [&](std::vector<float> v, int64_t p) { rope_apply(v.data(), 1, D, p); return v; };
    auto dot = [&](const std::vector<float>& a, const std::vector<float>& b) {
      double s = 0;
      for (int j = 0; j < D; ++j) s += double(a[j]) * b[j];
      return s;
    };
    CHECK(dot(rot(q1, 3), rot(k1, 1)) == Approx(dot(rot(q1, 12), rot(k1, 10))).margin(1e-5));
    CHECK(dot(rot(q1, 7), rot(k1, 7)) == Approx(dot(q1, k1)).margin(1e-5));
  }

  SECTION("the inverse rotation undoes the rotation") {
    auto r = q;
    rope_apply(r.data(), T, D, 5);
    rope_apply_inverse(r.data(), T, D, 5);
    for (size_t i = 0; i < q.size(); ++i) CHECK(r[i] == Approx(q[i]).margin(1e-5));
  }

  SECTION("the rope table is (cos, sin) of p * theta_i, theta_i = 10000^(-2i/D)") {
    const auto t = rope_table(4, 4);
    CHECK(t[1 * 4 + 0] == Approx(std::cos(1.0)).margin(1e-7));
    CHECK(t[1 * 4 + 1] == Approx(std::sin(1.0)).margin(1e-7));
    CHECK(t[3 * 4 + 2] == Approx(std::cos(3 * 0.01)).margin(1e-7));
    CHECK(t[3 * 4 + 3] == Approx(std::sin(3 * 0.01)).margin(1e-7));
  }
}

// A kind's display table through the registry: (T, D), or (heads, T, T) for bias kinds.
static PositionTable kind_table(const char* name, int64_t T, int64_t D, int64_t heads, PositionValues v = {},
                                uint64_t seed = 0) {
  Generator g(seed);
  return find_position_kind(name).table({T, D, heads}, v, g);
}

TEST_CASE("ALiBi biases", "[positional]") {
  SECTION("slopes for 8 heads are 1/2, 1/4, ..., 1/256") {
    const auto b = kind_table("alibi", 2, 0, 8).data;  // bias[h, 1, 0] = -slope_h
    for (int h = 0; h < 8; ++h) CHECK(-b[(h * 2 + 1) * 2 + 0] == Approx(std::pow(2.0, -(h + 1))).epsilon(1e-6));
  }
  SECTION("a non-power-of-two head count interleaves the next power's slopes") {
    const auto b = kind_table("alibi", 2, 0, 6).data;  // 4 slopes of 2^(-2(h+1)), then 2^(-1), 2^(-3)
    REQUIRE(b.size() == 6 * 2 * 2);
    CHECK(-b[(4 * 2 + 1) * 2] == Approx(0.5).epsilon(1e-6));
    CHECK(-b[(5 * 2 + 1) * 2] == Approx(0.125).epsilon(1e-6));
  }
  SECTION("the bias is -slope * distance below the diagonal and -inf above") {
    const PositionTable t = kind_table("alibi", 3, 0, 2);
    CHECK(t.shape == std::vector<int64_t>{2, 3, 3});
    const auto& b = t.data;
    CHECK(b[(0 * 3 + 2) * 3 + 0] == Approx(-0.0625 * 2).epsilon(1e-6));  // H=2: slopes 2^-4, 2^-8
    CHECK(std::isinf(b[(1 * 3 + 0) * 3 + 1]));
    CHECK(b[(1 * 3 + 1) * 3 + 1] == 0.0f);
  }
  SECTION("the one-head model uses the slope parameter, checked against its range") {
    const PositionKind& k = find_position_kind("alibi");
    CHECK(k.resolve("next-token", {}).at("slope") == 0.5);
    REQUIRE_THROWS_WITH(k.resolve("next-token", {{"slope", -1}}), "next-token: alibi slope -1 must be a number in [0, 1000]");
    Generator g(0);
    auto enc = k.make({4, 8, 1}, k.resolve("x", {{"slope", 0.25}}), g);
    std::vector<float> row(4, 1.0f);
    enc->add_bias(0, 3, row.data());
    CHECK(row == std::vector<float>{1.0f - 0.75f, 1.0f - 0.5f, 1.0f - 0.25f, 1.0f});
  }
}

TEST_CASE("T5 relative position bias", "[positional][t5]") {
  const PositionKind& k = find_position_kind("t5");
  // Set the learned biases to 0, 1, 2, ...: the added bias then is the bucket itself.
  auto buckets = [&](int64_t T, PositionValues v) {
    Generator g(0);
    auto enc = k.make({T, 8, 1}, k.resolve("t5", v), g);
    for (ParamView p : enc->params())
      for (size_t b = 0; b < p.size; ++b) p.data[b] = static_cast<float>(b);
    std::vector<float> row(static_cast<size_t>(T), 0.0f);
    enc->add_bias(0, T - 1, row.data());  // row[j] = bucket(T - 1 - j)
    std::vector<int64_t> out(static_cast<size_t>(T));
    for (int64_t n = 0; n < T; ++n) out[n] = static_cast<int64_t>(row[T - 1 - n]);
    return out;
  };

  SECTION("the worked example of the header: 32 buckets, max_distance 128") {
    const auto b = buckets(6000, {});
    CHECK(b[15] == 15);
    CHECK(b[16] == 16);
    CHECK(b[20] == 17);
    CHECK(b[127] == 31);
    CHECK(b[5000] == 31);
  }
  SECTION("buckets equal HF's _relative_position_bucket in torch float32 for every distance and several settings") {
    // tests/reference/t5_buckets_torch.json (scripts/gen-t5-buckets-reference.py): HF's function
    // run by torch 1.13, buckets of relative positions memory - query in [first, -first]; the
    // causal engine uses the bidirectional=False buckets of relative positions <= 0.
    const nlohmann::json ref = testing::load_reference("t5_buckets_torch.json");
    int compared = 0;
    for (const auto& c : ref["cases"]) {
      if (c["bidirectional"].get<bool>()) continue;
      const int64_t nb = c["num_buckets"], md = c["max_distance"], first = c["first_relative_position"];
      const std::vector<int64_t> want = c["buckets"];
      const int64_t T = -first + 1;
      const auto b = buckets(T, {{"num_buckets", static_cast<double>(nb)}, {"max_distance", static_cast<double>(md)}});
      for (int64_t n = 0; n < T; ++n) {
        INFO("num_buckets " << nb << " max_distance " << md << " distance " << n);
        REQUIRE(b[n] == want[static_cast<size_t>(-n - first)]);
      }
      ++compared;
    }
    CHECK(compared == 18);
  }
  SECTION("buckets never decrease with the distance and stay below num_buckets") {
    const auto b = buckets(2000, {{"num_buckets", 10}, {"max_distance", 50}});
    for (size_t n = 1; n < b.size(); ++n) CHECK((b[n] >= b[n - 1] && b[n] < 10));
  }
  SECTION("the bias gradient sums dS over the pairs of each bucket") {
    Generator g(0);
    auto enc = k.make({4, 8, 1}, k.resolve("t5", {{"num_buckets", 4}, {"max_distance", 3}}), g);
    // buckets for n = 0..3: 0, 1, then log-spaced: n = 2 -> 2 + floor(log(1) ...) = 2, n = 3 -> 3
    std::vector<float> dS(16, 1.0f);
    enc->zero_grad();
    enc->backward_bias(0, dS.data());
    const ParamView p = enc->params()[0];
    CHECK(std::vector<float>(p.grad, p.grad + p.size) == std::vector<float>{4, 3, 2, 1});  // pairs at distance n: 4 - n
  }
  SECTION("bad parameters are refused with the value and the limit") {
    REQUIRE_THROWS_WITH(k.resolve("next-token", {{"num_buckets", 2.5}}), "next-token: t5 num_buckets 2.5 must be an integer in [2, 1024]");
    REQUIRE_THROWS_WITH(k.resolve("next-token", {{"buckets", 3}}), "next-token: t5 has no parameter 'buckets', expected num_buckets, max_distance");
    Generator g(0);
    REQUIRE_THROWS_WITH(k.make({4, 8, 1}, k.resolve("x", {{"num_buckets", 32}, {"max_distance", 16}}), g),
                        "t5: max_distance 16 must be greater than num_buckets / 2 = 16");
  }
  SECTION("the table is causal, (heads, T, T), and drawn like nn.Embedding(num_buckets, heads)") {
    const PositionTable t = kind_table("t5", 5, 0, 2, {}, 3);
    CHECK(t.shape == std::vector<int64_t>{2, 5, 5});
    Generator g(3);
    std::vector<float> B(32 * 2);
    g.normal(B.data(), B.size());
    CHECK(t.data[(1 * 5 + 4) * 5 + 1] == B[3 * 2 + 1]);  // head 1, i - j = 3 -> bucket 3
    CHECK(std::isinf(t.data[(0 * 5 + 1) * 5 + 2]));
  }
}

TEST_CASE("the positional registry", "[positional]") {
  SECTION("lists every kind once, by name, each with a description") {
    CHECK(position_kind_names() == "none, sinusoidal, learned, rope, alibi, t5, rope-pi, rope-ntk, rope-yarn, rope-partial");
    for (const PositionKind* k : position_kinds()) {
      CHECK(&find_position_kind(k->name) == k);
      CHECK(std::string(k->description).size() > 20);
      CHECK(k->make != nullptr);
    }
  }
  SECTION("an unknown name lists the known ones") {
    REQUIRE_THROWS_WITH(find_position_kind("spiral"),
                        "position kind: unknown kind 'spiral', expected one of none, sinusoidal, learned, rope, alibi, t5, rope-pi, rope-ntk, rope-yarn, rope-partial");
  }
  SECTION("defaults are filled in and every default is within its own range") {
    for (const PositionKind* k : position_kinds()) {
      const PositionValues v = k->resolve("test", {});
      CHECK(v.size() == k->params.size());
      for (const PositionParam& p : k->params) CHECK((p.def >= p.min && p.def <= p.max));
    }
  }
  SECTION("none has no table") {
    Generator g(0);
    REQUIRE_THROWS_WITH(find_position_kind("none").table({4, 4, 1}, {}, g), "none: kind 'none' has no table");
  }
}

TEST_CASE("position similarity", "[positional]") {
  SECTION("cosine similarity of sinusoidal rows is 1 on the diagonal and symmetric") {
    const auto pe = sinusoidal(10, 16);
    const auto s = position_similarity(pe, 10, 16, true);
    for (int i = 0; i < 10; ++i) {
      CHECK(s[i * 10 + i] == Approx(1.0).epsilon(1e-6));
      for (int j = 0; j < 10; ++j) CHECK(s[i * 10 + j] == s[j * 10 + i]);
    }
  }
}

TEST_CASE("Positional tables and similarities are planned in 64 bits", "[positional][memory]") {
  testing::WasmLimits wasm;

  SECTION("the table size is checked against T x D in 64 bits (T = 2^32 + 1 would wrap to 1)") {
    REQUIRE_THROWS_WITH(position_similarity(std::vector<float>(1), (int64_t{1} << 32) + 1, 1, false),
                        "position_similarity: table has 1 values, expected 4294967297 x 1");
    REQUIRE_THROWS_WITH(position_similarity(std::vector<float>(1), -1, 1, false),
                        "position_similarity: positions must be >= 0, got -1");
  }

  SECTION("the T x T output is planned (the page's T = 65536)") {
    const std::vector<float> table(65536, 0.5f);
    REQUIRE_THROWS_WITH(position_similarity(table, 65536, 1, true),
                        "position_similarity: similarity matrix 65536 x 65536 float32 need 16.0 GiB; "
                        "the limit here is 2.0 GiB");
  }

  SECTION("tables past the limit are refused by name") {
    REQUIRE_THROWS_WITH(sinusoidal(1 << 20, 1024),
                        "sinusoidal: position table 1048576 x 1024 float32 need 4.0 GiB; the limit here is 2.0 GiB");
    REQUIRE_THROWS_WITH(rope_table(1 << 20, 1024),
                        "rope: position table 1048576 x 1024 float32 need 4.0 GiB; the limit here is 2.0 GiB");
    REQUIRE_THROWS_WITH(kind_table("alibi", 1 << 14, 0, 16),
                        "alibi: bias tensor 16 x 16384 x 16384 float32 need 16.0 GiB; the limit here is 2.0 GiB");
    Generator g(0);
    REQUIRE_THROWS_WITH(LearnedPositions(1 << 20, 1024, g),
                        "LearnedPositions: position table 1048576 x 1024 float32 need 4.0 GiB; the limit here is 2.0 GiB");
    LearnedPositions lp(4, 1 << 20, g);
    REQUIRE_THROWS_WITH(lp.forward(std::vector<int32_t>(1024, 0)),
                        "learned positions: output 1024 x 1048576 float32 need 4.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("rope_apply checks offset and x without overflowing offset + T") {
    std::vector<float> x(8, 1.0f);
    REQUIRE_THROWS_WITH(rope_apply(x.data(), 2, 4, INT64_MAX), "rope: offset 9223372036854775807 out of range [0, 1048576]");
    REQUIRE_THROWS_WITH(rope_apply(x.data(), 2, 4, (1 << 20) - 1), "rope: positions 1048577 out of range [0, 1048576]");
    REQUIRE_THROWS_WITH(rope_apply(std::span<float>(x), 3, 4), "rope: x has 8 values, expected 3 x 4");
    std::vector<float> y = x;
    rope_apply(std::span<float>(x), 2, 4, 3);
    rope_apply(y.data(), 2, 4, 3);
    CHECK(x == y);
  }
}
