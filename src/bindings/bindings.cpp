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
    return guard([&] {
      t_ = std::make_unique<Tokenizer>(Tokenizer::gpt2());
      return true;
    });
  }
  // kind "whitespace" | "word" | "char"; text = the corpus the vocabulary is built from.
  bool init_corpus(std::string kind, std::string text, bool lowercase, double min_count, double max_size) {
    return guard([&] {
      VocabOptions o;
      o.kind = parse_vocab_kind(kind);
      o.lowercase = lowercase;
      o.min_count = static_cast<int64_t>(min_count);
      o.max_size = static_cast<int64_t>(max_size);
      t_ = std::make_unique<Tokenizer>(Tokenizer::from_corpus(text, o));
      return true;
    });
  }
  bool init_bpe(std::string file) {
    return guard([&] {
      t_ = std::make_unique<Tokenizer>(Tokenizer::from_bpe(BpeTokenizer::load(file)));
      return true;
    });
  }
  std::string kind() const { return t_ ? t_->kind() : ""; }
  double vocab_size() const { return t_ ? t_->vocab_size() : 0; }
  // text (string or Uint8Array, as UTF-8 bytes) -> Int32Array
  val encode(std::string text, bool allow_special) {
    return guard([&] { return copy_out(live().encode(text, allow_special)); });
  }
  std::string decode(val ids) {
    return guard([&] { return live().decode(copy_in<int32_t>(ids)); });
  }
  val token_bytes(double id) {
    return guard([&] {
      const std::string b = live().token_bytes(static_cast<int32_t>(id));
      return copy_out(reinterpret_cast<const uint8_t*>(b.data()), b.size());
    });
  }
  // ids -> array of display strings (valid UTF-8), one call for a whole strip of chips.
  val token_strings(val ids) {
    return guard([&] {
      const std::vector<int32_t> v = copy_in<int32_t>(ids);
      val out = val::array();
      for (size_t k = 0; k < v.size(); ++k) out.set(k, live().token_string(v[k]));
      return out;
    });
  }
  // Float64Array (V) corpus counts per id for word/char vocabularies, else undefined.
  val counts() {
    return guard([&] {
      const Vocab* v = live().vocab();
      if (!v) return val::undefined();
      std::vector<double> c(v->counts().begin(), v->counts().end());
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
  bool init(std::string text, double vocab_size) {
    return guard([&] {
      tr_ = std::make_unique<BpeTrainer>(text, static_cast<int64_t>(vocab_size));
      return true;
    });
  }
  // Up to n merges -> [{left, right, id, count, token}] (token: display string of the new id).
  val step(double n) {
    return guard([&] {
      const std::vector<BpeMerge> ms = live().step(static_cast<int64_t>(n));
      val out = val::array();
      for (size_t k = 0; k < ms.size(); ++k) {
        val m = val::object();
        m.set("left", ms[k].left);
        m.set("right", ms[k].right);
        m.set("id", ms[k].id);
        m.set("count", static_cast<double>(ms[k].count));
        m.set("token", unicode::replace_invalid_utf8(live().tokenizer().token_bytes(ms[k].id)));
        out.set(k, m);
      }
      return out;
    });
  }
  bool done() const { return tr_ ? tr_->done() : true; }
  double vocab_size() const { return tr_ ? tr_->tokenizer().vocab_size() : 0; }
  std::string save() {
    return guard([&] { return live().tokenizer().save(); });
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
  return guard([&] {
    WindowOptions o;
    o.max_length = static_cast<int64_t>(max_length);
    o.stride = static_cast<int64_t>(stride);
    o.batch_size = static_cast<int64_t>(batch_size);
    o.shuffle = shuffle;
    o.seed = static_cast<uint64_t>(seed);
    o.drop_last = drop_last;
    const SlidingWindows ds(copy_in<int32_t>(ids), o);
    const int64_t kept = std::min(ds.num_samples(), ds.num_batches() * o.batch_size);
    std::vector<int32_t> starts(ds.sample_starts().begin(), ds.sample_starts().begin() + kept);
    val out = val::object();
    out.set("numSamples", static_cast<double>(ds.num_samples()));
    out.set("numBatches", static_cast<double>(ds.num_batches()));
    out.set("inputTokens", static_cast<double>(kept * o.max_length));
    out.set("starts", copy_out(starts));
    return out;
  });
}

// ids (n) -> Int32Array (P * 2): center, context, center, context, ...
val skipgram_pairs_js(val ids, double window) {
  return guard([&] {
    const auto pairs = skipgram_pairs(copy_in<int32_t>(ids), static_cast<int64_t>(window));
    std::vector<int32_t> flat(pairs.size() * 2);
    for (size_t k = 0; k < pairs.size(); ++k) flat[2 * k] = pairs[k].first, flat[2 * k + 1] = pairs[k].second;
    return copy_out(flat);
  });
}

val bench_tokenize_js(std::string text, std::string kind, double reps) {
  return guard([&] {
    const TokenizeBench b = bench_tokenize(text, [&] {
      if (kind == "gpt2") return Tokenizer::gpt2();
      VocabOptions o;
      o.kind = parse_vocab_kind(kind);
      return Tokenizer::from_corpus(text, o);
    }, static_cast<int>(reps));
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
      .function("save", &BpeTrainerHandle::save);
  function("_slidingWindows", &sliding_windows);
  function("_skipgramPairs", &skipgram_pairs_js);
  function("_benchTokenize", &bench_tokenize_js);
}
