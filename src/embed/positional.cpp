// position_similarity (positional.hpp); the kinds themselves live in positions/.
#include "embed/positional.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"

namespace embedlab {

std::vector<float> position_similarity(std::span<const float> table, int64_t T, int64_t D,
                                       bool normalise) {
  check_at_least("position_similarity", "positions", T, 0);
  check_at_least("position_similarity", "dim", D, 1);
  // subtle: T * D in 64 bits; in wasm a size_t product of T = 2^32 + 1 and D = 1 is 1.
  uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(T), static_cast<uint64_t>(D), &want) || table.size() != want) {
    fail("position_similarity", "table has " + std::to_string(table.size()) +
                                    " values, expected " + std::to_string(T) + " x " + std::to_string(D));
  }
  MemoryPlan p("position_similarity");
  const size_t n_norms = p.add("norms", {T}, kFloat32);
  const size_t n_sim = p.add("similarity matrix", {T, T}, kFloat32);
  p.check();
  std::vector<float> norms(n_norms, 1.0f);
  if (normalise) {
    for (int64_t t = 0; t < T; ++t) {
      const float n2 = kernels::dot(D, table.data() + t * D, table.data() + t * D);
      norms[t] = n2 > 0 ? std::sqrt(n2) : 1.0f;
    }
  }
  std::vector<float> sim(n_sim);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j)
      sim[i * T + j] = kernels::dot(D, table.data() + i * D, table.data() + j * D) / (norms[i] * norms[j]);
  return sim;
}

}  // namespace embedlab
