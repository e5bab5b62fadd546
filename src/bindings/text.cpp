// Bindings for tokenizer/ and data/: tokenizers (every kind through make_tokenizer), BPE
// training, word2vec sentences, sliding windows, skip-gram pairs and the tokenizer benchmark.
// The JS API is api/text.post.js.
#include <algorithm>

#include "bindings/common.hpp"

#include "bench/bench_tokenize.hpp"
#include "data/sentences.hpp"
#include "data/windows.hpp"
#include "tokenizer/bpe_train.hpp"
#include "tokenizer/tokenizer_kinds.hpp"
#include "tokenizer/unicode.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

class TokenizerHandle {
 public:
  // Every constructor goes through the engine's make_tokenizer (tokenizer_kinds.hpp).
  bool init_gpt2() {
    return guard("Tokenizer.gpt2", [&] {
      t_ = std::make_unique<Tokenizer>(make_tokenizer("gpt2", {}, {}));
      return true;
    });
  }
  // kind "whitespace" | "word" | "char"; text (Uint8Array, UTF-8) = the corpus the vocabulary
  // is built from.
  bool init_corpus(val kind, val text, bool lowercase, double min_count, double max_size) {
    const char* where = "Tokenizer.fromCorpus";
    return guard(where, [&] {
      const std::string k = name_arg(where, "kind", kind);
      parse_vocab_kind(k);  // a vocabulary kind only: "vocab: unknown kind 'gpt2', expected ..."
      TokenizerOptions o;
      o.lowercase = lowercase;
      o.min_count = int32_arg(where, "minCount", min_count);
      o.max_size = int32_arg(where, "maxSize", max_size);
      t_ = std::make_unique<Tokenizer>(make_tokenizer(k, bytes_in(where, "corpus", text), o));
      return true;
    });
  }
  // file (Uint8Array): a merge file's bytes (BpeTrainer.save()).
  bool init_bpe(val file) {
    return guard("Tokenizer.fromBpe", [&] {
      TokenizerOptions o;
      o.merges = bytes_in("Tokenizer.fromBpe", "file", file);
      t_ = std::make_unique<Tokenizer>(make_tokenizer("bpe", {}, o));
      return true;
    });
  }
  // Any kind: corpus (Uint8Array, UTF-8), merges (Uint8Array or undefined), opts {lowercase,
  // minCount, maxSize, vocabSize} (absent keys: not given).
  bool init(val kind, val corpus, val merges, val opts) {
    const char* where = "Tokenizer.make";
    return guard(where, [&] {
      const Options in(where, opts);
      TokenizerOptions o;
      o.lowercase = in.flag("lowercase", false);
      o.min_count = in.int32("minCount", 1);
      o.max_size = in.int32("maxSize", 0);
      const val v = opts["vocabSize"];
      if (!v.isUndefined() && !v.isNull()) o.vocab_size = in.int32("vocabSize", 0);
      if (!merges.isUndefined()) o.merges = bytes_in(where, "merges", merges);
      t_ = std::make_unique<Tokenizer>(make_tokenizer(name_arg(where, "kind", kind), bytes_in(where, "corpus", corpus), o));
      return true;
    });
  }
  std::string kind() const { return t_ ? t_->kind() : ""; }  // an ASCII name
  double vocab_size() const { return t_ ? t_->vocab_size() : 0; }
  // text (Uint8Array, UTF-8 bytes) -> Int32Array
  val encode(val text, bool allow_special) {
    return guard("encode", [&] {
      const std::string t = bytes_in("encode", "text", text);  // arguments first, then the tokenizer
      return copy_out(live().encode(t, allow_special));
    });
  }
  // ids -> Uint8Array: the text's UTF-8 bytes (invalid sequences already replaced by U+FFFD)
  val decode(val ids) {
    return guard("decode", [&] {
      const std::vector<int32_t> v = copy_in<int32_t>("decode", "ids", ids);
      return bytes_out(live().decode(v));
    });
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
  // text (Uint8Array, UTF-8) -> {ids: Int32Array (n), sentenceStarts: Float64Array (S+1)}:
  // word2vec's sentences by the rule of data/sentences.hpp.
  val sentences(val text) {
    const char* where = "sentences";
    return guard(where, [&] {
      const Sentences s = encode_sentences(live(), bytes_in(where, "text", text));
      std::vector<double> starts(plan(where, "sentence starts", static_cast<int64_t>(s.starts.size()), kFloat64));
      std::copy(s.starts.begin(), s.starts.end(), starts.begin());
      val out = val::object();
      out.set("ids", copy_out(s.ids));
      out.set("sentenceStarts", copy_out(starts));
      return out;
    });
  }
  // The tokenizer as text (tokenizer_kinds.hpp save_tokenizer) -> {kind, data: Uint8Array}: what
  // Trainer.nextToken({tokenizer}) writes into the run's checkpoint for M.generate.
  val save() {
    return guard("Tokenizer.save", [&] {
      const SavedTokenizer s = save_tokenizer(live());
      val out = val::object();
      out.set("kind", s.kind);
      out.set("data", bytes_out(s.data));
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

// The window options of slidingWindows and its samples, checked before any cast.
WindowOptions window_options(const char* where, double max_length, double stride, double batch_size, bool shuffle,
                             double seed, bool drop_last) {
  WindowOptions o;
  o.max_length = int32_arg(where, "maxLength", max_length);
  o.stride = int32_arg(where, "stride", stride);
  o.batch_size = int32_arg(where, "batchSize", batch_size);
  o.shuffle = shuffle;
  o.seed = seed_arg(where, seed);
  o.drop_last = drop_last;
  return o;
}

// ids -> {numSamples, numBatches, inputTokens, starts: Int32Array (samples, in batch order)}
val sliding_windows(val ids, double max_length, double stride, double batch_size, bool shuffle, double seed,
                    bool drop_last) {
  const char* where = "slidingWindows";
  return guard(where, [&] {
    const WindowOptions o = window_options(where, max_length, stride, batch_size, shuffle, seed, drop_last);
    const SlidingWindows ds(copy_in<int32_t>(where, "ids", ids), o);
    const int64_t kept = ds.batched_samples();
    std::vector<int32_t> starts(plan(where, "starts", kept, kInt32));
    std::copy(ds.sample_starts().begin(), ds.sample_starts().begin() + kept, starts.begin());
    val out = val::object();
    out.set("numSamples", static_cast<double>(ds.num_samples()));
    out.set("numBatches", static_cast<double>(ds.num_batches()));
    out.set("inputTokens", static_cast<double>(ds.input_tokens()));
    out.set("starts", copy_out(starts));
    return out;
  });
}

// The same dataset's samples first .. first + count - 1 (batch order), each cut to its first
// min(maxLength, maxIds) ids -> {rows, starts: Int32Array (rows), inputs, targets: Int32Array
// (rows * m)}; a batch b is samples(b * batchSize, batchSize, maxLength).
val window_samples(val ids, double max_length, double stride, double batch_size, bool shuffle, double seed,
                   bool drop_last, double first, double count, double max_ids) {
  const char* where = "slidingWindows.samples";
  return guard(where, [&] {
    const WindowOptions o = window_options(where, max_length, stride, batch_size, shuffle, seed, drop_last);
    const SlidingWindows ds(copy_in<int32_t>(where, "ids", ids), o);
    const WindowBatch wb = ds.samples(int32_arg(where, "first", first), int32_arg(where, "count", count),
                                      int32_arg(where, "maxIds", max_ids));
    std::vector<int32_t> starts(plan(where, "starts", wb.rows, kInt32));
    std::copy(wb.starts.begin(), wb.starts.end(), starts.begin());  // offsets < 2^31: ids came from JS
    val out = val::object();
    out.set("rows", static_cast<double>(wb.rows));
    out.set("starts", copy_out(starts));
    out.set("inputs", copy_out(wb.inputs));
    out.set("targets", copy_out(wb.targets));
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
    const TokenizeBench b = bench_tokenize(t, [&] { return make_tokenizer(k, t, {}); }, r);
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
      .function("init", &TokenizerHandle::init)
      .function("kind", &TokenizerHandle::kind)
      .function("vocabSize", &TokenizerHandle::vocab_size)
      .function("encode", &TokenizerHandle::encode)
      .function("decode", &TokenizerHandle::decode)
      .function("tokenBytes", &TokenizerHandle::token_bytes)
      .function("tokenStrings", &TokenizerHandle::token_strings)
      .function("sentences", &TokenizerHandle::sentences)
      .function("counts", &TokenizerHandle::counts)
      .function("save", &TokenizerHandle::save);
  class_<BpeTrainerHandle>("_BpeTrainer")
      .constructor<>()
      .function("init", &BpeTrainerHandle::init)
      .function("step", &BpeTrainerHandle::step)
      .function("done", &BpeTrainerHandle::done)
      .function("vocabSize", &BpeTrainerHandle::vocab_size)
      .function("tokenCount", &BpeTrainerHandle::token_count)
      .function("save", &BpeTrainerHandle::save);
  function("_slidingWindows", &sliding_windows);
  function("_windowSamples", &window_samples);
  function("_skipgramPairs", &skipgram_pairs_js);
  function("_benchTokenize", &bench_tokenize_js);
}
