// The wasm module's bindings: the only file that knows embind.
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
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/bench.hpp"
#include "core/error.hpp"
#include "core/kernels.hpp"
#include "core/memory.hpp"
#include "embed/embedding.hpp"
#include "embed/linear.hpp"
#include "embed/positional.hpp"

using emscripten::val;
using namespace embedlab;

namespace {

constexpr int64_t kInt32Min = -2147483648LL;
constexpr int64_t kInt32Max = 2147483647LL;
constexpr int64_t kSafeMax = 9007199254740991LL;  // 2^53 - 1, the largest exact JS integer

// ---- errors: stored by guard(), taken by _takeError() ---------------------------------------
struct LastError {
  bool set = false;
  bool out_of_memory = false;  // the message itself could not be stored
  std::string message;
};

LastError& last_error() {
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
val copy_out(const T* data, size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}
template <class T>
val copy_out(const std::vector<T>& v) {
  return copy_out(v.data(), v.size());
}
// A string's bytes as a Uint8Array (never through UTF8ToString, see the file comment).
val bytes_out(const std::string& s) {
  return copy_out(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// The last failure's message as UTF-8 bytes (Uint8Array), or undefined if the last call
// succeeded; taking it clears it.
val take_error() {
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
std::string js_number(double v) {
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
int64_t int_arg(const char* where, const char* name, double v, int64_t lo, int64_t hi) {
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || std::floor(v) != v) {
    fail(where, std::string(name) + " " + js_number(v) + " must be an integer in [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<int64_t>(v);
}
// A size argument: an integer in [lo, 2147483647].
int64_t size_arg(const char* where, const char* name, double v, int64_t lo = 1) {
  return int_arg(where, name, v, lo, kInt32Max);
}
// Any int32 (the engine checks what the value means, e.g. "stride must be >= 1, got 0").
int64_t int32_arg(const char* where, const char* name, double v) {
  return int_arg(where, name, v, kInt32Min, kInt32Max);
}
// A seed: an exact JS integer >= 0.
uint64_t seed_arg(const char* where, double v) {
  return static_cast<uint64_t>(int_arg(where, "seed", v, 0, kSafeMax));
}
// A number for a float parameter: NaN and +-Infinity pass (the engine names them, e.g.
// "max_norm must be a finite number >= 0, got nan"); finite values beyond float32 fail here
// (subtle: converting them to float is undefined behaviour in C++).
float float_arg(const char* where, const char* name, double v) {
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

// The planned element count of `array`, which must be a JsArray<T>::name.
template <class T>
size_t typed_length(const char* where, const char* what, const val& array) {
  if (!array.instanceof(val::global(JsArray<T>::name))) {
    fail(where, std::string(what) + " must be a " + JsArray<T>::name);
  }
  const double n = array["length"].as<double>();
  return plan(where, what, int_arg(where, what, n, 0, kSafeMax), JsArray<T>::type);
}

// A typed array copied into a std::vector, its length planned first.
template <class T>
std::vector<T> copy_in(const char* where, const char* what, const val& array) {
  const size_t n = typed_length<T>(where, what, array);
  std::vector<T> v(n);
  if (n) val(emscripten::typed_memory_view(n, v.data())).call<void>("set", array);
  return v;
}

// A Uint8Array of UTF-8 (or any) bytes copied into a std::string, exactly.
std::string bytes_in(const char* where, const char* what, const val& array) {
  const size_t n = typed_length<uint8_t>(where, what, array);
  std::string s(n, '\0');
  if (n) {
    val(emscripten::typed_memory_view(n, reinterpret_cast<uint8_t*>(s.data()))).call<void>("set", array);
  }
  return s;
}

// A Float64Array of offsets or counts -> int64 values, each an integer in [0, 2^53 - 1]:
// "<where>: sentenceStarts[2] -1 must be an integer in [0, 9007199254740991]".
std::vector<int64_t> int64s_in(const char* where, const char* what, const val& array) {
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
std::string name_arg(const char* where, const char* name, const val& v) {
  if (!v.isString()) fail(where, std::string(name) + " must be a string");
  const double n = v["length"].as<double>();
  if (n > 256) {
    fail(where, std::string(name) + " must be a name of at most 256 characters, got " + js_number(n));
  }
  return v.as<std::string>();
}

Generator& generator() {
  static Generator g;  // torch's default seed until manualSeed is called
  return g;
}

bool manual_seed(double seed) {
  return guard("manualSeed", [&] {
    generator().manual_seed(seed_arg("manualSeed", seed));
    return true;
  });
}

// ---- Embedding ---------------------------------------------------------------------------
class EmbeddingHandle {
 public:
  // padding_idx: NaN for none, else an integer in [-V, V) (negative counts from the end)
  bool init(double V, double D, double padding_idx, double max_norm, bool scale) {
    return guard("Embedding", [&] {
      const EmbeddingOptions o = options("Embedding", padding_idx, max_norm, scale);
      e_ = std::make_unique<Embedding>(size_arg("Embedding", "numEmbeddings", V),
                                       size_arg("Embedding", "embeddingDim", D), generator(), o);
      return true;
    });
  }
  bool init_pretrained(val weights, double V, double D, double padding_idx, double max_norm,
                       bool scale, bool freeze) {
    const char* where = "Embedding.fromPretrained";
    return guard(where, [&] {
      const EmbeddingOptions o = options(where, padding_idx, max_norm, scale);
      const int64_t rows = size_arg(where, "numEmbeddings", V), dim = size_arg(where, "embeddingDim", D);
      e_ = std::make_unique<Embedding>(
          Embedding::from_pretrained(copy_in<float>(where, "weights", weights), rows, dim, o, freeze));
      return true;
    });
  }
  double rows() const { return e_ ? static_cast<double>(e_->rows()) : 0; }
  double dim() const { return e_ ? static_cast<double>(e_->dim()) : 0; }
  // the resolved padding row, or -1 for none
  double padding_idx() const {
    return e_ && e_->options().padding_idx ? static_cast<double>(*e_->options().padding_idx) : -1;
  }
  double scale_factor() const { return e_ ? e_->scale_factor() : 1; }
  val weight() const {
    return guard("weight", [&] { return copy_out(live().weight()); });
  }
  // ids (n) -> (n, D)
  val forward(val ids) {
    return guard("lookup", [&] { return copy_out(live().forward(copy_in<int32_t>("lookup", "ids", ids))); });
  }
  // ids (n), positions (T, D) -> (n, D) = W[ids]*s + pos[i % T]
  val forward_with_positions(val ids, val pos, double T) {
    const char* where = "forwardWithPositions";
    return guard(where, [&] {
      const int64_t t = size_arg(where, "positions", T);
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      const std::vector<float> p = copy_in<float>(where, "position table", pos);
      const int64_t D = live().dim();
      if (static_cast<uint64_t>(p.size()) != static_cast<uint64_t>(t) * static_cast<uint64_t>(D)) {
        fail(where, "positions have " + std::to_string(p.size()) + " values, expected " +
                        std::to_string(t) + " x " + std::to_string(D));
      }
      std::vector<float> out(plan(where, "output", {static_cast<int64_t>(v.size()), D}, kFloat32));
      live().forward_with_positions(v, p.data(), static_cast<size_t>(t), out.data());
      return copy_out(out);
    });
  }
  // one_hot(ids, V) @ W computed through a bias-free Linear(V, D) whose weight is W^T.
  val forward_one_hot(val ids) {
    const char* where = "oneHotForward";
    return guard(where, [&] {
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      live().check_ids(v, where);
      const int64_t n = static_cast<int64_t>(v.size());
      MemoryPlan p(where);
      p.add("one-hot matrix", {n, live().rows()}, kFloat32);
      p.add("weight copy", {live().rows(), live().dim()}, kFloat32);
      p.add("output", {n, live().dim()}, kFloat32);
      p.check();
      const Linear lin = Linear::from_embedding(live());
      return copy_out(lin.forward(one_hot(v, live().rows()), n));
    });
  }
  // {rows: Int32Array, values: Float32Array} or a dense Float32Array (V*D)
  val backward(val ids, val dout, bool sparse) {
    return guard("backward", [&] {
      const std::vector<int32_t> v = copy_in<int32_t>("backward", "ids", ids);
      const std::vector<float> g = copy_in<float>("backward", "dout", dout);
      if (!sparse) return copy_out(live().backward_dense(v, g));
      const SparseGrad sg = live().backward_sparse(v, g);
      val out = val::object();
      out.set("rows", copy_out(sg.rows));
      out.set("values", copy_out(sg.values));
      return out;
    });
  }

 private:
  static EmbeddingOptions options(const char* where, double padding_idx, double max_norm, bool scale) {
    EmbeddingOptions o;
    if (!std::isnan(padding_idx)) o.padding_idx = int32_arg(where, "paddingIdx", padding_idx);
    o.max_norm = float_arg(where, "maxNorm", max_norm);
    o.scale = scale;
    return o;
  }
  Embedding& live() const {
    if (!e_) fail("Embedding", "this table was not created (its constructor failed)");
    return *e_;
  }
  std::unique_ptr<Embedding> e_;
};

// ---- Linear --------------------------------------------------------------------------------
class LinearHandle {
 public:
  bool init(double in, double out) {
    return guard("Linear", [&] {
      l_ = std::make_unique<Linear>(size_arg("Linear", "inFeatures", in),
                                    size_arg("Linear", "outFeatures", out), generator());
      return true;
    });
  }
  double in_features() const { return l_ ? static_cast<double>(l_->in_features()) : 0; }
  double out_features() const { return l_ ? static_cast<double>(l_->out_features()) : 0; }
  val weight() const {
    return guard("Linear.weight", [&] { return copy_out(live().weight()); });
  }
  // x (n * in) -> (n * out)
  val forward(val x, double n) {
    const char* where = "Linear.forward";
    return guard(where, [&] {
      const int64_t rows = size_arg(where, "n", n, 0);
      return copy_out(live().forward(copy_in<float>(where, "x", x), rows));
    });
  }

 private:
  Linear& live() const {
    if (!l_) fail("Linear", "this layer was not created (its constructor failed)");
    return *l_;
  }
  std::unique_ptr<Linear> l_;
};

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

// ---- benchmarks ----------------------------------------------------------------------------
val bench_lookup_js(double V, double D, double B, double T, double reps) {
  const char* where = "benchLookup";
  return guard(where, [&] {
    const LookupBench b = bench_lookup(size_arg(where, "numEmbeddings", V), size_arg(where, "embeddingDim", D),
                                       size_arg(where, "batch", B), size_arg(where, "context", T),
                                       static_cast<int>(int_arg(where, "reps", reps, 1, 1000)));
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

std::string isa() { return kernels::isa(); }

}  // namespace

EMSCRIPTEN_BINDINGS(embed) {
  using namespace emscripten;
  function("_takeError", &take_error);
  function("_manualSeed", &manual_seed);
  function("_isa", &isa);

  class_<EmbeddingHandle>("_Embedding")
      .constructor<>()
      .function("init", &EmbeddingHandle::init)
      .function("initPretrained", &EmbeddingHandle::init_pretrained)
      .function("rows", &EmbeddingHandle::rows)
      .function("dim", &EmbeddingHandle::dim)
      .function("paddingIdx", &EmbeddingHandle::padding_idx)
      .function("scaleFactor", &EmbeddingHandle::scale_factor)
      .function("weight", &EmbeddingHandle::weight)
      .function("forward", &EmbeddingHandle::forward)
      .function("forwardWithPositions", &EmbeddingHandle::forward_with_positions)
      .function("forwardOneHot", &EmbeddingHandle::forward_one_hot)
      .function("backward", &EmbeddingHandle::backward);

  class_<LinearHandle>("_Linear")
      .constructor<>()
      .function("init", &LinearHandle::init)
      .function("inFeatures", &LinearHandle::in_features)
      .function("outFeatures", &LinearHandle::out_features)
      .function("weight", &LinearHandle::weight)
      .function("forward", &LinearHandle::forward);

  function("_sinusoidal", &sinusoidal_table);
  function("_learnedPositions", &learned_table);
  function("_ropeTable", &rope_rotation_table);
  function("_ropeApply", &rope_apply_copy);
  function("_alibi", &alibi_table);
  function("_positionSimilarity", &similarity);
  function("_benchLookup", &bench_lookup_js);
}

// ---- tokenizers, windows, BPE training (tokenizer/, data/) -----------------------------------
// Appended section: its own includes, helpers and EMSCRIPTEN_BINDINGS(tokenizer) block.
#include <algorithm>

#include "bench/bench_tokenize.hpp"
#include "data/windows.hpp"
#include "tokenizer/bpe_train.hpp"
#include "tokenizer/tokenizer.hpp"
#include "tokenizer/unicode.hpp"

namespace {

class TokenizerHandle {
 public:
  bool init_gpt2() {
    return guard("Tokenizer.gpt2", [&] {
      t_ = std::make_unique<Tokenizer>(Tokenizer::gpt2());
      return true;
    });
  }
  // kind "whitespace" | "word" | "char"; text (Uint8Array, UTF-8) = the corpus the vocabulary
  // is built from.
  bool init_corpus(val kind, val text, bool lowercase, double min_count, double max_size) {
    const char* where = "Tokenizer.fromCorpus";
    return guard(where, [&] {
      VocabOptions o;
      o.kind = parse_vocab_kind(name_arg(where, "kind", kind));
      o.lowercase = lowercase;
      o.min_count = int32_arg(where, "minCount", min_count);
      o.max_size = int32_arg(where, "maxSize", max_size);
      t_ = std::make_unique<Tokenizer>(Tokenizer::from_corpus(bytes_in(where, "corpus", text), o));
      return true;
    });
  }
  // file (Uint8Array): a merge file's bytes (BpeTrainer.save()).
  bool init_bpe(val file) {
    return guard("Tokenizer.fromBpe", [&] {
      t_ = std::make_unique<Tokenizer>(
          Tokenizer::from_bpe(BpeTokenizer::load(bytes_in("Tokenizer.fromBpe", "file", file))));
      return true;
    });
  }
  std::string kind() const { return t_ ? t_->kind() : ""; }  // an ASCII name
  double vocab_size() const { return t_ ? t_->vocab_size() : 0; }
  // text (Uint8Array, UTF-8 bytes) -> Int32Array
  val encode(val text, bool allow_special) {
    return guard("encode", [&] { return copy_out(live().encode(bytes_in("encode", "text", text), allow_special)); });
  }
  // ids -> Uint8Array: the text's UTF-8 bytes (invalid sequences already replaced by U+FFFD)
  val decode(val ids) {
    return guard("decode", [&] { return bytes_out(live().decode(copy_in<int32_t>("decode", "ids", ids))); });
  }
  val token_bytes(double id) {
    return guard("tokenBytes", [&] {
      return bytes_out(live().token_bytes(static_cast<int32_t>(int32_arg("tokenBytes", "id", id))));
    });
  }
  // ids (n) -> {bytes: Uint8Array, ends: Uint32Array (n)}: the display strings (valid UTF-8) of
  // all ids back to back, string k = bytes[ends[k-1], ends[k]); one call for a strip of chips.
  val token_strings(val ids) {
    const char* where = "tokenStrings";
    return guard(where, [&] {
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      std::vector<uint32_t> ends(plan(where, "string ends", static_cast<int64_t>(v.size()), kInt32));
      uint64_t total = 0;
      for (const int32_t id : v) total += live().token_string(id).size();  // ids are checked here
      std::string bytes;
      bytes.reserve(plan(where, "string bytes", static_cast<int64_t>(total), kBytes));
      for (size_t k = 0; k < v.size(); ++k) {
        bytes += live().token_string(v[k]);
        ends[k] = static_cast<uint32_t>(bytes.size());  // < 2 GiB: planned above
      }
      val out = val::object();
      out.set("bytes", bytes_out(bytes));
      out.set("ends", copy_out(ends));
      return out;
    });
  }
  // Float64Array (V) corpus counts per id for word/char vocabularies, else undefined.
  val counts() {
    return guard("counts", [&] {
      const Vocab* v = live().vocab();
      if (!v) return val::undefined();
      std::vector<double> c(plan("counts", "counts", static_cast<int64_t>(v->counts().size()), kFloat64));
      std::copy(v->counts().begin(), v->counts().end(), c.begin());
      return copy_out(c);
    });
  }

 private:
  Tokenizer& live() const {
    if (!t_) fail("Tokenizer", "this tokenizer was not created (its constructor failed)");
    return *t_;
  }
  std::unique_ptr<Tokenizer> t_;
};

class BpeTrainerHandle {
 public:
  // text (Uint8Array, UTF-8 bytes)
  bool init(val text, double vocab_size) {
    return guard("BpeTrainer", [&] {
      const int64_t v = int32_arg("BpeTrainer", "vocabSize", vocab_size);
      tr_ = std::make_unique<BpeTrainer>(bytes_in("BpeTrainer", "text", text), v);
      return true;
    });
  }
  // Up to n merges -> [{left, right, id, count, token, tokens}] (token: the new id's display
  // string as UTF-8 bytes, a Uint8Array; tokens: how many tokens the training text has after
  // this merge).
  val step(double n) {
    const char* where = "BpeTrainer.step";
    return guard(where, [&] {
      const int64_t steps = size_arg(where, "n", n, 0);
      val out = val::array();
      for (int64_t k = 0; k < steps; ++k) {
        const std::vector<BpeMerge> one = live().step(1);
        if (one.empty()) break;
        const BpeMerge& mg = one[0];
        val m = val::object();
        m.set("left", mg.left);
        m.set("right", mg.right);
        m.set("id", mg.id);
        m.set("count", static_cast<double>(mg.count));
        m.set("token", bytes_out(unicode::replace_invalid_utf8(live().tokenizer().token_bytes(mg.id))));
        m.set("tokens", static_cast<double>(live().token_count()));
        out.set(static_cast<uint32_t>(k), m);  // subtle: an int64_t key would need BigInt
      }
      return out;
    });
  }
  bool done() const { return tr_ ? tr_->done() : true; }
  double vocab_size() const { return tr_ ? tr_->tokenizer().vocab_size() : 0; }
  double token_count() const { return tr_ ? static_cast<double>(tr_->token_count()) : 0; }
  // the merge file as bytes (Uint8Array)
  val save() {
    return guard("BpeTrainer.save", [&] { return bytes_out(live().tokenizer().save()); });
  }

 private:
  BpeTrainer& live() const {
    if (!tr_) fail("BpeTrainer", "this trainer was not created (its constructor failed)");
    return *tr_;
  }
  std::unique_ptr<BpeTrainer> tr_;
};

// ids -> {numSamples, numBatches, inputTokens, starts: Int32Array (samples, in batch order)}
val sliding_windows(val ids, double max_length, double stride, double batch_size, bool shuffle, double seed,
                    bool drop_last) {
  const char* where = "slidingWindows";
  return guard(where, [&] {
    WindowOptions o;
    o.max_length = int32_arg(where, "maxLength", max_length);
    o.stride = int32_arg(where, "stride", stride);
    o.batch_size = int32_arg(where, "batchSize", batch_size);
    o.shuffle = shuffle;
    o.seed = seed_arg(where, seed);
    o.drop_last = drop_last;
    const SlidingWindows ds(copy_in<int32_t>(where, "ids", ids), o);
    // subtle: batches x batch_size in 64 bits (both may be large int32 values)
    const int64_t kept = std::min(ds.num_samples(), ds.num_batches() * o.batch_size);
    std::vector<int32_t> starts(plan(where, "starts", kept, kInt32));
    std::copy(ds.sample_starts().begin(), ds.sample_starts().begin() + kept, starts.begin());
    val out = val::object();
    out.set("numSamples", static_cast<double>(ds.num_samples()));
    out.set("numBatches", static_cast<double>(ds.num_batches()));
    out.set("inputTokens", static_cast<double>(kept) * static_cast<double>(o.max_length));
    out.set("starts", copy_out(starts));
    return out;
  });
}

// ids (n) -> Int32Array (P * 2): center, context, center, context, ...
val skipgram_pairs_js(val ids, double window) {
  const char* where = "skipgramPairs";
  return guard(where, [&] {
    const int64_t w = int32_arg(where, "window", window);
    const auto pairs = skipgram_pairs(copy_in<int32_t>(where, "ids", ids), w);
    std::vector<int32_t> flat(plan(where, "pairs", {static_cast<int64_t>(pairs.size()), 2}, kInt32));
    for (size_t k = 0; k < pairs.size(); ++k) flat[2 * k] = pairs[k].first, flat[2 * k + 1] = pairs[k].second;
    return copy_out(flat);
  });
}

// text (Uint8Array), kind ("gpt2" or a vocabulary kind), reps in [1, 1000]
val bench_tokenize_js(val text, val kind, double reps) {
  const char* where = "benchTokenize";
  return guard(where, [&] {
    const std::string t = bytes_in(where, "text", text), k = name_arg(where, "encoding", kind);
    const int r = static_cast<int>(int_arg(where, "reps", reps, 1, 1000));
    const TokenizeBench b = bench_tokenize(t, [&] {
      if (k == "gpt2") return Tokenizer::gpt2();
      VocabOptions o;
      o.kind = parse_vocab_kind(k);
      return Tokenizer::from_corpus(t, o);
    }, r);
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tokenizer) {
  using namespace emscripten;
  class_<TokenizerHandle>("_Tokenizer")
      .constructor<>()
      .function("initGpt2", &TokenizerHandle::init_gpt2)
      .function("initCorpus", &TokenizerHandle::init_corpus)
      .function("initBpe", &TokenizerHandle::init_bpe)
      .function("kind", &TokenizerHandle::kind)
      .function("vocabSize", &TokenizerHandle::vocab_size)
      .function("encode", &TokenizerHandle::encode)
      .function("decode", &TokenizerHandle::decode)
      .function("tokenBytes", &TokenizerHandle::token_bytes)
      .function("tokenStrings", &TokenizerHandle::token_strings)
      .function("counts", &TokenizerHandle::counts);
  class_<BpeTrainerHandle>("_BpeTrainer")
      .constructor<>()
      .function("init", &BpeTrainerHandle::init)
      .function("step", &BpeTrainerHandle::step)
      .function("done", &BpeTrainerHandle::done)
      .function("vocabSize", &BpeTrainerHandle::vocab_size)
      .function("tokenCount", &BpeTrainerHandle::token_count)
      .function("save", &BpeTrainerHandle::save);
  function("_slidingWindows", &sliding_windows);
  function("_skipgramPairs", &skipgram_pairs_js);
  function("_benchTokenize", &bench_tokenize_js);
}

// ---- training (train/): word2vec and the next-token model as steppers ----------------------
// Appended section: its own includes, helpers and EMSCRIPTEN_BINDINGS(train) block.
#include "bench/bench_train.hpp"
#include "train/next_token.hpp"
#include "train/word2vec.hpp"

namespace {

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
  std::string name(const char* key, const std::string& fallback) const {
    const val v = opts_[key];
    return v.isUndefined() || v.isNull() ? fallback : name_arg(where_, key, v);
  }

 private:
  const char* where_;
  val opts_;
};

val stats_js(const TrainStats& s) {
  val o = val::object();
  o.set("loss", s.loss);
  o.set("lastLoss", s.last_loss);
  o.set("steps", static_cast<double>(s.steps));
  o.set("totalSteps", static_cast<double>(s.total_steps));
  o.set("tokens", static_cast<double>(s.tokens));
  o.set("rawTokens", static_cast<double>(s.raw_tokens));
  o.set("elapsedMs", s.elapsed_ms);
  o.set("tokensPerSecond", s.tokens_per_s);
  o.set("rawTokensPerSecond", s.raw_tokens_per_s);
  o.set("learningRate", s.learning_rate);
  o.set("finished", s.finished);
  return o;
}

val table_js(const std::vector<float>& t, int64_t rows, int64_t cols) {
  val o = val::object();
  o.set("rows", static_cast<double>(rows));
  o.set("cols", static_cast<double>(cols));
  o.set("data", copy_out(t));
  return o;
}

class TrainerHandle {
 public:
  // ids (Int32Array, all sentences), starts (Float64Array, S+1), counts (Float64Array (V) or empty).
  bool init_word2vec(val ids, val starts, val counts, val opts) {
    const char* where = "Trainer.word2vec";
    return guard(where, [&] {
      const Options o(where, opts);
      Word2VecSettings s;
      s.sg = o.flag("sg", false);
      s.vector_size = o.int32("vectorSize", 100);
      s.window = o.int32("window", 5);
      s.negative = o.int32("negative", 5);
      s.min_count = o.int32("minCount", 5);
      s.sample = o.number("sample", 1e-3);
      s.alpha = o.number("alpha", 0.025);
      s.min_alpha = o.number("minAlpha", 0.0001);
      s.epochs = o.int32("epochs", 5);
      s.cbow_mean = o.flag("cbowMean", true);
      s.batch_words = o.int32("batchWords", 10000);
      s.seed = o.seed(1);
      const std::vector<int64_t> st64 = int64s_in(where, "sentenceStarts", starts);
      const std::vector<int64_t> ct64 = int64s_in(where, "counts", counts);
      next_.reset();
      w2v_.reset();
      w2v_ = std::make_unique<Word2Vec>(copy_in<int32_t>(where, "ids", ids), st64, ct64, s);
      return true;
    });
  }
  bool init_next_token(val ids, val opts) {
    const char* where = "Trainer.nextToken";
    return guard(where, [&] {
      const Options o(where, opts);
      NextTokenSettings s;
      s.model.vocab_size = o.int32("vocabSize", 0);
      s.model.dim = o.int32("vectorSize", 64);
      s.model.context = o.int32("context", 32);
      s.model.pos = parse_position_kind(o.name("pos", "learned"));
      s.model.scale_embeddings = o.flag("scale", false);
      s.model.tie_head = o.flag("tie", false);
      s.model.alibi_slope = float_arg(where, "alibiSlope", o.number("alibiSlope", 0.5));
      s.model.seed = o.seed(1);
      s.batch_size = o.int32("batchSize", 16);
      s.stride = o.int32("stride", 0);
      s.optimizer.kind = parse_optimizer_kind(o.name("optimizer", "adam"));
      s.optimizer.lr = o.number("lr", s.optimizer.kind == OptimizerKind::Sgd ? 0.1 : 1e-3);
      s.optimizer.weight_decay = o.number("weightDecay", default_weight_decay(s.optimizer.kind));
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      w2v_.reset();
      next_.reset();  // subtle: free the old model before the new one is planned and built
      next_ = std::make_unique<NextTokenTrainer>(v, s);
      return true;
    });
  }
  val step(double n) {
    return guard("Trainer.step", [&] {
      const int64_t k = size_arg("Trainer.step", "n", n, 0);
      return stats_js(w2v_ ? w2v_->step(k) : live_next().step(k));
    });
  }
  bool reset() {
    return guard("Trainer.reset", [&] {
      if (w2v_) w2v_->reset();
      else live_next().reset();
      return true;
    });
  }
  // The settings in effect (defaults filled in), with the JS option names.
  val settings() {
    return guard("Trainer.settings", [&] {
      val o = val::object();
      if (w2v_) {
        const Word2VecSettings& s = w2v_->settings();
        o.set("model", std::string(s.sg ? "skipgram" : "cbow"));
        o.set("sg", s.sg);
        o.set("vectorSize", static_cast<double>(s.vector_size));
        o.set("window", static_cast<double>(s.window));
        o.set("negative", static_cast<double>(s.negative));
        o.set("minCount", static_cast<double>(s.min_count));
        o.set("sample", s.sample);
        o.set("alpha", s.alpha);
        o.set("minAlpha", s.min_alpha);
        o.set("epochs", static_cast<double>(s.epochs));
        o.set("cbowMean", s.cbow_mean);
        o.set("batchWords", static_cast<double>(s.batch_words));
        o.set("seed", static_cast<double>(s.seed));
        o.set("vocabSize", static_cast<double>(w2v_->vocab_size()));
        o.set("jobsPerEpoch", static_cast<double>(w2v_->jobs_per_epoch()));
        o.set("totalSteps", static_cast<double>(w2v_->total_jobs()));
        return o;
      }
      const NextTokenSettings& s = live_next().settings();
      o.set("model", std::string("next-token"));
      o.set("vocabSize", static_cast<double>(s.model.vocab_size));
      o.set("vectorSize", static_cast<double>(s.model.dim));
      o.set("context", static_cast<double>(s.model.context));
      o.set("pos", std::string(position_kind_name(s.model.pos)));
      o.set("scale", s.model.scale_embeddings);
      o.set("tie", s.model.tie_head);
      o.set("alibiSlope", s.model.alibi_slope);
      o.set("seed", static_cast<double>(s.model.seed));
      o.set("batchSize", static_cast<double>(s.batch_size));
      o.set("stride", static_cast<double>(s.stride > 0 ? s.stride : s.model.context));
      o.set("optimizer", std::string(optimizer_kind_name(s.optimizer.kind)));
      o.set("lr", s.optimizer.lr);
      o.set("weightDecay", s.optimizer.weight_decay);
      return o;
    });
  }
  // name: word2vec "input" | "output"; next-token "input" (token) | "output" (head) | "position"
  // -> {rows, cols, data: Float32Array copy}
  val table(val which) {
    return guard("Trainer.table", [&] {
      const std::string name = name_arg("Trainer.table", "name", which);
      if (w2v_) {
        if (name != "input" && name != "output") fail("Trainer.table", "word2vec tables are input and output, got '" + name + "'");
        return table_js(name == "input" ? w2v_->input_table() : w2v_->output_table(), w2v_->vocab_size(), w2v_->dim());
      }
      const NextTokenModel& m = live_next().model();
      const NextTokenConfig& c = m.config();
      if (name == "input") return table_js(m.token_table(), c.vocab_size, c.dim);
      if (name == "output") return table_js(m.head_table(), c.vocab_size, c.dim);
      if (name == "position") {
        return table_js(m.position_table(), m.position_table().empty() ? 0 : c.context, c.dim);
      }
      fail("Trainer.table", "next-token tables are input, output and position, got '" + name + "'");
    });
  }
  // word2vec: row -> token id (Int32Array); next-token: undefined (rows are ids).
  val vocab_ids() {
    return guard("Trainer.vocabIds", [&] { return w2v_ ? copy_out(w2v_->vocab_ids()) : val::undefined(); });
  }
  double evaluate(val ids) {
    return guard("Trainer.evaluate", [&] {
      return live_next().evaluate(copy_in<int32_t>("Trainer.evaluate", "ids", ids));
    });
  }

 private:
  NextTokenTrainer& live_next() {
    if (!next_) fail("Trainer", "this trainer was not created (its constructor failed)");
    return *next_;
  }
  std::unique_ptr<Word2Vec> w2v_;
  std::unique_ptr<NextTokenTrainer> next_;
};

val bench_next_token_js(double V, double D, double T, double B, double steps, val optimizer, val pos) {
  const char* where = "benchNextToken";
  return guard(where, [&] {
    const NextTokenBench b = bench_next_token(
        size_arg(where, "vocabSize", V), size_arg(where, "vectorSize", D), size_arg(where, "context", T),
        size_arg(where, "batchSize", B), size_arg(where, "steps", steps),
        name_arg(where, "optimizer", optimizer), name_arg(where, "pos", pos));
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

val bench_word2vec_js(val ids, val starts, val counts, bool sg) {
  const char* where = "benchWord2Vec";
  return guard(where, [&] {
    Word2VecSettings s;
    s.sg = sg;
    const std::vector<int64_t> st64 = int64s_in(where, "sentenceStarts", starts);
    const std::vector<int64_t> ct64 = int64s_in(where, "counts", counts);
    const Word2VecBench b = bench_word2vec(copy_in<int32_t>(where, "ids", ids), st64, ct64, s);
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(train) {
  using namespace emscripten;
  class_<TrainerHandle>("_Trainer")
      .constructor<>()
      .function("initWord2Vec", &TrainerHandle::init_word2vec)
      .function("initNextToken", &TrainerHandle::init_next_token)
      .function("step", &TrainerHandle::step)
      .function("reset", &TrainerHandle::reset)
      .function("settings", &TrainerHandle::settings)
      .function("table", &TrainerHandle::table)
      .function("vocabIds", &TrainerHandle::vocab_ids)
      .function("evaluate", &TrainerHandle::evaluate);
  function("_benchNextToken", &bench_next_token_js);
  function("_benchWord2Vec", &bench_word2vec_js);
}

// ---- projection (project/): PCA, nearest neighbours, analogies -----------------------------
// Appended section: its own includes, helpers and EMSCRIPTEN_BINDINGS(project) block.
// Stateless calls: each takes the table (Float32Array, rows * dim) and copies it in.
#include "project/neighbours.hpp"
#include "project/pca.hpp"

namespace {

// table (V*D), ids (n, or empty: all rows), previous (k*D, or empty)
// -> {n, k, dim, points: Float32Array (n*k), components: Float32Array (k*D),
//     explained: Float64Array (k), variance: Float64Array (k), solver: 'exact' | 'krylov'}
val pca_js(val table, double rows, double dim, double k, val ids, val previous) {
  return guard("pca", [&] {
    const int64_t r_ = size_arg("pca", "rows", rows, 0), d_ = size_arg("pca", "dim", dim, 0);
    PcaOptions o;
    o.k = int32_arg("pca", "k", k);
    const std::vector<float> t = copy_in<float>("pca", "table", table);
    const std::vector<int32_t> rows_ids = copy_in<int32_t>("pca", "ids", ids);
    const std::vector<float> prev = copy_in<float>("pca", "previous", previous);
    o.ids = rows_ids;  // subtle: spans, so the vectors must outlive the call
    o.previous = prev;
    const PcaResult r = pca(t, r_, d_, o);
    val out = val::object();
    out.set("n", static_cast<double>(r.n));
    out.set("k", static_cast<double>(r.k));
    out.set("dim", static_cast<double>(r.dim));
    out.set("points", copy_out(r.points));
    out.set("components", copy_out(r.components));
    out.set("explained", copy_out(r.explained));
    out.set("variance", copy_out(r.variance));
    out.set("solver", std::string(r.solver == PcaSolver::Krylov ? "krylov" : "exact"));
    return out;
  });
}

val neighbours_js(const Neighbours& n) {
  val out = val::object();
  out.set("ids", copy_out(n.ids));
  out.set("scores", copy_out(n.scores));
  return out;
}

// id >= 0: the rows nearest row id (itself left out); id = -1: the rows nearest vector (D).
// -> {ids: Int32Array, scores: Float32Array}
val nearest_js(val table, double rows, double dim, double id, val vector, double k, val metric) {
  return guard("nearest", [&] {
    const int64_t r = size_arg("nearest", "rows", rows, 0), d = size_arg("nearest", "dim", dim, 0);
    const int64_t row = int_arg("nearest", "id", id, -1, kInt32Max);
    const int64_t kk = int32_arg("nearest", "k", k);
    const Metric m = parse_metric(name_arg("nearest", "metric", metric));
    const std::vector<float> t = copy_in<float>("nearest", "table", table);
    const NeighbourIndex index(t, r, d);
    if (row >= 0) return neighbours_js(index.nearest(static_cast<int32_t>(row), kk, m));
    return neighbours_js(index.nearest_to(copy_in<float>("nearest", "vector", vector), kk, m));
  });
}

// gensim's most_similar(positive, negative): -> {ids: Int32Array, scores: Float32Array}
val analogy_js(val table, double rows, double dim, val positive, val negative, double k) {
  return guard("analogy", [&] {
    const int64_t r = size_arg("analogy", "rows", rows, 0), d = size_arg("analogy", "dim", dim, 0);
    const int64_t kk = int32_arg("analogy", "k", k);
    const std::vector<float> t = copy_in<float>("analogy", "table", table);
    const NeighbourIndex index(t, r, d);
    return neighbours_js(index.analogy(copy_in<int32_t>("analogy", "positive", positive),
                                       copy_in<int32_t>("analogy", "negative", negative), kk));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(project) {
  using namespace emscripten;
  function("_pca", &pca_js);
  function("_nearest", &nearest_js);
  function("_analogy", &analogy_js);
}
