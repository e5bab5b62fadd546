#include "train/optimizer.hpp"

#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "train/checkpoint.hpp"
#include "train/train_stats.hpp"

namespace embedlab {

OptimizerKind parse_optimizer_kind(const std::string& name) {
  if (name == "sgd") return OptimizerKind::Sgd;
  if (name == "adam") return OptimizerKind::Adam;
  if (name == "adamw") return OptimizerKind::AdamW;
  fail("optimizer", "unknown kind '" + name + "', expected sgd, adam or adamw");
}

const char* optimizer_kind_name(OptimizerKind k) {
  switch (k) {
    case OptimizerKind::Sgd: return "sgd";
    case OptimizerKind::Adam: return "adam";
    case OptimizerKind::AdamW: return "adamw";
  }
  return "?";
}

double default_weight_decay(OptimizerKind k) { return k == OptimizerKind::AdamW ? 0.01 : 0.0; }

void validate(const OptimizerSettings& s) {
  if (!std::isfinite(s.lr) || s.lr <= 0) {
    fail("optimizer", "learning rate must be finite and > 0, got " + format_rate(s.lr));
  }
  if (!(s.beta1 >= 0 && s.beta1 < 1)) fail("optimizer", "beta1 must be in [0, 1), got " + format_rate(s.beta1));
  if (!(s.beta2 >= 0 && s.beta2 < 1)) fail("optimizer", "beta2 must be in [0, 1), got " + format_rate(s.beta2));
  if (!std::isfinite(s.eps) || s.eps <= 0) fail("optimizer", "eps must be finite and > 0, got " + format_rate(s.eps));
  if (!std::isfinite(s.weight_decay) || s.weight_decay < 0) {
    fail("optimizer", "weight decay must be finite and >= 0, got " + format_rate(s.weight_decay));
  }
}

Optimizer::Optimizer(const OptimizerSettings& s) : s_(s) { validate(s_); }

ParamState& Optimizer::state(size_t index, size_t n) {
  if (states_.size() <= index) states_.resize(index + 1);
  ParamState& st = states_[index];
  if (s_.kind != OptimizerKind::Sgd && st.m.size() != n) {
    MemoryPlan p("optimizer");
    p.add("Adam moment m", {static_cast<int64_t>(n)}, kFloat32);
    p.add("Adam moment v", {static_cast<int64_t>(n)}, kFloat32);
    p.check();
    st.m.assign(n, 0.0f);
    st.v.assign(n, 0.0f);
  }
  return st;
}

void Optimizer::begin_step() {
  ++t_;
  b1t_ *= s_.beta1;
  b2t_ *= s_.beta2;
}

void Optimizer::reset() {
  t_ = 0;
  b1t_ = b2t_ = 1;
  states_.clear();
}

void Optimizer::save(CheckpointWriter& w) const {
  w.i64("optimizer.t", t_);
  w.f64("optimizer.b1t", b1t_);
  w.f64("optimizer.b2t", b2t_);
  w.i64("optimizer.states", static_cast<int64_t>(states_.size()));
  for (size_t i = 0; i < states_.size(); ++i) {
    w.floats("optimizer.m." + std::to_string(i), states_[i].m);
    w.floats("optimizer.v." + std::to_string(i), states_[i].v);
  }
}

void Optimizer::load(const CheckpointReader& r, std::span<const size_t> sizes) {
  reset();
  // before the first step no state exists; after it, one per parameter (SGD's are empty)
  const int64_t count = r.count("optimizer.states", 0, static_cast<int64_t>(sizes.size()));
  if (count != 0 && count != static_cast<int64_t>(sizes.size())) {
    fail("checkpoint", "optimizer.states " + std::to_string(count) + " must be 0 or the " + std::to_string(sizes.size()) + " parameters of this model");
  }
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    ParamState& st = state(i, sizes[i]);
    r.floats("optimizer.m." + std::to_string(i), st.m);
    r.floats("optimizer.v." + std::to_string(i), st.v);
  }
  t_ = r.count("optimizer.t", 0, kMaxSteps);
  b1t_ = r.f64("optimizer.b1t");
  b2t_ = r.f64("optimizer.b2t");
  // beta^t: in [0, 1]
  for (const auto& [name, v] : {std::pair{"optimizer.b1t", b1t_}, {"optimizer.b2t", b2t_}}) {
    if (!(v >= 0.0 && v <= 1.0)) fail("checkpoint", std::string(name) + " " + format_number(v) + " out of range [0, 1]");
  }
}

void Optimizer::update(float* p, const float* g, size_t n, ParamState& st) const {
  const float lr = static_cast<float>(s_.lr), wd = static_cast<float>(s_.weight_decay);
  if (s_.kind == OptimizerKind::Sgd) {
    if (wd != 0) {
      for (size_t i = 0; i < n; ++i) p[i] = p[i] - lr * (g[i] + wd * p[i]);
    } else {
      for (size_t i = 0; i < n; ++i) p[i] = p[i] - lr * g[i];
    }
    return;
  }
  const float b1 = static_cast<float>(s_.beta1), b2 = static_cast<float>(s_.beta2);
  const float c1 = static_cast<float>(1.0 - s_.beta1), c2 = static_cast<float>(1.0 - s_.beta2);
  const float step_size = static_cast<float>(s_.lr / (1.0 - b1t_));
  const float bc2_sqrt = static_cast<float>(std::sqrt(1.0 - b2t_));
  const float eps = static_cast<float>(s_.eps);
  const bool decoupled = s_.kind == OptimizerKind::AdamW;
  const float decay = static_cast<float>(1.0 - s_.lr * s_.weight_decay);
  float* m = st.m.data();
  float* v = st.v.data();
  for (size_t i = 0; i < n; ++i) {
    float gi = g[i];
    float pi = p[i];
    if (decoupled) pi = pi * decay;
    else if (wd != 0) gi = gi + wd * pi;
    m[i] = m[i] * b1 + gi * c1;
    v[i] = v[i] * b2 + (gi * gi) * c2;
    const float denom = std::sqrt(v[i]) / bc2_sqrt + eps;
    p[i] = pi - step_size * (m[i] / denom);
  }
}

void Optimizer::update_rows(float* p, const float* g, size_t D, const std::vector<int32_t>& rows) const {
  const float lr = static_cast<float>(s_.lr);
  for (int32_t r : rows) {
    float* pr = p + static_cast<size_t>(r) * D;
    const float* gr = g + static_cast<size_t>(r) * D;
    for (size_t j = 0; j < D; ++j) pr[j] = pr[j] - lr * gr[j];
  }
}

}  // namespace embedlab
