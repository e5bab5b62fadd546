// Test helpers for the next-token trainer (train/next_token.hpp), shared by the next-token,
// fine-tune, checkpoint and generate tests: a small model's settings, an id stream where order
// matters, and every parameter of a run in one vector (to compare runs bit for bit).
// It does not train or check anything itself.
//   NextTokenTrainer tr(cyclic(11, 1200), small_settings(11, 8, "rope", 3));
//   tr.step(30);
//   CHECK(same_bits(all_params(tr), all_params(other)));
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "train/next_token.hpp"
#include "train/optimizer.hpp"

namespace embedlab::testing {

// n ids of the repeated pattern (i * 7 + i / 5) mod V: which id follows which depends on the
// position, so a model with positions beats one without.
// Example: cyclic(11, 4) -> {0, 7, 3, 10}.
inline std::vector<int32_t> cyclic(int32_t V, size_t n) {
  std::vector<int32_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = static_cast<int32_t>((i * 7 + i / 5) % static_cast<size_t>(V));
  return ids;
}

// A small model: V rows, D 8, context T, kind pos, init seed; B 4; opt with lr 0.1 for SGD and
// 0.01 otherwise, and torch's default weight decay for opt (default_weight_decay).
inline NextTokenSettings small_settings(int64_t V, int64_t T, const std::string& pos, uint64_t seed,
                                        OptimizerKind opt = OptimizerKind::Adam) {
  NextTokenSettings s;
  s.model.vocab_size = V;
  s.model.dim = 8;
  s.model.context = T;
  s.model.pos = pos;
  s.model.seed = seed;
  s.batch_size = 4;
  s.optimizer.kind = opt;
  s.optimizer.lr = opt == OptimizerKind::Sgd ? 0.1 : 0.01;
  s.optimizer.weight_decay = default_weight_decay(opt);
  return s;
}

// Every parameter of the trainer's model, in params() order: (sum of the params' sizes) float32.
inline std::vector<float> all_params(NextTokenTrainer& tr) {
  std::vector<float> out;
  for (const ParamView& p : tr.model().params()) out.insert(out.end(), p.data, p.data + p.size);
  return out;
}

}  // namespace embedlab::testing
