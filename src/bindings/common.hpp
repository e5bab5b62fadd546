// The wasm module's bindings: the only folder that knows embind. This header holds what every
// area file shares (errors, argument checks, copies across the boundary); the areas are
// embed.cpp, positions.cpp, text.cpp, train.cpp, project.cpp and io.cpp.
//
// Each bound function validates and converts its arguments, calls the core and converts the
// result. The raw names start with an underscore; the public JS API (manualSeed, Embedding,
// Linear, sinusoidal, Tokenizer, Trainer, pca, ...) is defined in api/*.post.js on top of them.
//
// The boundary is the guard, so nothing a caller passes can trap the module:
// - No C++ exception crosses into JS: `guard` catches it and stores its message, the raw call
//   returns an empty value, and the wrapper in api/*.post.js throws `new Error(message)`.
//   (An exception that escapes wasm leaks shadow-stack space, see TOOLCHAIN.md, so after
//   100,000 failing calls the module would be dead; this way memory and stack stay flat.)
//   std::bad_alloc / std::length_error are a last resort: they become
//   "<where>: out of memory (the limit here is 3.9 GiB)", never "std::bad_alloc" or "vector".
// - Every number from JS is checked before any cast by int_arg()/float_arg(): fractions, NaN,
//   +-Infinity and values outside the argument's range fail with a message naming it,
//   "Linear.forward: n 2147483648 must be an integer in [0, 2147483647]". Ranges: sizes are
//   int32 (the engine's semantic checks, e.g. "stride must be >= 1", come after), seeds are
//   [0, 2^53 - 1] (exact JS integers).
// - No caller code runs while C++ holds engine state (issue 22: a typed-array subclass whose
//   `length` getter deleted the table being read was a use after free). typed_length() reads
//   arrays through the intrinsic getters (no `instanceof`, no array["length"]); every raw call
//   reads all its arguments before it touches its engine object (live(), index(), t_); option
//   objects are plain objects that the wrappers build from the caller's.
// - Every buffer whose size comes from JS is planned (core/memory.hpp) before it is allocated:
//   copy_in() plans the typed array's length, the bindings plan what they size themselves.
//   Raw calls take typed arrays of the exact type (Int32Array, Float32Array, Float64Array,
//   Uint8Array); anything else is an error, not a conversion.
//
// Data crosses the boundary as copies: typed arrays in (copied with TypedArray.set into a
// std::vector), typed arrays out (a typed_memory_view sliced into a fresh JS array, so it
// stays valid when wasm memory grows).
// Text crosses as UTF-8 bytes, exactly: text goes in as a Uint8Array (the JS wrappers use
// TextEncoder) and every string result (decode, token strings, merge files, error messages)
// comes out as a Uint8Array that the wrappers decode with TextDecoder('utf-8', {ignoreBOM:
// true}). subtle: Emscripten 3.1.6's std::string <-> JS string conversion (UTF8ToString) uses a
// TextDecoder that strips a leading U+FEFF, so no text may take that path. Short names (kind,
// metric, pos, optimizer, table name) are plain strings of at most 256 characters.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "embed/positions/registry.hpp"
#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"

namespace embedlab {
struct ImportedTable;  // io/table.hpp
}

namespace embedlab::bindings {

using emscripten::val;

inline constexpr int64_t kInt32Min = -2147483648LL;
inline constexpr int64_t kInt32Max = 2147483647LL;
inline constexpr int64_t kSafeMax = 9007199254740991LL;  // 2^53 - 1, the largest exact JS integer

// ---- errors: stored by guard(), taken by _takeError() ---------------------------------------
struct LastError {
  bool set = false;
  bool out_of_memory = false;  // the message itself could not be stored
  std::string message;
};

inline LastError& last_error() {
  static LastError e;
  return e;
}

template <class R>
R empty_result() {
  if constexpr (std::is_same_v<R, val>) {
    return val::undefined();
  } else {
    return R{};
  }
}

// Stores the message make() builds; if building it runs out of memory, a fixed one.
template <class Make>
void store_error(Make&& make) noexcept {
  LastError& e = last_error();
  e.set = true;
  try {
    e.message = make();
  } catch (...) {
    e.out_of_memory = true;
  }
}

// Runs f; on an exception stores its message and returns R{} (undefined for val).
// `where` names the call for the messages that do not come from embedlab::Error.
template <class F>
auto guard(const char* where, F&& f) -> decltype(f()) {
  LastError& e = last_error();
  e.set = false;
  e.out_of_memory = false;
  try {
    return f();
  } catch (const Error& x) {
    store_error([&] { return std::string(x.what()); });
  } catch (const std::bad_alloc&) {
    store_error([&] { return out_of_memory_message(where); });
  } catch (const std::length_error&) {
    store_error([&] { return out_of_memory_message(where); });
  } catch (const std::exception& x) {
    store_error([&] { return std::string(where) + ": " + x.what(); });
  } catch (...) {
    store_error([&] { return std::string(where) + ": unknown exception"; });
  }
  return empty_result<decltype(f())>();
}

template <class T>
inline val copy_out(const T* data, size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}
template <class T>
inline val copy_out(const std::vector<T>& v) {
  return copy_out(v.data(), v.size());
}
// A string's bytes as a Uint8Array (never through UTF8ToString, see the file comment).
inline val bytes_out(const std::string& s) {
  return copy_out(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// The last failure's message as UTF-8 bytes (Uint8Array), or undefined if the last call
// succeeded; taking it clears it.
inline val take_error() {
  LastError& e = last_error();
  if (!e.set) return val::undefined();
  e.set = false;
  if (e.out_of_memory) {
    static constexpr char kFixed[] = "out of memory";  // a literal: nothing to allocate here
    return copy_out(reinterpret_cast<const uint8_t*>(kFixed), sizeof kFixed - 1);
  }
  std::string m;
  m.swap(e.message);
  if (m.empty()) m = "unknown error";
  return bytes_out(m);
}

// ---- numbers from JS ------------------------------------------------------------------------
// A JS number as JS would print it: NaN, Infinity, 4294967297, 1.5.
inline std::string js_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  // subtle: integers below 2^63 skip printf, whose long double arithmetic is slow in wasm
  if (std::floor(v) == v && std::fabs(v) < 0x1p63) return std::to_string(static_cast<int64_t>(v));
  if (std::floor(v) == v && std::fabs(v) < 1e21) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return format_number(v);
}

// v as an integer in [lo, hi], checked before any cast (|lo|, |hi| <= 2^53, exact as doubles):
// "<where>: <name> <v> must be an integer in [lo, hi]". Fractions are rejected, not truncated.
inline int64_t int_arg(const char* where, const char* name, double v, int64_t lo, int64_t hi) {
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || std::floor(v) != v) {
    fail(where, std::string(name) + " " + js_number(v) + " must be an integer in [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<int64_t>(v);
}
// A size argument: an integer in [lo, 2147483647].
inline int64_t size_arg(const char* where, const char* name, double v, int64_t lo = 1) {
  return int_arg(where, name, v, lo, kInt32Max);
}
// Any int32 (the engine checks what the value means, e.g. "stride must be >= 1, got 0").
inline int64_t int32_arg(const char* where, const char* name, double v) {
  return int_arg(where, name, v, kInt32Min, kInt32Max);
}
// A seed: an exact JS integer >= 0.
inline uint64_t seed_arg(const char* where, double v) {
  return static_cast<uint64_t>(int_arg(where, "seed", v, 0, kSafeMax));
}
// A number for a float parameter: NaN and +-Infinity pass (the engine names them, e.g.
// "max_norm must be a finite number >= 0, got nan"); finite values beyond float32 fail here
// (subtle: converting them to float is undefined behaviour in C++).
inline float float_arg(const char* where, const char* name, double v) {
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(FLT_MAX)) {
    fail(where, std::string(name) + " " + js_number(v) + " is beyond the float32 range");
  }
  return static_cast<float>(v);
}

// ---- arrays and text from JS ----------------------------------------------------------------
template <class T>
struct JsArray;
template <>
struct JsArray<float> {
  static constexpr const char* name = "Float32Array";
  static constexpr ElementType type = kFloat32;
};
template <>
struct JsArray<double> {
  static constexpr const char* name = "Float64Array";
  static constexpr ElementType type = kFloat64;
};
template <>
struct JsArray<int32_t> {
  static constexpr const char* name = "Int32Array";
  static constexpr ElementType type = kInt32;
};
template <>
struct JsArray<uint8_t> {
  static constexpr const char* name = "Uint8Array";
  static constexpr ElementType type = kBytes;
};

// The planned element count of `array`, which must be a JsArray<T>::name (a subclass too).
// subtle: no user JS may run while C++ holds engine state, so neither `instanceof` (a Proxy's
// getPrototypeOf trap) nor array["length"] (a subclass's getter) is used here: the module's
// _typedLength (api/embed.post.js) reads the typed array's own slots through the intrinsic
// %TypedArray%.prototype getters, captured when the module loaded; the copy below
// (TypedArray.prototype.set from a typed array) reads the same slots and calls nothing either.
template <class T>
inline size_t typed_length(const char* where, const char* what, const val& array) {
  static const val length_of = val::module_property("_typedLength");
  const double n = length_of(array, val(JsArray<T>::name)).as<double>();
  if (n < 0) fail(where, std::string(what) + " must be a " + JsArray<T>::name);
  return plan(where, what, int_arg(where, what, n, 0, kSafeMax), JsArray<T>::type);
}

// Copies the typed array `array` into the n elements at dst (n read by typed_length before
// dst was allocated). subtle: an array that views wasm memory itself is detached when that
// allocation grows the memory; TypedArray.set would then throw a JS TypeError through the C++
// frames (leaking stack), so the module's _typedSet (api/embed.post.js) checks the length again
// and returns false instead. (The wrappers copy such views before they call.)
template <class T>
inline void typed_set(const char* where, const char* what, T* dst, size_t n, const val& array) {
  static const val set_from = val::module_property("_typedSet");
  if (n && !set_from(val(emscripten::typed_memory_view(n, dst)), array).template as<bool>()) {
    fail(where, std::string(what) + " changed size while it was copied (a view of wasm memory, which moved when it grew?)");
  }
}

// A typed array copied into a std::vector, its length planned first.
template <class T>
std::vector<T> copy_in(const char* where, const char* what, const val& array) {
  const size_t n = typed_length<T>(where, what, array);
  std::vector<T> v(n);
  typed_set(where, what, v.data(), n, array);
  return v;
}

// A Uint8Array of UTF-8 (or any) bytes copied into a std::string, exactly.
inline std::string bytes_in(const char* where, const char* what, const val& array) {
  const size_t n = typed_length<uint8_t>(where, what, array);
  std::string s(n, '\0');
  typed_set(where, what, reinterpret_cast<uint8_t*>(s.data()), n, array);
  return s;
}

// A Float64Array of offsets or counts -> int64 values, each an integer in [0, 2^53 - 1]:
// "<where>: sentenceStarts[2] -1 must be an integer in [0, 9007199254740991]".
inline std::vector<int64_t> int64s_in(const char* where, const char* what, const val& array) {
  const std::vector<double> d = copy_in<double>(where, what, array);
  std::vector<int64_t> out(plan(where, what, static_cast<int64_t>(d.size()), kInt64));
  for (size_t k = 0; k < d.size(); ++k) {
    if (!(d[k] >= 0 && d[k] <= static_cast<double>(kSafeMax)) || std::floor(d[k]) != d[k]) {
      const std::string name = std::string(what) + "[" + std::to_string(k) + "]";
      int_arg(where, name.c_str(), d[k], 0, kSafeMax);  // fails with the message
    }
    out[k] = static_cast<int64_t>(d[k]);
  }
  return out;
}

// A short JS string (a kind, a metric, an option value): at most 256 characters, so the
// conversion cannot ask for much memory.
inline std::string name_arg(const char* where, const char* name, const val& v) {
  if (!v.isString()) fail(where, std::string(name) + " must be a string");
  const double n = v["length"].as<double>();
  if (n > 256) {
    fail(where, std::string(name) + " must be a name of at most 256 characters, got " + js_number(n));
  }
  return v.as<std::string>();
}

inline Generator& generator() {
  static Generator g;  // torch's default seed until manualSeed is called
  return g;
}

inline bool manual_seed(double seed) {
  return guard("manualSeed", [&] {
    generator().manual_seed(seed_arg("manualSeed", seed));
    return true;
  });
}

// Reading an option object (the JS wrappers pass a plain object of checked names and types;
// the values are checked here, before any cast).
class Options {
 public:
  Options(const char* where, val opts) : where_(where), opts_(std::move(opts)) {
    if (opts_.typeOf().as<std::string>() != "object" || opts_.isNull()) {
      fail(where_, "options must be an object");
    }
  }
  // opts[key] as a number, or fallback when absent.
  double number(const char* key, double fallback) const {
    const val v = opts_[key];
    if (v.isUndefined() || v.isNull()) return fallback;
    if (!v.isNumber()) fail(where_, std::string(key) + " must be a number");
    return v.as<double>();
  }
  // An int32 option (the engine checks what it means).
  int64_t int32(const char* key, double fallback) const { return int32_arg(where_, key, number(key, fallback)); }
  uint64_t seed(double fallback) const { return seed_arg(where_, number("seed", fallback)); }
  bool flag(const char* key, bool fallback) const {
    const val v = opts_[key];
    if (v.isUndefined() || v.isNull()) return fallback;
    if (v.isTrue()) return true;
    if (v.isFalse()) return false;
    fail(where_, std::string(key) + " must be true or false");
  }
  val get(const char* key) const { return opts_[key]; }
  std::string name(const char* key, const std::string& fallback) const {
    const val v = opts_[key];
    return v.isUndefined() || v.isNull() ? fallback : name_arg(where_, key, v);
  }

 private:
  const char* where_;
  val opts_;
};

// ---- positional kinds (positions.cpp) --------------------------------------------------------
// The flat JS option of a kind's parameter: "rope" + "base" -> "ropeBase", "kind" +
// "num_things" -> "kindNumThings".
std::string position_option_name(const PositionKind& k, const PositionParam& p);
// A JS object {name: number} of the kind's parameters -> values with defaults filled in; the
// registry names unknown keys and values out of range.
PositionValues position_values(const char* where, val values, const PositionKind& kind);

// ---- resident tables (tables.cpp), for the areas that also run on them (the map bindings) ----
struct ResidentTable {
  std::span<const float> data;  // (rows, dim), a view into the table: valid until it changes
  int64_t rows = 0, dim = 0;
};
// handle: a _Table instance (M.Table's engine object); anything else fails naming `where`.
ResidentTable resident_table(const char* where, const val& handle);

// ---- project results (project.cpp), shared with the resident tables (tables.cpp) ----------
// PcaResult -> {n, k, dim, points, components, explained, variance, solver}
val pca_result_js(const PcaResult& r);
// Neighbours -> {ids: Int32Array, scores: Float32Array}
val neighbours_js(const Neighbours& n);

}  // namespace embedlab::bindings
