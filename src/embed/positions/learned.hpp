// Learned absolute positions, GPT-2 style (the kind is in learned.cpp):
//   LearnedPositions(T, D, g) -> a (T, D) table drawn like nn.Embedding(T, D); asking for a
//                                position >= T throws: there are no rows past the context.
// Example: manual_seed(seed); LearnedPositions lp(256, 64, g); lp.forward(8) -> rows 0..7.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace embedlab {

class LearnedPositions {
 public:
  LearnedPositions(int64_t context_length, int64_t D, Generator& g);
  int64_t context_length() const { return T_; }
  int64_t dim() const { return D_; }
  const std::vector<float>& table() const { return P_; }
  std::vector<float>& table_mut() { return P_; }
  // positions 0..T-1 -> (T, D); throws for T > context_length.
  std::vector<float> forward(int64_t T) const;
  // explicit positions -> (n, D)
  std::vector<float> forward(std::span<const int32_t> positions) const;

 private:
  int64_t T_ = 0, D_ = 0;
  std::vector<float> P_;
};

}  // namespace embedlab
