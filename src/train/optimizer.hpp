// Optimizers for the next-token model: SGD, Adam and AdamW, as torch.optim (1.13) computes them.
//
//   SGD:   g' = g + wd*p;  p <- p - lr*g'
//   Adam:  (Kingma & Ba 2015, Algorithm 1; torch.optim.Adam, weight decay as L2: g' = g + wd*p)
//          m <- b1*m + (1-b1)*g'          v <- b2*v + (1-b2)*g'*g'
//          p <- p - (lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
//   AdamW: (Loshchilov & Hutter 2019, Algorithm 2, decoupled weight decay; torch.optim.AdamW)
//          p <- p * (1 - lr*wd), then the Adam update with g' = g.
// b1^t and b2^t are running products in double (no pow), so the update is deterministic;
// per element the arithmetic is float, in the order written above.
// Does not: schedule the learning rate, clip gradients, or keep sparse (lazy) moments: a
// parameter whose gradient is zero still moves under Adam's momentum, as torch's dense Adam.
//
// Intended usage:
//   Optimizer opt(settings);            // one per model
//   ParamState& s = opt.state(0, n);    // per parameter tensor, by index
//   opt.begin_step();                   // t <- t + 1
//   opt.update(param, grad, n, s);      // for each tensor
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

class CheckpointWriter;
class CheckpointReader;

enum class OptimizerKind { Sgd, Adam, AdamW };
// "sgd" | "adam" | "adamw"; throws "optimizer: unknown kind 'x', expected sgd, adam or adamw".
OptimizerKind parse_optimizer_kind(const std::string& name);
const char* optimizer_kind_name(OptimizerKind k);

struct OptimizerSettings {
  OptimizerKind kind = OptimizerKind::Adam;
  double lr = 1e-3;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0;  // see default_weight_decay
};

// torch's defaults: 0 for SGD and Adam, 0.01 for AdamW.
double default_weight_decay(OptimizerKind k);

// Throws "optimizer: learning rate must be finite and > 0, got nan" and the like.
void validate(const OptimizerSettings& s);

struct ParamState {
  std::vector<float> m, v;  // Adam moments (empty for SGD)
};

class Optimizer {
 public:
  explicit Optimizer(const OptimizerSettings& s);
  const OptimizerSettings& settings() const { return s_; }
  int64_t steps() const { return t_; }
  ParamState& state(size_t index, size_t n);
  void begin_step();
  // p (n) updated in place from g (n).
  void update(float* p, const float* g, size_t n, ParamState& st) const;
  // SGD on the listed rows only (row width D): equal to the dense update when the other
  // rows' gradients are zero and weight_decay is 0 (p - lr*0 == p).
  void update_rows(float* p, const float* g, size_t D, const std::vector<int32_t>& rows) const;
  void reset();
  // Checkpoints (train/checkpoint.hpp): t, the running beta products and every allocated
  // moment, as records "optimizer.t", "optimizer.b1t", "optimizer.b2t", "optimizer.m.<i>",
  // "optimizer.v.<i>"; load() restores them for parameters of the given sizes (by index).
  void save(CheckpointWriter& w) const;
  void load(const CheckpointReader& r, std::span<const size_t> sizes);

 private:
  OptimizerSettings s_;
  int64_t t_ = 0;
  double b1t_ = 1, b2t_ = 1;
  std::vector<ParamState> states_;
};

}  // namespace embedlab
