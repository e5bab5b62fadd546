// Generator: torch.manual_seed(s) + nn.Embedding / nn.Linear draws, against
// tests/reference/torch_embedding_init.json (torch 1.13.1) and the seed notebooks.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/detmath.hpp"
#include "core/rng.hpp"
#include "embed/embedding.hpp"
#include "embed/linear.hpp"
#include "reference.hpp"

using namespace embedlab;
using embedlab::testing::flatten;
using embedlab::testing::load_reference;
using embedlab::testing::max_abs_diff;

// Tolerance: the numel >= 16 path differs from torch's AVX2 build (Sleef float
// transcendentals) by up to ~2.4e-6; the bound is 1e-5.
constexpr double kTorchTol = 1e-5;

TEST_CASE("Generator reproduces torch's nn.Embedding init", "[rng]") {
  const auto ref = load_reference("torch_embedding_init.json");

  SECTION("every reference table matches within 1e-5, on both code paths") {
    for (const auto& e : ref["embedding"]) {
      const int64_t V = e["num_embeddings"], D = e["embedding_dim"];
      Generator g(e["seed"].get<uint64_t>());
      Embedding emb(V, D, g);
      const auto& w = emb.weight();
      INFO("seed " << e["seed"] << " " << V << "x" << D << " path " << e["path"]);
      if (e.contains("values")) {
        CHECK(max_abs_diff(flatten(e["values"]), w.data(), w.size()) < kTorchTol);
      } else {
        const auto first = flatten(e["first_rows"]);
        CHECK(max_abs_diff(first, w.data(), first.size()) < kTorchTol);
        const auto last = flatten(e["last_row"]);
        CHECK(max_abs_diff(last, w.data() + (V - 1) * D, last.size()) < kTorchTol);
      }
      double sum = 0, sum_sq = 0;
      for (float v : w) sum += v, sum_sq += double(v) * v;
      CHECK(sum == Approx(e["sum"].get<double>()).margin(1e-5 * w.size()));
      CHECK(sum_sq == Approx(e["sum_sq"].get<double>()).epsilon(1e-5));
    }
  }

  SECTION("tables with fewer than 16 values match torch's scalar path exactly") {
    for (const auto& e : ref["embedding"]) {
      if (e["numel"].get<int>() >= 16) continue;
      Generator g(e["seed"].get<uint64_t>());
      Embedding emb(e["num_embeddings"], e["embedding_dim"], g);
      const auto want = flatten(e["values"]);
      for (size_t i = 0; i < want.size(); ++i) CHECK(emb.weight()[i] == static_cast<float>(want[i]));
    }
  }

  SECTION("the seed notebooks' printed numbers come out") {
    Generator g42(42);
    Embedding a(6, 3, g42);  // seed 002: first row 1.9269, 1.4873, -0.4974
    CHECK(a.weight()[0] == Approx(1.9269).margin(5e-5));
    CHECK(a.weight()[1] == Approx(1.4873).margin(5e-5));
    CHECK(a.weight()[2] == Approx(-0.4974).margin(5e-5));
    Generator g0(0);
    Embedding b(10, 4, g0);  // seed 004: [-1.1258, -1.1524, -0.2506, -0.4339], last [-0.5181, -0.3067, -1.5810, 1.7066]
    CHECK(b.weight()[0] == Approx(-1.1258).margin(5e-5));
    CHECK(b.weight()[39] == Approx(1.7066).margin(5e-5));
    Generator g123(123);
    Embedding c(6, 3, g123);  // LLMs-from-scratch ch02: [[0.3374,-0.1778,-0.1690],...,[-2.8400,-0.7849,-1.4096]]
    CHECK(c.weight()[0] == Approx(0.3374).margin(5e-5));
    CHECK(c.weight()[2] == Approx(-0.1690).margin(5e-5));
    CHECK(c.weight()[15] == Approx(-2.8400).margin(5e-5));
    CHECK(c.weight()[17] == Approx(-1.4096).margin(5e-5));
  }

  SECTION("a 16-or-more table is not a prefix of a longer draw (the tail block is redrawn)") {
    Generator g1(42), g2(42);
    std::vector<float> a(18), b(32);
    g1.normal(a.data(), a.size());
    g2.normal(b.data(), b.size());
    CHECK(a[0] == b[0]);
    CHECK(a[1] == b[1]);
    CHECK(a[2] != b[2]);
  }
}

TEST_CASE("Generator reproduces nn.Linear and sequential draws", "[rng]") {
  const auto ref = load_reference("torch_embedding_init.json");

  SECTION("nn.Linear(4, 5, bias=False).weight after manual_seed(123) matches exactly") {
    const auto& l = ref["linear"][0];
    Generator g(l["seed"].get<uint64_t>());
    Linear lin(l["in_features"], l["out_features"], g);
    const auto want = flatten(l["values"]);
    REQUIRE(lin.weight().size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(lin.weight()[i] == static_cast<float>(want[i]));
  }

  SECTION("a token table then a position table from one generator match torch") {
    const auto& s = ref["sequential_tok_pos"];
    Generator g(s["seed"].get<uint64_t>());
    Embedding tok(50257, 256, g);
    Embedding pos(4, 256, g);
    for (const auto* part : {&s["tok"], &s["pos"]}) {
      const Embedding& e = part == &s["tok"] ? tok : pos;
      const auto first = flatten((*part)["first_rows"]);
      CHECK(max_abs_diff(first, e.weight().data(), first.size()) < kTorchTol);
      const auto last = flatten((*part)["last_row"]);
      CHECK(max_abs_diff(last, e.weight().data() + (e.rows() - 1) * 256, last.size()) < kTorchTol);
      double sum = 0;
      for (float v : e.weight()) sum += v;
      // every value is within ~2e-6 of torch's, so the sum is within 2e-6 * numel
      // (measured: 0.23 apart over 12.9M values, a bias of 1.8e-8 per value from Sleef's logf/sinf).
      CHECK(sum == Approx((*part)["sum"].get<double>()).margin(2e-6 * e.weight().size()));
    }
  }

  SECTION("the scalar path's cached sample carries over to the next small table") {
    // manual_seed(5); Embedding(3,3) uses 9 scalar normals (5 pairs, one cached), then
    // Embedding(1,3) must start from that cached value, as torch does.
    Generator a(5), b(5);
    std::vector<float> t1(9), t2(3), all(12);
    a.normal(t1.data(), 9);
    a.normal(t2.data(), 3);
    for (int i = 0; i < 12; ++i) b.normal(&all[i], 1);
    for (int i = 0; i < 9; ++i) CHECK(t1[i] == all[i]);
    for (int i = 0; i < 3; ++i) CHECK(t2[i] == all[9 + i]);
  }

  SECTION("manual_seed resets the stream") {
    Generator g(7);
    const uint32_t first = g.random();
    g.random();
    g.manual_seed(7);
    CHECK(g.random() == first);
  }
}

TEST_CASE("detmath agrees with libm to within an ulp or two", "[rng][detmath]") {
  SECTION("log over many magnitudes") {
    for (double x : {1e-300, 2.4e-7, 0.1, 0.5, 0.70710678, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e300}) {
      CHECK(detmath::log(x) == Approx(std::log(x)).epsilon(1e-15).margin(1e-300));
    }
    CHECK(detmath::log(1.0) == 0.0);
  }
  SECTION("exp") {
    for (double x : {-700.0, -20.0, -1.0, -1e-10, 0.0, 0.5, 1.0, 7.5, 300.0}) {
      CHECK(detmath::exp(x) == Approx(std::exp(x)).epsilon(1e-15));
    }
  }
  SECTION("sincos in radians and in turns") {
    for (double x : {0.0, 1e-9, 0.3, 1.0, 3.14159, 6.0, 100.0, 1000.5, 300000.0}) {
      double s, c;
      detmath::sincos(x, &s, &c);
      CHECK(s == Approx(std::sin(x)).margin(1e-13));
      CHECK(c == Approx(std::cos(x)).margin(1e-13));
    }
    for (double u : {0.0, 0.125, 0.25, 0.3, 0.5, 0.75, 0.999999}) {
      double s, c;
      detmath::sincos_turns(u, &s, &c);
      CHECK(s == Approx(std::sin(2 * M_PI * u)).margin(1e-15));
      CHECK(c == Approx(std::cos(2 * M_PI * u)).margin(1e-15));
    }
  }
}
