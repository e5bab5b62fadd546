// Positional kind "learned": a trainable (T, D) table added to the token rows, drawn like
// nn.Embedding(T, D) (GPT-2's wpe). Backward: dP[t] = sum_b dx0[b, t]. No rows exist past T,
// so the model cannot run on longer windows than it was made for.
#include "embed/positions/learned.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "embed/positions/registry.hpp"
#include "kernels/kernels.hpp"

namespace embedlab {

LearnedPositions::LearnedPositions(int64_t context_length, int64_t D, Generator& g)
    : T_(context_length), D_(D) {
  check_at_least("LearnedPositions", "context_length", context_length, 1);
  check_at_least("LearnedPositions", "dim", D, 1);
  P_.resize(plan("LearnedPositions", "position table", {context_length, D}, kFloat32));
  g.normal(P_.data(), P_.size());
}

std::vector<float> LearnedPositions::forward(int64_t T) const {
  if (T > T_) {
    fail("learned positions", "position " + std::to_string(T - 1) + " out of range [0, " +
                                  std::to_string(T_) + "): the table was made for context_length " +
                                  std::to_string(T_));
  }
  check_at_least("learned positions", "positions", T, 0);
  return std::vector<float>(P_.begin(), P_.begin() + T * D_);
}

std::vector<float> LearnedPositions::forward(std::span<const int32_t> positions) const {
  std::vector<float> out(
      plan("learned positions", "output", {static_cast<int64_t>(positions.size()), D_}, kFloat32));
  for (size_t i = 0; i < positions.size(); ++i) {
    check_index("learned positions", "position", positions[i], 0, T_);
    std::copy_n(P_.begin() + positions[i] * D_, D_, out.begin() + i * D_);
  }
  return out;
}

namespace {

class Learned : public PositionEncoding {
 public:
  Learned(const PositionShape& s, Generator& g) : T_(s.T), D_(s.D) {
    P_.resize(static_cast<size_t>(s.T * s.D));  // planned by the kind's plan()
    g.normal(P_.data(), P_.size());
    dP_.assign(P_.size(), 0.0f);
  }
  const float* additive() const override { return P_.data(); }
  void zero_grad() override { std::fill(dP_.begin(), dP_.end(), 0.0f); }
  // dP[t] = sum_b dx0[b, t]
  void backward_additive(const float* dx0, int64_t rows) override {
    std::fill(dP_.begin(), dP_.end(), 0.0f);
    for (int64_t b = 0; b < rows; ++b)
      for (int64_t t = 0; t < T_; ++t) kernels::axpy(D_, 1.0f, dx0 + (b * T_ + t) * D_, dP_.data() + t * D_);
  }
  std::vector<ParamView> params() override { return {{"position", P_.data(), dP_.data(), P_.size(), T_, D_}}; }
  const std::vector<float>* table(int64_t* rows, int64_t* cols) const override {
    *rows = T_, *cols = D_;
    return &P_;
  }

 private:
  int64_t T_, D_;
  std::vector<float> P_, dP_;  // (T, D) each
};

}  // namespace

const PositionKind& learned_positions() {
  static const PositionKind k{
      .name = "learned",
      .label = "learned absolute",
      .description = "A trained (T, D) table added to the token rows, like GPT-2's wpe; no rows past the context T.",
      .provides = PositionRole::Additive,
      .params = {},
      .trainable = true,
      .even_dim = false,
      .extrapolates = false,
      .plan = [](MemoryPlan& p, const PositionShape& s, const PositionValues&, int moments) {
        p.add("position table", {s.T, s.D}, kFloat32);
        p.add("position table gradient", {s.T, s.D}, kFloat32);
        if (moments >= 1) p.add("position table Adam moment m", {s.T, s.D}, kFloat32);
        if (moments >= 2) p.add("position table Adam moment v", {s.T, s.D}, kFloat32);
      },
      .make = [](const PositionShape& s, const PositionValues&, Generator& g) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Learned>(s, g);
      },
      .draw = [](const PositionShape& s, const PositionValues&, Generator& g) {
        return PositionTable{{s.T, s.D}, LearnedPositions(s.T, s.D, g).table()};
      },
  };
  return k;
}

}  // namespace embedlab
