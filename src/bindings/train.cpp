// Bindings for train/: word2vec and the next-token model as steppers, and their benchmarks.
// The JS API is api/train.post.js.
#include "bindings/common.hpp"

#include "bench/bench_train.hpp"
#include "train/generate.hpp"
#include "train/next_token.hpp"
#include "train/run_tokens.hpp"
#include "train/word2vec.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

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
      const PositionKind& kind = find_position_kind(o.name("pos", "learned"));
      s.model.pos = kind.name;
      s.model.pos_params = position_values(where, o.get("posParams"), kind);
      s.model.scale_embeddings = o.flag("scale", false);
      s.model.tie_head = o.flag("tie", false);
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
  // The whole run as checkpoint bytes (train/checkpoint.hpp), and back.
  val save_state() {
    return guard("Trainer.saveState", [&] {
      return copy_out(w2v_ ? w2v_->save_state() : live_next().save_state());
    });
  }
  double steps_done() {
    return guard("Trainer.stepsDone", [&] {
      return static_cast<double>(w2v_ ? w2v_->jobs_done() : live_next().steps_done());
    });
  }
  bool load_state(val bytes) {
    const char* where = "Trainer.loadState";
    return guard(where, [&] {
      const std::vector<uint8_t> b = copy_in<uint8_t>(where, "bytes", bytes);
      if (w2v_) w2v_->load_state(b);
      else live_next().load_state(b);
      return true;
    });
  }
  // The run's tokenizer ({kind, data} of Tokenizer.save) and the token id of each row (Int32Array,
  // empty: row = id), written into every later saveState (train/run_tokens.hpp).
  bool set_tokens(val kind, val data, val rows) {
    const char* where = "Trainer.nextToken";
    return guard(where, [&] {
      const Tokenizer tok = load_tokenizer(name_arg(where, "tokenizer kind", kind), bytes_in(where, "tokenizer data", data));
      const std::vector<int32_t> row_ids = copy_in<int32_t>(where, "rowIds", rows);
      live_next().set_tokens(tok, row_ids);
      return true;
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
      o.set("pos", bytes_out(s.model.pos));  // decoded by the JS wrapper
      val params = val::object();
      const PositionKind& kind = find_position_kind(s.model.pos);
      for (const PositionParam& p : kind.params) {
        params.set(p.name, s.model.pos_params.at(p.name));
        o.set(position_option_name(kind, p), s.model.pos_params.at(p.name));
      }
      o.set("posParams", params);
      o.set("scale", s.model.scale_embeddings);
      o.set("tie", s.model.tie_head);
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
      if (name == "position") {  // the kind's own table; {rows: 0} when it has none
        int64_t rows = 0, cols = 0;
        const std::vector<float>* P = m.position_table(&rows, &cols);
        return P ? table_js(*P, rows, cols) : table_js(std::vector<float>(), 0, c.dim);
      }
      fail("Trainer.table", "next-token tables are input, output and position, got '" + name + "'");
    });
  }
  // word2vec: row -> token id (Int32Array); next-token: undefined (rows are ids).
  val vocab_ids() {
    return guard("Trainer.vocabIds", [&] { return w2v_ ? copy_out(w2v_->vocab_ids()) : val::undefined(); });
  }
  // ids, window length, attention position (-1: the last) -> {loss, length, at, attention: Float32Array (length)}
  val evaluate_at(val ids, double length, double at) {
    const char* where = "Trainer.evaluateAt";
    return guard(where, [&] {
      const int64_t L = size_arg(where, "length", length);
      const int64_t a = int_arg(where, "at", at, -1, kInt32Max);
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);  // arguments first, then the model
      const NextTokenTrainer::Evaluation e = live_next().evaluate_at(v, L, a);
      val o = val::object();
      o.set("loss", e.loss);
      o.set("length", static_cast<double>(e.length));
      o.set("at", static_cast<double>(e.at));
      o.set("attention", copy_out(e.attention));
      return o;
    });
  }
  // next-token: continue at a longer context (NextTokenTrainer::start_finetune).
  bool start_finetune(double context) {
    const char* where = "Trainer.startFinetune";
    return guard(where, [&] {
      const int64_t T = size_arg(where, "context", context);
      if (w2v_) fail(where, "a fine-tune continues a next-token run at a longer context; this trainer is word2vec");
      live_next().start_finetune(T);
      return true;
    });
  }
  // next-token -> {context: the windows' length now, finetune: null | {context, step}}
  val phase() {
    return guard("Trainer.phase", [&] {
      if (w2v_) fail("Trainer.phase", "word2vec runs have no phases");
      const NextTokenTrainer& tr = live_next();
      val o = val::object();
      o.set("context", static_cast<double>(tr.context()));
      val ft = val::null();
      if (tr.finetune_context() != 0) {
        ft = val::object();
        ft.set("context", static_cast<double>(tr.finetune_context()));
        ft.set("step", static_cast<double>(tr.finetune_step()));
      }
      o.set("finetune", ft);
      return o;
    });
  }
  double evaluate(val ids) {
    return guard("Trainer.evaluate", [&] {
      const std::vector<int32_t> v = copy_in<int32_t>("Trainer.evaluate", "ids", ids);
      return live_next().evaluate(v);
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

// state (Uint8Array: checkpoint bytes), prompt (Uint8Array, UTF-8), tokens, temperature, seed
// -> {text: Uint8Array (UTF-8), ids: Int32Array}: train/generate.hpp, as `embedlab generate`.
val generate_js(val state, val prompt, double tokens, double temperature, double seed) {
  const char* where = "generate";
  return guard(where, [&] {
    SampleOptions o;
    o.tokens = int_arg(where, "tokens", tokens, 0, kMaxSampleTokens);
    o.temperature = temperature;  // generate() names a non-finite or negative one
    o.seed = seed_arg(where, seed);
    const std::vector<uint8_t> bytes = copy_in<uint8_t>(where, "state", state);
    const Generated g = generate(bytes, bytes_in(where, "prompt", prompt), o);
    val out = val::object();
    out.set("text", bytes_out(g.text));
    out.set("ids", copy_out(g.ids));
    return out;
  });
}

// ids (Int32Array, token ids of the tokenizer), kind (the tokenizer's kind), vocabSize, rows
// ("default" | "all" | "occurring") -> {ids: Int32Array (model rows), rowIds: Int32Array (row ->
// token id), remapped: bool}: train/run_tokens.hpp run_rows, the CLI's step.
val next_token_rows_js(val ids, val kind, double vocab_size, val rows) {
  const char* where = "nextTokenRows";
  return guard(where, [&] {
    const std::string mode = name_arg(where, "rows", rows);
    const int64_t V = int_arg(where, "vocabSize", vocab_size, 1, INT32_MAX);
    const RunRows r = mode == "default" ? default_run_rows(name_arg(where, "kind", kind)) : parse_run_rows(where, mode);
    RunRowIds rr = run_rows(copy_in<int32_t>(where, "ids", ids), V, r);
    const bool remapped = r == RunRows::kOccurring;
    if (rr.rows.empty() && r == RunRows::kAll) {  // row r is id r: the identity, spelled out for the page
      rr.rows.resize(plan(where, "row ids", V, kInt32));
      for (int64_t k = 0; k < V; ++k) rr.rows[static_cast<size_t>(k)] = static_cast<int32_t>(k);
    }
    val out = val::object();
    out.set("ids", copy_out(rr.ids));
    out.set("rowIds", copy_out(rr.rows));
    out.set("remapped", remapped);
    return out;
  });
}

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
      .function("saveState", &TrainerHandle::save_state)
      .function("loadState", &TrainerHandle::load_state)
      .function("stepsDone", &TrainerHandle::steps_done)
      .function("settings", &TrainerHandle::settings)
      .function("table", &TrainerHandle::table)
      .function("vocabIds", &TrainerHandle::vocab_ids)
      .function("evaluate", &TrainerHandle::evaluate)
      .function("evaluateAt", &TrainerHandle::evaluate_at)
      .function("startFinetune", &TrainerHandle::start_finetune)
      .function("phase", &TrainerHandle::phase)
      .function("setTokens", &TrainerHandle::set_tokens);
  function("_generate", &generate_js);
  function("_nextTokenRows", &next_token_rows_js);
  function("_benchNextToken", &bench_next_token_js);
  function("_benchWord2Vec", &bench_word2vec_js);
}
