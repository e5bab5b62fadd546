// The RoPE scalings rope-pi, rope-ntk, rope-yarn and rope-partial (src/embed/positions/rope_*.cpp):
// each pair's frequency, the factor on the attention logits and the (cos, sin) table against
// tests/reference/rope_scaling.json (scripts/gen-rope-scaling-reference.py: the PI and YaRN
// papers and HF transformers' NTK-aware and YaRN formulas, numpy float64) at 1e-6; the
// parameter checks; and that the scalings share RoPE's rotation.
#include <catch2/catch.hpp>
#include <cmath>

#include "embed/positional.hpp"
#include "embed/positions/rope.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

PositionValues values_of(const nlohmann::json& params) {
  PositionValues v;
  for (const auto& [name, value] : params.items()) v[name] = value.get<double>();
  return v;
}

}  // namespace

TEST_CASE("RoPE scalings match the published formulas", "[rope-scaling]") {
  const auto ref = embedlab::testing::load_reference("rope_scaling.json");
  REQUIRE(ref["cases"].size() >= 12);
  int per_kind[4] = {0, 0, 0, 0};
  const char* names[4] = {"rope-pi", "rope-ntk", "rope-yarn", "rope-partial"};
  for (const auto& c : ref["cases"]) {
    const PositionKind& kind = find_position_kind(c["kind"].get<std::string>());
    for (int k = 0; k < 4; ++k) per_kind[k] += std::string(names[k]) == kind.name;
    const int64_t D = c["dim"], T = c["positions"];
    const PositionValues v = kind.resolve("test", values_of(c["params"]));
    INFO(kind.name << " D " << D << " params " << c["params"].dump());
    REQUIRE(kind.inv_freq != nullptr);

    const std::vector<double> want_w = c["inv_freq"].get<std::vector<double>>();
    const std::vector<double> w = kind.inv_freq(D, v);
    REQUIRE(w.size() == want_w.size());
    double worst = 0;  // relative: the slow pairs' frequencies are far below 1e-6
    for (size_t i = 0; i < w.size(); ++i) worst = std::max(worst, std::abs(w[i] - want_w[i]) / std::max(want_w[i], 1e-300));
    for (size_t i = 0; i < w.size(); ++i) {
      if (want_w[i] == 0) CHECK(w[i] == 0.0);  // rope-partial's unrotated pairs
    }
    CHECK(worst < 1e-6);

    const double scale = kind.attention_scale ? kind.attention_scale(v) : 1.0;
    CHECK(scale == Approx(c["attention_scale"].get<double>()).epsilon(1e-12));

    Generator g(0);
    const PositionTable t = kind.table({T, D, 1}, v, g);
    REQUIRE(t.shape == std::vector<int64_t>{T, D});
    const std::vector<double> want_t = c["table"].get<std::vector<double>>();
    REQUIRE(want_t.size() == t.data.size());
    CHECK(embedlab::testing::max_abs_diff(want_t, t.data.data(), t.data.size()) < 1e-6);
  }
  for (int k = 0; k < 4; ++k) {
    INFO(names[k]);
    CHECK(per_kind[k] >= 3);
  }
}

TEST_CASE("RoPE scalings share RoPE's rotation", "[rope-scaling]") {
  Generator g(0);
  SECTION("factor 1 is plain RoPE for rope-pi, rope-ntk and rope-yarn, and fraction 1 for rope-partial") {
    const PositionTable rope = find_position_kind("rope").table({9, 10, 1}, {{"base", 500}}, g);
    for (const char* name : {"rope-pi", "rope-ntk", "rope-yarn"}) {
      INFO(name);
      CHECK(find_position_kind(name).table({9, 10, 1}, {{"base", 500}, {"factor", 1}}, g).data == rope.data);
    }
    CHECK(find_position_kind("rope-partial").table({9, 10, 1}, {{"base", 500}, {"fraction", 1}}, g).data == rope.data);
  }
  SECTION("rope-pi at position p equals RoPE at p / factor when that is a whole position") {
    const PositionTable pi = find_position_kind("rope-pi").table({9, 6, 1}, {{"factor", 4}}, g);
    const std::vector<float> rope = rope_table(3, 6);
    for (int64_t d = 0; d < 6; ++d) CHECK(pi.data[8 * 6 + d] == Approx(rope[2 * 6 + d]).margin(1e-7));
  }
  SECTION("rope-partial leaves the slowest pairs of a vector as they were") {
    const auto& kind = find_position_kind("rope-partial");
    const PositionValues v = kind.resolve("test", {{"fraction", 0.5}});
    std::unique_ptr<PositionEncoding> enc = kind.make({3, 8, 1}, v, g);
    std::vector<float> x(3 * 8);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.1f * static_cast<float>(i) - 1.0f;
    const std::vector<float> before = x;
    enc->rotate(x.data(), 1, false);
    for (int64_t t = 1; t < 3; ++t) {
      for (int64_t d = 4; d < 8; ++d) CHECK(x[t * 8 + d] == before[t * 8 + d]);  // pairs 2, 3: frequency 0
      CHECK(x[t * 8 + 0] != before[t * 8 + 0]);
    }
    enc->rotate(x.data(), 1, true);
    for (size_t i = 0; i < x.size(); ++i) CHECK(x[i] == Approx(before[i]).margin(1e-6));
  }
  SECTION("rope_apply with a kind's inv_freq is the one rotation: RoPE's bits at its own frequencies, sizes checked") {
    std::vector<float> x(2 * 6), y;
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.3f * static_cast<float>(i) - 1.2f;
    y = x;
    rope_apply(std::span<float>(x), 2, 6, 5, 500.0);
    const auto& rope = find_position_kind("rope");
    rope_apply(std::span<float>(y), 2, 6, 5, rope.inv_freq(6, rope.resolve("test", {{"base", 500}})));
    CHECK(x == y);
    std::vector<float> z(2 * 6);
    const std::vector<double> short_freq(2, 1.0);
    REQUIRE_THROWS_WITH(rope_apply(std::span<float>(z), 2, 6, 0, short_freq), "rope: inv_freq has 2 values, expected D / 2 = 3");
    REQUIRE_THROWS_WITH(rope_apply(std::span<float>(z.data(), 6), 2, 6, 0, std::span<const double>(short_freq)),
                        "rope: x has 6 values, expected 2 x 6");
  }
  SECTION("the model's part carries rope-yarn's attention scale, 1 for the others") {
    const auto& yarn = find_position_kind("rope-yarn");
    CHECK(yarn.make({4, 8, 1}, yarn.resolve("test", {{"factor", 4}}), g)->attention_scale() ==
          Approx(std::pow(0.1 * std::log(4.0) + 1, 2)).epsilon(1e-12));
    for (const char* name : {"rope", "rope-pi", "rope-ntk", "rope-partial"}) {
      const auto& k = find_position_kind(name);
      CHECK(k.make({4, 8, 1}, k.resolve("test", {}), g)->attention_scale() == 1.0);
    }
  }
}

TEST_CASE("RoPE scalings refuse bad parameters with the value and the limit", "[rope-scaling]") {
  Generator g(0);
  REQUIRE_THROWS_WITH(find_position_kind("rope-pi").resolve("posenc", {{"factor", 0.5}}),
                      "posenc: rope-pi factor 0.5 must be a number in [1, 1024]");
  REQUIRE_THROWS_WITH(find_position_kind("rope-partial").resolve("posenc", {{"fraction", 1.5}}),
                      "posenc: rope-partial fraction 1.5 must be a number in [0, 1]");
  REQUIRE_THROWS_WITH(find_position_kind("rope-yarn").table({4, 8, 1}, {{"beta_fast", 2}, {"beta_slow", 3}}, g),
                      "rope-yarn: beta_slow 3 must be below beta_fast 2");
  REQUIRE_THROWS_WITH(find_position_kind("rope-ntk").table({4, 2, 1}, {}, g),
                      "rope-ntk: dim must be at least 4 (the base grows by factor^(D/(D-2))), got 2");
  REQUIRE_THROWS_WITH(find_position_kind("rope-yarn").table({4, 7, 1}, {}, g), "rope-yarn: dim must be even, got 7");
}
