// Positional kind "none": the model sees no position at all. Only the causal mask tells a
// token which tokens came before it, not how far back they are; a one-head model then treats
// its context as a bag of earlier tokens (the baseline "compare encodings" measures against).
#include "embed/positions/registry.hpp"

namespace embedlab {

const PositionKind& none_positions() {
  static const PositionKind k{
      .name = "none",
      .label = "none",
      .description = "No position signal: attention sees the earlier tokens as an unordered set.",
      .provides = PositionRole::None,
      .params = {},
      .plan = [](MemoryPlan&, const PositionShape&, const PositionValues&, int) {},
      .make = [](const PositionShape&, const PositionValues&, Generator&) {
        return std::make_unique<PositionEncoding>();
      },
      .draw = nullptr,
  };
  return k;
}

}  // namespace embedlab
