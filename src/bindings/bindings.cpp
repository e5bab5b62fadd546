// The wasm module's bindings: the only file that knows embind.
//
// Each bound function converts its arguments, calls the core and converts the result.
// No C++ exception crosses into JS: `guard` catches it and stores its message, the raw
// call returns an empty value, and the wrapper in api/*.post.js throws `new Error(message)`.
// (An exception that escapes wasm leaks shadow-stack space, see TOOLCHAIN.md, so after
// 100,000 failing calls the module would be dead; this way memory stays flat.)
// Raw names start with an underscore; the public JS API (manualSeed, Embedding, Linear,
// sinusoidal, ...) is defined in api/*.post.js (embed, text, train, project) on top of them.
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
  // padding_idx: NaN for none, else an integer in [-V, V) (negative counts from the end)
  bool init(double V, double D, double padding_idx, double max_norm, bool scale) {
    return guard([&] {
      EmbeddingOptions o;
      if (!std::isnan(padding_idx)) o.padding_idx = static_cast<int64_t>(padding_idx);
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
      if (!std::isnan(padding_idx)) o.padding_idx = static_cast<int64_t>(padding_idx);
      o.max_norm = static_cast<float>(max_norm);
      o.scale = scale;
      e_ = std::make_unique<Embedding>(Embedding::from_pretrained(
          copy_in<float>(weights), dim_arg("numEmbeddings", V), dim_arg("embeddingDim", D), o, freeze));
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
  // Up to n merges -> [{left, right, id, count, token, tokens}] (token: display string of the new
  // id; tokens: how many tokens the training text has after this merge).
  val step(double n) {
    return guard([&] {
      check_at_least("bpe train step", "n", static_cast<int64_t>(n), 0);
      val out = val::array();
      for (int64_t k = 0; k < static_cast<int64_t>(n); ++k) {
        const std::vector<BpeMerge> one = live().step(1);
        if (one.empty()) break;
        const BpeMerge& mg = one[0];
        val m = val::object();
        m.set("left", mg.left);
        m.set("right", mg.right);
        m.set("id", mg.id);
        m.set("count", static_cast<double>(mg.count));
        m.set("token", unicode::replace_invalid_utf8(live().tokenizer().token_bytes(mg.id)));
        m.set("tokens", static_cast<double>(live().token_count()));
        out.set(static_cast<uint32_t>(k), m);  // subtle: an int64_t key would need BigInt
      }
      return out;
    });
  }
  bool done() const { return tr_ ? tr_->done() : true; }
  double vocab_size() const { return tr_ ? tr_->tokenizer().vocab_size() : 0; }
  double token_count() const { return tr_ ? static_cast<double>(tr_->token_count()) : 0; }
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

// opts[key] as a number, or fallback when absent (JS validated the keys and types).
double opt_num(const val& opts, const char* key, double fallback) {
  const val v = opts[key];
  return v.isUndefined() || v.isNull() ? fallback : v.as<double>();
}
bool opt_bool(const val& opts, const char* key, bool fallback) {
  const val v = opts[key];
  return v.isUndefined() || v.isNull() ? fallback : v.as<bool>();
}
std::string opt_str(const val& opts, const char* key, const std::string& fallback) {
  const val v = opts[key];
  return v.isUndefined() || v.isNull() ? fallback : v.as<std::string>();
}

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
    return guard([&] {
      Word2VecSettings s;
      s.sg = opt_bool(opts, "sg", false);
      s.vector_size = static_cast<int64_t>(opt_num(opts, "vectorSize", 100));
      s.window = static_cast<int64_t>(opt_num(opts, "window", 5));
      s.negative = static_cast<int64_t>(opt_num(opts, "negative", 5));
      s.min_count = static_cast<int64_t>(opt_num(opts, "minCount", 5));
      s.sample = opt_num(opts, "sample", 1e-3);
      s.alpha = opt_num(opts, "alpha", 0.025);
      s.min_alpha = opt_num(opts, "minAlpha", 0.0001);
      s.epochs = static_cast<int64_t>(opt_num(opts, "epochs", 5));
      s.cbow_mean = opt_bool(opts, "cbowMean", true);
      s.batch_words = static_cast<int64_t>(opt_num(opts, "batchWords", 10000));
      s.seed = seed_from(opt_num(opts, "seed", 1));
      const std::vector<double> st = copy_in<double>(starts), ct = copy_in<double>(counts);
      const std::vector<int64_t> st64(st.begin(), st.end()), ct64(ct.begin(), ct.end());
      next_.reset();
      w2v_ = std::make_unique<Word2Vec>(copy_in<int32_t>(ids), st64, ct64, s);
      return true;
    });
  }
  bool init_next_token(val ids, val opts) {
    return guard([&] {
      NextTokenSettings s;
      s.model.vocab_size = static_cast<int64_t>(opt_num(opts, "vocabSize", 0));
      s.model.dim = static_cast<int64_t>(opt_num(opts, "vectorSize", 64));
      s.model.context = static_cast<int64_t>(opt_num(opts, "context", 32));
      s.model.pos = parse_position_kind(opt_str(opts, "pos", "learned"));
      s.model.scale_embeddings = opt_bool(opts, "scale", false);
      s.model.tie_head = opt_bool(opts, "tie", false);
      s.model.alibi_slope = static_cast<float>(opt_num(opts, "alibiSlope", 0.5));
      s.model.seed = seed_from(opt_num(opts, "seed", 1));
      s.batch_size = static_cast<int64_t>(opt_num(opts, "batchSize", 16));
      s.stride = static_cast<int64_t>(opt_num(opts, "stride", 0));
      s.optimizer.kind = parse_optimizer_kind(opt_str(opts, "optimizer", "adam"));
      s.optimizer.lr = opt_num(opts, "lr", s.optimizer.kind == OptimizerKind::Sgd ? 0.1 : 1e-3);
      s.optimizer.weight_decay = opt_num(opts, "weightDecay", default_weight_decay(s.optimizer.kind));
      w2v_.reset();
      next_ = std::make_unique<NextTokenTrainer>(copy_in<int32_t>(ids), s);
      return true;
    });
  }
  val step(double n) {
    return guard([&] {
      const int64_t k = static_cast<int64_t>(n);
      return stats_js(w2v_ ? w2v_->step(k) : live_next().step(k));
    });
  }
  bool reset() {
    return guard([&] {
      if (w2v_) w2v_->reset();
      else live_next().reset();
      return true;
    });
  }
  // The settings in effect (defaults filled in), with the JS option names.
  val settings() {
    return guard([&] {
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
  val table(std::string name) {
    return guard([&] {
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
    return guard([&] { return w2v_ ? copy_out(w2v_->vocab_ids()) : val::undefined(); });
  }
  double evaluate(val ids) {
    return guard([&] { return live_next().evaluate(copy_in<int32_t>(ids)); });
  }

 private:
  NextTokenTrainer& live_next() {
    if (!next_) fail("Trainer", "this trainer was not created (its constructor failed)");
    return *next_;
  }
  std::unique_ptr<Word2Vec> w2v_;
  std::unique_ptr<NextTokenTrainer> next_;
};

val bench_next_token_js(double V, double D, double T, double B, double steps, std::string optimizer,
                        std::string pos) {
  return guard([&] {
    const NextTokenBench b = bench_next_token(static_cast<int64_t>(V), static_cast<int64_t>(D),
                                              static_cast<int64_t>(T), static_cast<int64_t>(B),
                                              static_cast<int64_t>(steps), optimizer, pos);
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

val bench_word2vec_js(val ids, val starts, val counts, bool sg) {
  return guard([&] {
    Word2VecSettings s;
    s.sg = sg;
    const std::vector<double> st = copy_in<double>(starts), ct = copy_in<double>(counts);
    const std::vector<int64_t> st64(st.begin(), st.end()), ct64(ct.begin(), ct.end());
    const Word2VecBench b = bench_word2vec(copy_in<int32_t>(ids), st64, ct64, s);
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
  return guard([&] {
    const std::vector<float> t = copy_in<float>(table), prev = copy_in<float>(previous);
    const std::vector<int32_t> rows_ids = copy_in<int32_t>(ids);
    PcaOptions o;
    o.k = static_cast<int64_t>(k);
    o.ids = rows_ids;
    o.previous = prev;
    const PcaResult r = pca(t, static_cast<int64_t>(rows), static_cast<int64_t>(dim), o);
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

// id >= 0: the rows nearest row id (itself left out); id < 0: the rows nearest vector (D).
// -> {ids: Int32Array, scores: Float32Array}
val nearest_js(val table, double rows, double dim, double id, val vector, double k, std::string metric) {
  return guard([&] {
    const std::vector<float> t = copy_in<float>(table);
    const NeighbourIndex index(t, static_cast<int64_t>(rows), static_cast<int64_t>(dim));
    const Metric m = parse_metric(metric);
    if (id >= 0) return neighbours_js(index.nearest(static_cast<int32_t>(id), static_cast<int64_t>(k), m));
    return neighbours_js(index.nearest_to(copy_in<float>(vector), static_cast<int64_t>(k), m));
  });
}

// gensim's most_similar(positive, negative): -> {ids: Int32Array, scores: Float32Array}
val analogy_js(val table, double rows, double dim, val positive, val negative, double k) {
  return guard([&] {
    const std::vector<float> t = copy_in<float>(table);
    const NeighbourIndex index(t, static_cast<int64_t>(rows), static_cast<int64_t>(dim));
    return neighbours_js(index.analogy(copy_in<int32_t>(positive), copy_in<int32_t>(negative),
                                       static_cast<int64_t>(k)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(project) {
  using namespace emscripten;
  function("_pca", &pca_js);
  function("_nearest", &nearest_js);
  function("_analogy", &analogy_js);
}
