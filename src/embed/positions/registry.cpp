// The one list of positional-encoding kinds (see registry.hpp), and the checks every kind
// shares: parameter values against their declared ranges, and shapes.
#include "embed/positions/registry.hpp"

#include <cmath>

#include "core/error.hpp"

// One line per kind, in the order the page and the CLI list them. Each X(k) names the
// function `const PositionKind& k_positions()` defined in k.cpp in this folder (X(rope_pi):
// rope_pi.cpp, the kind "rope-pi").
#define EMBEDLAB_POSITION_KINDS(X) \
  X(none)                          \
  X(sinusoidal)                    \
  X(learned)                       \
  X(rope)                          \
  X(alibi)                         \
  X(t5)                            \
  X(rope_pi)                       \
  X(rope_ntk)                      \
  X(rope_yarn)                     \
  X(rope_partial)                  \
  /* end of the list */

namespace embedlab {

#define EMBEDLAB_DECLARE_KIND(k) const PositionKind& k##_positions();
EMBEDLAB_POSITION_KINDS(EMBEDLAB_DECLARE_KIND)
#undef EMBEDLAB_DECLARE_KIND

const std::vector<const PositionKind*>& position_kinds() {
#define EMBEDLAB_LIST_KIND(k) &k##_positions(),
  static const std::vector<const PositionKind*> kinds{EMBEDLAB_POSITION_KINDS(EMBEDLAB_LIST_KIND)};
#undef EMBEDLAB_LIST_KIND
  return kinds;
}

std::string position_kind_names(const char* separator) {
  std::string s;
  for (const PositionKind* k : position_kinds()) s += (s.empty() ? "" : separator) + std::string(k->name);
  return s;
}

const PositionKind& find_position_kind(const std::string& name) {
  for (const PositionKind* k : position_kinds()) {
    if (name == k->name) return *k;
  }
  fail("position kind", "unknown kind '" + name + "', expected one of " + position_kind_names());
}

const char* position_role_name(PositionRole r) {
  switch (r) {
    case PositionRole::Additive: return "additive";
    case PositionRole::Rotation: return "rotation";
    case PositionRole::Bias: return "bias";
    case PositionRole::None: break;
  }
  return "none";
}

PositionValues PositionKind::resolve(const char* where, const PositionValues& values) const {
  PositionValues out;
  for (const PositionParam& p : params) out[p.name] = p.def;
  for (const auto& [key, value] : values) {
    if (!out.count(key)) {
      std::string names;
      for (const PositionParam& p : params) names += (names.empty() ? "" : ", ") + std::string(p.name);
      fail(where, std::string(name) + " has no parameter '" + key + "', " +
                      (names.empty() ? std::string("it takes none") : "expected " + names));
    }
    out[key] = value;
  }
  for (const PositionParam& p : params) {
    const double v = out[p.name];
    const bool whole = std::isfinite(v) && std::floor(v) == v;
    if (!std::isfinite(v) || v < p.min || v > p.max || (p.integer && !whole)) {
      fail(where, std::string(name) + " " + p.name + " " + format_number(v) + " must be " +
                      (p.integer ? "an integer" : "a number") + " in [" + format_number(p.min) + ", " +
                      format_number(p.max) + "]");
    }
  }
  return out;
}

void PositionKind::check_shape(const char* where, const PositionShape& s) const {
  if (even_dim && s.D % 2 != 0) {
    fail(where, std::string(name) + " positions need an even dimension, got " + std::to_string(s.D));
  }
}

PositionTable PositionKind::table(const PositionShape& s, const PositionValues& v, Generator& g) const {
  if (!draw) fail(name, std::string("kind '") + name + "' has no table");
  return draw(s, resolve(name, v), g);
}

size_t check_position_table(const char* where, int64_t T, int64_t D, bool even) {
  check_at_least(where, "positions", T, 0);
  check_at_least(where, "dim", D, 1);
  if (T > kMaxPositions) {
    fail(where, "positions " + std::to_string(T) + " out of range [0, " + std::to_string(kMaxPositions) + "]");
  }
  if (even && D % 2 != 0) fail(where, "dim must be even, got " + std::to_string(D));
  return plan(where, "position table", {T, D}, kFloat32);
}

}  // namespace embedlab
