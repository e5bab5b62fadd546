// Optimizer steps (train/optimizer.hpp) against torch 1.13's torch.optim.SGD, Adam and AdamW on
// a small embedding table with fixed gradients (tests/reference/optimizer_torch.json, written by
// scripts/gen-optimizer-reference.py): the table after every step, and Adam's moments after the
// last. The arithmetic is float32 in torch's order, so the tolerance is a few float32 ulps:
// |ours - torch| <= 4e-7 * max(1, |torch|) for every value.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "reference.hpp"
#include "train/optimizer.hpp"

using namespace embedlab;

namespace {

// The largest |a - b| / max(1, |b|) over the values.
double worst(const std::vector<float>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double w = 0;
  for (size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(static_cast<double>(a[i]) - b[i]) / std::max(1.0, std::abs(b[i])));
  return w;
}

}  // namespace

TEST_CASE("optimizer steps equal torch.optim SGD, Adam and AdamW", "[optimizer][reference]") {
  const nlohmann::json ref = testing::load_reference("optimizer_torch.json");
  constexpr double kTolerance = 4e-7;
  int cases = 0;
  for (const auto& c : ref["cases"]) {
    const std::string kind = c["kind"];
    INFO(kind << " lr " << c["lr"].get<double>() << " weight_decay " << c["weight_decay"].get<double>());
    OptimizerSettings s;
    s.kind = parse_optimizer_kind(kind);
    s.lr = c["lr"];
    s.weight_decay = c["weight_decay"];
    Optimizer opt(s);
    const std::vector<double> init = c["init"];
    std::vector<float> table(init.begin(), init.end());
    ParamState& st = opt.state(0, table.size());
    for (size_t step = 0; step < c["grads"].size(); ++step) {
      INFO("step " << step + 1);
      const std::vector<double> g64 = c["grads"][step];
      const std::vector<float> grad(g64.begin(), g64.end());
      opt.begin_step();
      opt.update(table.data(), grad.data(), table.size(), st);
      CHECK(worst(table, c["after"][step]) <= kTolerance);
    }
    if (kind != "sgd") {
      CHECK(worst(st.m, c["exp_avg"]) <= kTolerance);
      CHECK(worst(st.v, c["exp_avg_sq"]) <= kTolerance);
    }
    ++cases;
  }
  CHECK(cases == 6);

  SECTION("SGD on the touched rows only equals the dense step when the other rows' gradient is 0") {
    for (const auto& c : ref["cases"]) {
      if (c["kind"] != "sgd" || c["weight_decay"].get<double>() != 0) continue;
      OptimizerSettings s;
      s.kind = OptimizerKind::Sgd;
      s.lr = c["lr"];
      Optimizer opt(s);
      const std::vector<double> init = c["init"];
      std::vector<float> table(init.begin(), init.end());
      const size_t D = c["D"], V = c["V"];
      for (size_t step = 0; step < c["grads"].size(); ++step) {
        const std::vector<double> g64 = c["grads"][step];
        const std::vector<float> grad(g64.begin(), g64.end());
        std::vector<int32_t> rows;  // the rows whose gradient is not all zero
        for (size_t r = 0; r < V; ++r) {
          bool touched = false;
          for (size_t j = 0; j < D; ++j) touched = touched || grad[r * D + j] != 0.0f;
          if (touched) rows.push_back(static_cast<int32_t>(r));
        }
        opt.begin_step();
        opt.update_rows(table.data(), grad.data(), D, rows);
        CHECK(worst(table, c["after"][step]) <= kTolerance);
      }
    }
  }
}
