// Bindings for the positional encodings (embed/positional.hpp): the registry of kinds, each
// kind's table, the helpers of the fixed kinds the page draws, and the position x position
// similarity. Nothing here names a kind: _positionalKinds and _positionTable iterate over the
// registry. The JS API is api/embed.post.js.
#include "bindings/common.hpp"

#include "embed/positional.hpp"

namespace embedlab::bindings {

std::string position_option_name(const PositionKind& k, const PositionParam& p) {
  std::string s;  // the kind in camelCase ("rope-pi" -> "ropePi"), then the parameter capitalised
  for (const char* c = k.name; *c; ++c) {
    if (*c == '-' && c[1] >= 'a' && c[1] <= 'z') s += static_cast<char>(*++c - 'a' + 'A');
    else s += *c;
  }
  bool upper = true;
  for (const char* c = p.name; *c; ++c) {
    if (*c == '_') {
      upper = true;
      continue;
    }
    s += upper && *c >= 'a' && *c <= 'z' ? static_cast<char>(*c - 'a' + 'A') : *c;
    upper = false;
  }
  return s;
}

PositionValues position_values(const char* where, val values, const PositionKind& kind) {
  PositionValues v;
  if (values.isUndefined() || values.isNull()) return v;
  if (values.typeOf().as<std::string>() != "object") fail(where, "posParams must be an object");
  const val keys = val::global("Object").call<val>("keys", values);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = name_arg(where, "posParams key", keys[i]);
    const val x = values[key];
    if (!x.isNumber()) fail(where, std::string(kind.name) + " " + key + " must be a number");
    v[key] = x.as<double>();
  }
  return kind.resolve(where, v);  // unknown names and ranges: the registry's messages
}

}  // namespace embedlab::bindings

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
// x (T * D) rotated in a copy, positions offset.. offset + T - 1; kind undefined: plain RoPE at
// base 10000 (rope_apply's default), else a rotation kind of the registry with its values
// resolved as positionTable resolves them, rotated by its inv_freq (D/2).
val rope_apply_copy(val x, double T, double D, double offset, val kind, val values) {
  const char* where = "ropeApply";
  return guard(where, [&] {
    const int64_t t = size_arg(where, "positions", T), d = size_arg(where, "dim", D);
    const int64_t off = size_arg(where, "offset", offset, 0);
    std::vector<float> v = copy_in<float>(where, "x", x);
    if (static_cast<uint64_t>(v.size()) != static_cast<uint64_t>(t) * static_cast<uint64_t>(d)) {
      fail(where, "x has " + std::to_string(v.size()) + " values, expected " + std::to_string(t) +
                      " x " + std::to_string(d));
    }
    if (kind.isUndefined() || kind.isNull()) {
      rope_apply(v.data(), t, d, off);
      return copy_out(v);
    }
    const PositionKind& k = find_position_kind(name_arg(where, "kind", kind));
    if (!k.inv_freq) {
      std::string rotation;  // the registry's rotation kinds, in order
      for (const PositionKind* r : position_kinds()) {
        if (r->inv_freq) rotation += std::string(rotation.empty() ? "" : ", ") + r->name;
      }
      fail(where, std::string("kind '") + k.name + "' is not a rotation kind (" + rotation + ")");
    }
    k.check_shape(where, {t, d, 1});
    const PositionValues r = k.resolve(where, position_values(where, values, k));  // none given: the defaults
    rope_apply(std::span<float>(v), t, d, off, k.inv_freq(d, r));
    return copy_out(v);
  });
}
// The registry -> [{name, label, description, provides, trainable, evenDim, extrapolates,
// params: [{name, default, min, max, integer, help, option}]}], strings as UTF-8 bytes (the JS
// wrapper decodes them). `option` is the flat JS option of a parameter (ropeBase).
val positional_kinds() {
  return guard("positionalKinds", [&] {
    val out = val::array();
    for (const PositionKind* k : position_kinds()) {
      val o = val::object();
      o.set("name", bytes_out(k->name));
      o.set("label", bytes_out(k->label));
      o.set("description", bytes_out(k->description));
      o.set("provides", bytes_out(position_role_name(k->provides)));
      o.set("trainable", k->trainable);
      o.set("evenDim", k->even_dim);
      o.set("extrapolates", k->extrapolates);
      val params = val::array();
      for (const PositionParam& p : k->params) {
        val q = val::object();
        q.set("name", bytes_out(p.name));
        q.set("default", p.def);
        q.set("min", p.min);
        q.set("max", p.max);
        q.set("integer", p.integer);
        q.set("help", bytes_out(p.help));
        q.set("option", bytes_out(position_option_name(*k, p)));
        params.call<void>("push", q);
      }
      o.set("params", params);
      out.call<void>("push", o);
    }
    return out;
  });
}

// (kind, positions T, dim D, heads H, seed, values {name: number}) -> {shape, data: Float32Array}:
// (T, D), or (H, T, T) for bias kinds; rotation kinds add invFreq (Float64Array, D/2) and
// attentionScale. Learned tables are drawn from `seed` when it is a
// number, else from the module's generator (manualSeed).
val position_table(val kind, double T, double D, double H, val seed, val values) {
  return guard("positionTable", [&] {
    const PositionKind& k = find_position_kind(name_arg("positionTable", "kind", kind));
    const bool bias = k.provides == PositionRole::Bias;
    const int64_t t = size_arg(k.name, "positions", T);
    const int64_t d = bias ? 0 : size_arg(k.name, "dim", D);
    const int64_t h = bias ? size_arg(k.name, "heads", H) : 1;
    const PositionValues v = position_values(k.name, values, k);
    Generator own(seed.isNumber() ? seed_arg(k.name, seed.as<double>()) : 0);
    const PositionTable table = k.table({t, d, h}, v, seed.isNumber() ? own : generator());
    val out = val::object();
    val shape = val::array();
    for (int64_t n : table.shape) shape.call<void>("push", static_cast<double>(n));
    out.set("shape", shape);
    out.set("data", copy_out(table.data));
    if (k.inv_freq) {  // rotation kinds: each pair's frequency (D/2) and the factor on q.k
      const PositionValues r = k.resolve(k.name, v);
      out.set("invFreq", copy_out(k.inv_freq(d, r)));
      out.set("attentionScale", k.attention_scale ? k.attention_scale(r) : 1.0);
    }
    return out;
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
  function("_positionalKinds", &positional_kinds);
  function("_positionTable", &position_table);
  function("_positionSimilarity", &similarity);
}
