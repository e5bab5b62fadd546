// Positional encodings: the registry of kinds (positions/registry.hpp), the helpers of the
// kinds other code uses (sinusoidal tables, RoPE, learned tables), and the position x position
// similarity the page plots.
//
//   position_similarity(table, T, D, normalise) -> (T, T) dot products between the rows of a
//       (T, D) table; cosine when normalise is set. The table size is checked against T x D in
//       64 bits and the (T, T) output is planned ("position_similarity: similarity matrix
//       65536 x 65536 float32 need 16.0 GiB; the limit here is 2.0 GiB").
//
// Intended usage:
//   auto pe = sinusoidal(128, 64);           // pe[1*64 + 0] == sin(1)
//   auto sim = position_similarity(pe, 128, 64, true);
//   const PositionKind& k = find_position_kind("rope");   // every kind, see registry.hpp
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "embed/positions/learned.hpp"
#include "embed/positions/registry.hpp"
#include "embed/positions/rope.hpp"
#include "embed/positions/sinusoidal.hpp"

namespace embedlab {

std::vector<float> position_similarity(std::span<const float> table, int64_t T, int64_t D, bool normalise);

}  // namespace embedlab
