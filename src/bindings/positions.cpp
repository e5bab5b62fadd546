// Bindings for the positional encodings (embed/positional.hpp): the tables the page draws and
// the position x position similarity. The JS API is api/embed.post.js.
#include "bindings/common.hpp"

#include "embed/positional.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// ---- positional encodings -----------------------------------------------------------------
// Each (positions T, dim D) -> Float32Array (T * D); the engine plans the tables.
val sinusoidal_table(double T, double D) {
  return guard("sinusoidal", [&] {
    return copy_out(sinusoidal(size_arg("sinusoidal", "positions", T), size_arg("sinusoidal", "dim", D)));
  });
}
val learned_table(double T, double D) {
  const char* where = "learnedPositions";
  return guard(where, [&] {
    return copy_out(
        LearnedPositions(size_arg(where, "positions", T), size_arg(where, "dim", D), generator()).table());
  });
}
val rope_rotation_table(double T, double D) {
  return guard("ropeTable", [&] {
    return copy_out(rope_table(size_arg("ropeTable", "positions", T), size_arg("ropeTable", "dim", D)));
  });
}
// x (T * D) rotated in a copy, positions offset.. offset + T - 1
val rope_apply_copy(val x, double T, double D, double offset) {
  const char* where = "ropeApply";
  return guard(where, [&] {
    const int64_t t = size_arg(where, "positions", T), d = size_arg(where, "dim", D);
    const int64_t off = size_arg(where, "offset", offset, 0);
    std::vector<float> v = copy_in<float>(where, "x", x);
    if (static_cast<uint64_t>(v.size()) != static_cast<uint64_t>(t) * static_cast<uint64_t>(d)) {
      fail(where, "x has " + std::to_string(v.size()) + " values, expected " + std::to_string(t) +
                      " x " + std::to_string(d));
    }
    rope_apply(v.data(), t, d, off);
    return copy_out(v);
  });
}
// (heads H, positions T) -> Float32Array (H * T * T)
val alibi_table(double H, double T) {
  return guard("alibi", [&] {
    return copy_out(alibi_bias(size_arg("alibi", "heads", H), size_arg("alibi", "positions", T)));
  });
}
// table (T * D) -> Float32Array (T * T)
val similarity(val table, double T, double D, bool normalise) {
  const char* where = "positionSimilarity";
  return guard(where, [&] {
    const int64_t t = size_arg(where, "positions", T), d = size_arg(where, "dim", D);
    return copy_out(position_similarity(copy_in<float>(where, "table", table), t, d, normalise));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(positions) {
  using namespace emscripten;
  function("_sinusoidal", &sinusoidal_table);
  function("_learnedPositions", &learned_table);
  function("_ropeTable", &rope_rotation_table);
  function("_ropeApply", &rope_apply_copy);
  function("_alibi", &alibi_table);
  function("_positionSimilarity", &similarity);
}
