// The wasm module's bindings: the only file that knows embind.
//
// Each bound function converts its arguments, calls the core and converts the result.
// No C++ exception crosses into JS: `guard` catches it and stores its message, the raw
// call returns an empty value, and the wrapper in api.post.js throws `new Error(message)`.
// (An exception that escapes wasm leaks shadow-stack space, see TOOLCHAIN.md, so after
// 100,000 failing calls the module would be dead; this way memory stays flat.)
// Raw names start with an underscore; the public JS API (manualSeed, Embedding, Linear,
// sinusoidal, ...) is defined in api.post.js on top of them.
//
// Data crosses the boundary as copies: typed arrays in (copied with TypedArray.set into a
// std::vector), typed arrays out (a typed_memory_view sliced into a fresh JS array, so it
// stays valid when wasm memory grows).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/bench.hpp"
#include "core/error.hpp"
#include "core/kernels.hpp"
#include "embed/embedding.hpp"
#include "embed/linear.hpp"
#include "embed/positional.hpp"

using emscripten::val;
using namespace embedlab;

namespace {

std::string& last_error() {
  static std::string message;
  return message;
}

template <class R>
R empty_result() {
  if constexpr (std::is_same_v<R, val>) {
    return val::undefined();
  } else {
    return R{};
  }
}

// Runs f; on an exception stores its message and returns R{} (undefined for val).
template <class F>
auto guard(F&& f) -> decltype(f()) {
  last_error().clear();
  try {
    return f();
  } catch (const std::exception& e) {
    last_error() = e.what();
  } catch (...) {
    last_error() = "unknown C++ exception";
  }
  return empty_result<decltype(f())>();
}

std::string take_error() {
  std::string e;
  e.swap(last_error());
  return e;
}

Generator& generator() {
  static Generator g;  // torch's default seed until manualSeed is called
  return g;
}

template <class T>
std::vector<T> copy_in(const val& array) {
  const size_t n = array["length"].as<size_t>();
  std::vector<T> v(n);
  if (n) val(emscripten::typed_memory_view(n, v.data())).call<void>("set", array);
  return v;
}

template <class T>
val copy_out(const T* data, size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}
template <class T>
val copy_out(const std::vector<T>& v) {
  return copy_out(v.data(), v.size());
}

uint64_t seed_from(double seed) {
  if (!(seed >= 0 && seed <= 9007199254740991.0) || std::floor(seed) != seed) {
    fail("manualSeed", "seed " + format_number(seed) + " must be an integer in [0, 9007199254740991]");
  }
  return static_cast<uint64_t>(seed);
}

bool manual_seed(double seed) {
  return guard([&] {
    generator().manual_seed(seed_from(seed));
    return true;
  });
}

// ---- Embedding ---------------------------------------------------------------------------
class EmbeddingHandle {
 public:
  bool init(double V, double D, double padding_idx, double max_norm, bool scale) {
    return guard([&] {
      EmbeddingOptions o;
      o.padding_idx = static_cast<int64_t>(padding_idx);
      o.max_norm = static_cast<float>(max_norm);
      o.scale = scale;
      e_ = std::make_unique<Embedding>(dim_arg("numEmbeddings", V), dim_arg("embeddingDim", D),
                                       generator(), o);
      return true;
    });
  }
  bool init_pretrained(val weights, double V, double D, double padding_idx, double max_norm,
                       bool scale, bool freeze) {
    return guard([&] {
      EmbeddingOptions o;
      o.padding_idx = static_cast<int64_t>(padding_idx);
      o.max_norm = static_cast<float>(max_norm);
      o.scale = scale;
      e_ = std::make_unique<Embedding>(Embedding::from_pretrained(
          copy_in<float>(weights), dim_arg("numEmbeddings", V), dim_arg("embeddingDim", D), o, freeze));
      return true;
    });
  }
  double rows() const { return e_ ? static_cast<double>(e_->rows()) : 0; }
  double dim() const { return e_ ? static_cast<double>(e_->dim()) : 0; }
  double padding_idx() const { return e_ ? static_cast<double>(e_->options().padding_idx) : -1; }
  double scale_factor() const { return e_ ? e_->scale_factor() : 1; }
  val weight() const {
    return guard([&] { return copy_out(live().weight()); });
  }
  val forward(val ids) {
    return guard([&] { return copy_out(live().forward(copy_in<int32_t>(ids))); });
  }
  // ids (n), positions (T, D) -> (n, D) = W[ids]*s + pos[i % T]
  val forward_with_positions(val ids, val pos, double T) {
    return guard([&] {
      const std::vector<int32_t> v = copy_in<int32_t>(ids);
      const std::vector<float> p = copy_in<float>(pos);
      const size_t t = static_cast<size_t>(T);
      if (p.size() != t * static_cast<size_t>(live().dim())) {
        fail("forwardWithPositions", "positions have " + std::to_string(p.size()) +
                                         " values, expected " + std::to_string(t) + " x " +
                                         std::to_string(live().dim()));
      }
      std::vector<float> out(v.size() * live().dim());
      live().forward_with_positions(v, p.data(), t, out.data());
      return copy_out(out);
    });
  }
  // one_hot(ids, V) @ W computed through a bias-free Linear(V, D) whose weight is W^T.
  val forward_one_hot(val ids) {
    return guard([&] {
      const std::vector<int32_t> v = copy_in<int32_t>(ids);
      live().check_ids(v, "oneHotForward");
      const Linear lin = Linear::from_embedding(live());
      return copy_out(lin.forward(one_hot(v, live().rows()), static_cast<int64_t>(v.size())));
    });
  }
  // {rows: Int32Array, values: Float32Array} or a dense Float32Array (V*D)
  val backward(val ids, val dout, bool sparse) {
    return guard([&] {
      const std::vector<int32_t> v = copy_in<int32_t>(ids);
      const std::vector<float> g = copy_in<float>(dout);
      if (!sparse) return copy_out(live().backward_dense(v, g));
      const SparseGrad sg = live().backward_sparse(v, g);
      val out = val::object();
      out.set("rows", copy_out(sg.rows));
      out.set("values", copy_out(sg.values));
      return out;
    });
  }

 private:
  static int64_t dim_arg(const char* name, double v) {
    if (!(v >= 1 && v <= 2147483647.0) || std::floor(v) != v) {
      fail("Embedding", std::string(name) + " " + format_number(v) +
                            " must be an integer in [1, 2147483647]");
    }
    return static_cast<int64_t>(v);
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
    return guard([&] {
      l_ = std::make_unique<Linear>(static_cast<int64_t>(in), static_cast<int64_t>(out), generator());
      return true;
    });
  }
  double in_features() const { return l_ ? static_cast<double>(l_->in_features()) : 0; }
  double out_features() const { return l_ ? static_cast<double>(l_->out_features()) : 0; }
  val weight() const {
    return guard([&] { return copy_out(live().weight()); });
  }
  val forward(val x, double n) {
    return guard([&] { return copy_out(live().forward(copy_in<float>(x), static_cast<int64_t>(n))); });
  }

 private:
  Linear& live() const {
    if (!l_) fail("Linear", "this layer was not created (its constructor failed)");
    return *l_;
  }
  std::unique_ptr<Linear> l_;
};

// ---- positional encodings -----------------------------------------------------------------
val sinusoidal_table(double T, double D) {
  return guard([&] { return copy_out(sinusoidal(static_cast<int64_t>(T), static_cast<int64_t>(D))); });
}
val learned_table(double T, double D) {
  return guard([&] {
    return copy_out(LearnedPositions(static_cast<int64_t>(T), static_cast<int64_t>(D), generator()).table());
  });
}
val rope_rotation_table(double T, double D) {
  return guard([&] { return copy_out(rope_table(static_cast<int64_t>(T), static_cast<int64_t>(D))); });
}
val rope_apply_copy(val x, double T, double D, double offset) {
  return guard([&] {
    std::vector<float> v = copy_in<float>(x);
    const int64_t t = static_cast<int64_t>(T), d = static_cast<int64_t>(D);
    if (v.size() != static_cast<size_t>(t * d)) {
      fail("ropeApply", "x has " + std::to_string(v.size()) + " values, expected " +
                            std::to_string(t) + " x " + std::to_string(d));
    }
    rope_apply(v.data(), t, d, static_cast<int64_t>(offset));
    return copy_out(v);
  });
}
val alibi_table(double H, double T) {
  return guard([&] { return copy_out(alibi_bias(static_cast<int64_t>(H), static_cast<int64_t>(T))); });
}
val similarity(val table, double T, double D, bool normalise) {
  return guard([&] {
    return copy_out(position_similarity(copy_in<float>(table), static_cast<int64_t>(T),
                                        static_cast<int64_t>(D), normalise));
  });
}

// ---- benchmarks ----------------------------------------------------------------------------
val bench_lookup_js(double V, double D, double B, double T, double reps) {
  return guard([&] {
    const LookupBench b = bench_lookup(static_cast<int64_t>(V), static_cast<int64_t>(D),
                                       static_cast<int64_t>(B), static_cast<int64_t>(T),
                                       static_cast<int>(reps));
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
