// embedlab train | bench train: train word2vec or the next-token model on a text FILE.
//
// train --model skipgram|cbow|next-token --encoding gpt2|whitespace|word|char|bpe:<file>
//       [--lowercase] --seed S FILE [--out table.npy] [--out-tsv DIR] [--table input|output|position]
//   word2vec (gensim's names and defaults): --vector-size 100 --window 5 --negative 5
//       --min-count 5 --sample 1e-3 --alpha 0.025 --min-alpha 0.0001 --epochs 5 [--cbow-sum]
//       Sentences: FILE's lines, by the rule of data/sentences.hpp (CRLF read as LF, blank lines skipped).
//   next-token: --vector-size 64 --context 32 --batch-size 16 --steps 1000 --pos learned
//       --optimizer adam --lr 1e-3 [--weight-decay W] [--scale] [--tie] [--stride S]
//       [--<kind>-<param> X: the parameters of the --pos kind, from the registry (cli/positions.hpp)]
//       [--valid-fraction 0.1]: the last fraction of the ids is held out and its loss reported.
//       [--eval-lengths 32,64,128]: also the held-out loss on windows of these lengths.
//       [--finetune-context T' --finetune-steps N]: after --steps steps at --context T, N more at
//       T' > T (NextTokenTrainer::start_finetune); --eval-lengths then defaults to T,2T,4T,8T and
//       the JSON gains "finetune" (its context, steps, losses and the held-out losses by length
//       before it). --resume of a fine-tuned state needs the same --finetune-context and --steps.
//       Rows: --encoding gpt2 trains only the ids that occur in FILE (remapped to rows in id
//       order, as the page does: train/run_tokens.hpp run_rows); --full-vocab trains all 50,257.
//       Other encodings build their vocabulary from FILE and train all its rows.
// Progress lines go to stderr; the last line on stdout is one JSON summary.
// Checkpoints (train/checkpoint.hpp): --save-state FILE writes the whole run (tables, optimizer
// moments, batch position, generator) after training; --resume FILE continues a saved run of
// the same settings and text: next-token trains until --steps steps in all (so 300 steps, saved,
// then resumed with --steps 1000 gives the tables of 1000 steps in one go, bit for bit), word2vec
// until its last epoch. The page's autosave holds the same bytes (Trainer.saveState). A next-token
// state also holds the tokenizer, for `embedlab generate --state FILE` (cmd_generate.cpp).
// Tables: --out writes the chosen table (default: the input/token table) as float32 .npy;
// --out-tsv writes DIR/vectors.tsv + DIR/metadata.tsv for projector.tensorflow.org.
#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <span>

#include "bench/bench_train.hpp"
#include "cli/commands.hpp"
#include "cli/encoding.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "train/run_tokens.hpp"
#include "cli/positions.hpp"
#include "cli/train_phases.hpp"
#include "core/error.hpp"
#include "core/file.hpp"
#include "data/sentences.hpp"
#include "train/next_token.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"
#include "train/word2vec.hpp"

namespace embedlab::cli {

namespace {

constexpr double kLowest = std::numeric_limits<double>::lowest(), kHighest = std::numeric_limits<double>::max();

// --encoding (cli/encoding.hpp) and --lowercase, which applies to the vocabulary kinds (and is
// ignored for gpt2 and bpe:<file>, as on the page).
Tokenizer make_tokenizer(const std::string& encoding, bool lowercase, const std::string& corpus) {
  Encoding e = parse_encoding(encoding);
  if (e.vocabulary()) e.options.lowercase = lowercase;
  return encoding_tokenizer(e, corpus);
}

std::vector<int64_t> counts_of(const Tokenizer& tok) {
  if (const Vocab* v = tok.vocab()) return std::vector<int64_t>(v->counts().begin(), v->counts().end());
  return {};  // Word2Vec counts the ids itself
}

Word2VecSettings word2vec_settings(Args& a, bool sg, bool seed_required) {
  Word2VecSettings s;
  s.sg = sg;
  s.vector_size = a.integer_or("vector-size", s.vector_size, 1, 1 << 20);
  s.window = a.integer_or("window", s.window, 1, 1000000);
  s.negative = a.integer_or("negative", s.negative, 1, 1000);
  s.min_count = a.integer_or("min-count", s.min_count, 1, INT64_MAX);
  // any finite number: the engine's validate() names the limits
  s.sample = a.number_or("sample", s.sample, kLowest, kHighest);
  s.alpha = a.number_or("alpha", s.alpha, kLowest, kHighest);
  s.min_alpha = a.number_or("min-alpha", s.min_alpha, kLowest, kHighest);
  s.epochs = a.integer_or("epochs", s.epochs, 1, 1000000);
  s.cbow_mean = !a.flag("cbow-sum");
  s.seed = static_cast<uint64_t>(seed_required ? a.integer("seed", 0, INT64_MAX) : a.integer_or("seed", 1, 0, INT64_MAX));
  return s;
}

// --out FILE and --out-tsv DIR: read and checked before training, written after it.
struct TableOutputs {
  std::string npy, tsv, state, resume;  // empty: not asked for
  bool any() const { return !npy.empty() || !tsv.empty(); }
};

TableOutputs table_outputs(Args& a) {
  TableOutputs o;
  if (a.has("out")) o.npy = a.text("out");
  if (a.has("out-tsv")) o.tsv = a.text("out-tsv");
  if (a.has("save-state")) o.state = a.text("save-state");
  if (a.has("resume")) o.resume = a.text("resume");
  return o;
}

void check_table_outputs(const TableOutputs& o, const Args& a) {
  if (a.has("out")) check_output_file("--out", o.npy);
  if (a.has("out-tsv")) check_output_dir("--out-tsv", o.tsv);
  if (a.has("save-state")) check_output_file("--save-state", o.state);
}

// --resume FILE: the checkpoint's bytes (read before training starts), empty when not asked for.
std::vector<uint8_t> resume_bytes(const TableOutputs& o) {
  if (o.resume.empty()) return {};
  const std::string b = read_file("--resume", o.resume);
  return std::vector<uint8_t>(b.begin(), b.end());
}

void save_state(const TableOutputs& o, const std::vector<uint8_t>& bytes) {
  if (!o.state.empty()) write_output_file("--save-state", o.state, std::string(bytes.begin(), bytes.end()));
}

// --out-tsv DIR: DIR/vectors.tsv and DIR/metadata.tsv (io/projector_tsv.hpp's text), each written
// in blocks of rows through cli::OutputFile, so a failed write leaves the old files as they were.
void write_tsv_dir(const std::string& dir, const std::vector<float>& table, int64_t rows, int64_t cols,
                   const std::vector<std::string>& labels) {
  if (static_cast<int64_t>(labels.size()) != rows) {
    fail("--out-tsv", std::to_string(labels.size()) + " labels for " + std::to_string(rows) + " rows");
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail("--out-tsv", "cannot create directory '" + dir + "': " + ec.message());
  OutputFile v("--out-tsv", dir + "/vectors.tsv"), m("--out-tsv", dir + "/metadata.tsv");
  constexpr int64_t kBlock = 1024;  // rows formatted at a time: the whole text of a big table need not fit
  for (int64_t r = 0; r < rows; r += kBlock) {
    const int64_t n = std::min(kBlock, rows - r);
    v.write(projector_vectors_tsv(std::span<const float>(table).subspan(static_cast<size_t>(r * cols), static_cast<size_t>(n * cols)), n, cols));
    m.write(projector_metadata_tsv(std::vector<std::string>(labels.begin() + r, labels.begin() + r + n)));
  }
  v.commit();
  m.commit();
}

void write_tables(const std::vector<float>& table, int64_t rows, int64_t cols,
                  const std::vector<std::string>& labels, const TableOutputs& o) {
  if (!o.npy.empty()) write_output_file("--out", o.npy, npy_bytes(table, rows, cols));
  if (!o.tsv.empty()) write_tsv_dir(o.tsv, table, rows, cols, labels);
}

int train_word2vec(Args& a, std::ostream& out, bool sg) {
  const std::string encoding = a.text("encoding");
  const bool lowercase = a.flag("lowercase");
  const Word2VecSettings s = word2vec_settings(a, sg, true);
  const TableOutputs outputs = table_outputs(a);
  const std::string which = a.text_or("table", "input");
  const std::string file = a.operands()[0];
  a.finish(sg ? "train --model skipgram" : "train --model cbow");
  if (which != "input" && which != "output") fail("train", "--table for word2vec is input or output, got '" + which + "'");
  check_table_outputs(outputs, a);

  const std::string text = read_file("train", file);
  Tokenizer tok = make_tokenizer(encoding, lowercase, text);
  const Sentences sentences = encode_sentences(tok, text);
  const std::vector<int32_t>& ids = sentences.ids;
  const std::vector<int64_t>& starts = sentences.starts;
  const std::vector<int64_t> counts = counts_of(tok);
  Word2Vec w2v(ids, starts, counts, s);
  if (!outputs.resume.empty()) {
    w2v.load_state(resume_bytes(outputs));
    std::cerr << "resumed " << outputs.resume << " at job " << w2v.jobs_done() << "\n";
  }
  std::cerr << "word2vec " << (sg ? "skip-gram" : "CBOW") << ": " << starts.size() - 1 << " sentences, "
            << ids.size() << " words, vocabulary " << w2v.vocab_size() << " (min_count " << s.min_count
            << "), " << w2v.total_jobs() << " jobs\n";
  int64_t eff = 0, raw = 0;
  double ms = 0, loss_sum = 0, last = 0;
  int64_t chunks = 0;
  const int64_t slice = std::max<int64_t>(1, w2v.jobs_per_epoch() / 4);
  while (!w2v.finished()) {
    const TrainStats st = w2v.step(slice);
    eff += st.tokens;
    raw += st.raw_tokens;
    ms += st.elapsed_ms;
    loss_sum += st.loss;
    ++chunks;
    last = st.loss;
    std::cerr << "epoch " << std::min(w2v.epoch() + 1, s.epochs) << "/" << s.epochs << " job "
              << w2v.jobs_done() << "/" << w2v.total_jobs() << " loss " << st.loss << " lr "
              << st.learning_rate << " " << static_cast<int64_t>(st.tokens_per_s) << " words/s\n";
  }
  const int64_t W = w2v.vocab_size(), D = w2v.dim();
  std::vector<std::string> labels(static_cast<size_t>(W));
  for (int64_t r = 0; r < W; ++r) labels[r] = tok.token_string(w2v.vocab_ids()[r]);
  write_tables(which == "input" ? w2v.input_table() : w2v.output_table(), W, D, labels, outputs);
  save_state(outputs, w2v.save_state());
  const double sec = ms / 1000.0;
  out << "{\"model\":" << json_string(sg ? "skipgram" : "cbow") << ",\"encoding\":" << json_string(encoding)
            << ",\"settings\":{\"vector_size\":" << s.vector_size << ",\"window\":" << s.window
            << ",\"negative\":" << s.negative << ",\"min_count\":" << s.min_count
            << ",\"sample\":" << json_number(s.sample) << ",\"alpha\":" << json_number(s.alpha)
            << ",\"min_alpha\":" << json_number(s.min_alpha) << ",\"epochs\":" << s.epochs
            << ",\"sg\":" << (sg ? 1 : 0) << ",\"cbow_mean\":" << (s.cbow_mean ? 1 : 0)
            << ",\"seed\":" << s.seed << "},\"sentences\":" << starts.size() - 1 << ",\"raw_corpus_words\":" << ids.size()
            << ",\"vocab\":" << W << ",\"jobs\":" << w2v.jobs_done() << ",\"loss\":" << json_number(last)
            << ",\"mean_loss\":" << json_number(loss_sum / static_cast<double>(chunks))
            << ",\"effective_words\":" << eff << ",\"raw_words\":" << raw << ",\"seconds\":" << json_number(sec)
            << ",\"effective_words_per_s\":" << json_number(eff / sec)
            << ",\"raw_words_per_s\":" << json_number(raw / sec) << "}\n";
  return 0;
}

// Everything but the vocabulary size, which the tokenizer gives once FILE is read.
NextTokenSettings next_token_settings(Args& a) {
  NextTokenSettings s;
  s.model.dim = a.integer_or("vector-size", 64, 0, 1 << 20);
  s.model.context = a.integer_or("context", 32, 0, 4096);
  const PositionKind& kind = find_position_kind(a.text_or("pos", "learned"));
  s.model.pos = kind.name;
  s.model.pos_params = position_values(a, kind);
  s.model.scale_embeddings = a.flag("scale");
  s.model.tie_head = a.flag("tie");
  s.model.seed = static_cast<uint64_t>(a.integer("seed", 0, INT64_MAX));
  s.batch_size = a.integer_or("batch-size", 16, 0, 1 << 20);
  s.stride = a.integer_or("stride", 0, 0, 1 << 20);
  s.optimizer.kind = parse_optimizer_kind(a.text_or("optimizer", "adam"));
  s.optimizer.lr = a.number_or("lr", s.optimizer.kind == OptimizerKind::Sgd ? 0.1 : 1e-3, kLowest, kHighest);
  s.optimizer.weight_decay = a.number_or("weight-decay", default_weight_decay(s.optimizer.kind), kLowest, kHighest);
  return s;
}

int train_next_token(Args& a, std::ostream& out) {
  const std::string encoding = a.text("encoding");
  const bool lowercase = a.flag("lowercase");
  const TableOutputs outputs = table_outputs(a);
  const std::string which = a.text_or("table", "input");
  const int64_t steps = a.integer_or("steps", 1000, 0, INT32_MAX);
  const double valid_fraction = a.number_or("valid-fraction", 0.1, 0, 0.9);
  std::vector<int32_t> eval_lengths = a.has("eval-lengths") ? a.int_list("eval-lengths") : std::vector<int32_t>{};
  const bool full_vocab = a.flag("full-vocab");
  NextTokenSettings s = next_token_settings(a);
  const Finetune ft = finetune_flags(a, s);
  if (ft.context != 0 && !a.has("eval-lengths")) {
    for (int64_t k : {1, 2, 4, 8}) eval_lengths.push_back(static_cast<int32_t>(std::min<int64_t>(k * s.model.context, INT32_MAX)));
  }
  const std::string file = a.operands()[0];
  a.finish("train --model next-token");
  if (which != "input" && which != "output" && which != "position") {
    fail("train", "--table for next-token is input, output or position, got '" + which + "'");
  }
  check_table_outputs(outputs, a);

  const std::string text = read_file("train", file);
  Tokenizer tok = make_tokenizer(encoding, lowercase, text);
  // the run's rows: the engine's one remap (the page's too), gpt2 to the ids that occur
  const RunRowIds rr = run_rows(tok.encode(text), tok.vocab_size(), full_vocab ? RunRows::kAll : default_run_rows(tok.kind()));
  s.model.vocab_size = run_rows_count(rr, tok.vocab_size());

  const std::vector<int32_t>& ids = rr.ids;  // model rows
  const size_t n_valid = static_cast<size_t>(static_cast<double>(ids.size()) * valid_fraction);
  const std::vector<int32_t> train(ids.begin(), ids.end() - static_cast<std::ptrdiff_t>(n_valid));
  const std::vector<int32_t> valid(ids.end() - static_cast<std::ptrdiff_t>(n_valid), ids.end());
  NextTokenTrainer tr(train, s);
  tr.set_tokens(tok, rr.rows);
  if (ft.context != 0) tr.check_finetune(ft.context);  // refused before any step is spent  // --save-state carries the tokenizer and rows: `embedlab generate --state` needs nothing else
  if (!outputs.resume.empty()) {
    tr.load_state(resume_bytes(outputs));
    if (tr.steps_done() > steps && tr.finetune_context() == 0) {
      fail("train", "--resume " + outputs.resume + " is at step " + std::to_string(tr.steps_done()) + ", past --steps " + std::to_string(steps));
    }
    if (tr.finetune_context() != 0 && (tr.finetune_context() != ft.context || tr.finetune_step() != steps)) {
      fail("train", "--resume " + outputs.resume + " is a fine-tune at context " + std::to_string(tr.finetune_context()) +
                        " from step " + std::to_string(tr.finetune_step()) + ": pass --finetune-context " +
                        std::to_string(tr.finetune_context()) + " and --steps " + std::to_string(tr.finetune_step()));
    }
    if (tr.steps_done() > steps + ft.steps) {
      fail("train", "--resume " + outputs.resume + " is at step " + std::to_string(tr.steps_done()) + ", past --steps " +
                        std::to_string(steps) + " + --finetune-steps " + std::to_string(ft.steps));
    }
    std::cerr << "resumed " << outputs.resume << " at step " << tr.steps_done() << "\n";
  }
  std::cerr << "next-token: " << ids.size() << " tokens (" << train.size() << " train, " << valid.size()
            << " held out), vocabulary " << s.model.vocab_size << ", D " << s.model.dim << ", T "
            << s.model.context << ", B " << s.batch_size << ", pos " << s.model.pos
            << ", " << optimizer_kind_name(s.optimizer.kind) << " lr " << s.optimizer.lr << "\n";
  Progress main, tune;
  run_until(tr, 0, steps, "step ", main);
  std::string before = "null";  // held-out losses by length before the fine-tune (a resumed fine-tune has none)
  if (ft.context != 0) {
    if (tr.finetune_context() == 0) {
      before = losses_by_length(tr, valid, eval_lengths);
      tr.start_finetune(ft.context);
      std::cerr << "fine-tune: context " << ft.context << " from step " << tr.steps_done() << "\n";
    }
    run_until(tr, steps, steps + ft.steps, "fine-tune step ", tune);
  }
  const int64_t done = tr.steps_done(), tokens = main.tokens + tune.tokens;
  const double ms = main.ms + tune.ms, first = main.any ? main.first : NAN, last = main.any ? main.last : NAN;
  const bool has_valid = valid.size() > static_cast<size_t>(s.model.context);
  const double valid_loss = !has_valid ? NAN : ft.context == 0 ? tr.evaluate(valid) : tr.evaluate_at(valid, s.model.context).loss;
  const std::string by_length = losses_by_length(tr, valid, eval_lengths);
  std::string finetune;
  if (ft.context != 0) {
    finetune = ",\"finetune\":{\"context\":" + std::to_string(ft.context) + ",\"steps\":" + std::to_string(ft.steps) +
               ",\"start_step\":" + std::to_string(tr.finetune_step()) + ",\"first_loss\":" + json_number(tune.any ? tune.first : NAN) +
               ",\"loss\":" + json_number(tune.any ? tune.last : NAN) + ",\"valid_loss_by_length_before\":" + before + "}";
  }
  save_state(outputs, tr.save_state());
  const NextTokenModel& m = tr.model();
  const int64_t V = s.model.vocab_size, D = s.model.dim;
  if (outputs.any()) {
    if (which == "position") {
      int64_t rows = 0, cols = 0;
      const std::vector<float>* P = m.position_table(&rows, &cols);
      if (!P) fail("train", "--table position: --pos " + s.model.pos + " has no table of its own");
      std::vector<std::string> labels(static_cast<size_t>(rows));
      for (size_t t = 0; t < labels.size(); ++t) labels[t] = std::to_string(t);
      write_tables(*P, rows, cols, labels, outputs);
    } else {
      std::vector<std::string> labels(static_cast<size_t>(V));
      for (int64_t r = 0; r < V; ++r) labels[r] = tok.token_string(rr.rows.empty() ? static_cast<int32_t>(r) : rr.rows[r]);
      write_tables(which == "input" ? m.token_table() : m.head_table(), V, D, labels, outputs);
    }
  }
  const double sec = ms / 1000.0;
  out << "{\"model\":\"next-token\",\"encoding\":" << json_string(encoding) << ",\"settings\":{\"vector_size\":"
            << D << ",\"context\":" << s.model.context << ",\"batch_size\":" << s.batch_size
            << ",\"pos\":" << json_string(s.model.pos) << ",\"pos_params\":" << json_object(tr.settings().model.pos_params)
            << ",\"scale\":"
            << (s.model.scale_embeddings ? "true" : "false") << ",\"tie\":" << (s.model.tie_head ? "true" : "false")
            << ",\"optimizer\":" << json_string(optimizer_kind_name(s.optimizer.kind))
            << ",\"lr\":" << json_number(s.optimizer.lr) << ",\"weight_decay\":" << json_number(s.optimizer.weight_decay)
            << ",\"seed\":" << s.model.seed << "},\"vocab\":" << V << ",\"tokenizer_vocab\":" << tok.vocab_size()
            << ",\"rows\":" << json_string(rr.rows.empty() ? "all" : "occurring") << ",\"steps\":" << done
            << ",\"loss\":" << json_number(last) << ",\"first_loss\":" << json_number(first)
            << ",\"valid_loss\":" << json_number(valid_loss) << ",\"valid_loss_by_length\":" << by_length << finetune
            << ",\"tokens\":" << tokens
            << ",\"seconds\":" << json_number(sec) << ",\"tokens_per_s\":" << json_number(tokens / sec) << "}\n";
  return 0;
}

int cmd_train(Args& a, std::ostream& out) {
  const std::string model = a.text("model");
  if (model == "skipgram" || model == "cbow") return train_word2vec(a, out, model == "skipgram");
  if (model == "next-token") return train_next_token(a, out);
  fail("train", "unknown model '" + model + "', expected skipgram, cbow or next-token");
}

// embedlab bench train --model skipgram|cbow FILE  (whitespace, lower-cased, gensim defaults)
// embedlab bench train --model next-token [--vocab-size 5000 --vector-size 64 --context 32
//                      --batch-size 256 --steps 5 --optimizer adam --pos learned]
int cmd_bench_train(Args& a, std::ostream& out) {
  const std::string model = a.text_or("model", "skipgram");
  if (model == "next-token") {
    if (!a.operands().empty()) {
      fail("bench train", "unexpected argument '" + a.operands()[0] + "' (--model next-token takes no FILE)");
    }
    const int64_t V = a.integer_or("vocab-size", 5000, 2, INT32_MAX);
    const int64_t D = a.integer_or("vector-size", 64, 1, 1 << 16);
    const int64_t T = a.integer_or("context", 32, 1, 4096);
    const int64_t B = a.integer_or("batch-size", 256, 1, 1 << 16);
    const int64_t steps = a.integer_or("steps", 5, 1, 100000);
    const std::string opt = a.text_or("optimizer", "adam"), pos = a.text_or("pos", "learned");
    a.finish("bench train --model next-token");
    out << to_json(bench_next_token(V, D, T, B, steps, opt, pos)) << "\n";
    return 0;
  }
  if (model != "skipgram" && model != "cbow") {
    fail("bench train", "unknown model '" + model + "', expected skipgram, cbow or next-token");
  }
  Word2VecSettings s = word2vec_settings(a, model == "skipgram", false);
  a.finish("bench train --model " + model);
  if (a.operands().empty()) fail("bench train", "missing the input FILE");
  const std::string text = read_file("bench train", a.operands()[0]);
  Tokenizer tok = make_tokenizer("whitespace", true, text);
  const Sentences sentences = encode_sentences(tok, text);
  out << to_json(bench_word2vec(sentences.ids, sentences.starts, counts_of(tok), s)) << "\n";
  return 0;
}

}  // namespace

namespace {

// word2vec's flags (gensim's names and defaults), shared by train and bench train.
std::vector<FlagSpec> word2vec_flags() {
  return {{"window", "5", "word2vec: the largest distance to a context word"},
          {"negative", "5", "word2vec: noise words per positive pair"},
          {"min-count", "5", "word2vec: drop words seen fewer times"},
          {"sample", "1e-3", "word2vec: the sub-sampling threshold"},
          {"alpha", "0.025", "word2vec: the first learning rate"},
          {"min-alpha", "0.0001", "word2vec: the last learning rate"},
          {"epochs", "5", "word2vec: passes over FILE"},
          {"cbow-sum", nullptr, "word2vec: CBOW sums the context instead of averaging it"}};
}

std::vector<FlagSpec> train_flags() {
  std::vector<FlagSpec> f{
      {"model", "skipgram|cbow|next-token", "what to train", true},
      {"encoding", "gpt2|whitespace|word|char|bpe:<file>", "the tokenizer (vocabulary kinds are built from FILE)", true},
      {"lowercase", nullptr, "lower-case before building the vocabulary"},
      {"seed", "S", "the seed of every random draw", true},
      {"out", "table.npy", "write the chosen table as float32 .npy", false, 'o'},
      {"out-tsv", "DIR", "write DIR/vectors.tsv and DIR/metadata.tsv (Embedding Projector)"},
      {"table", "input|output|position", "the table --out and --out-tsv write (default input)"},
      {"save-state", "FILE", "write the whole run (tables, optimizer state, position) to FILE after training"},
      {"resume", "FILE", "continue the run saved in FILE (same settings and text; next-token: up to --steps in all)"},
      {"vector-size", "D", "the width of the tables (word2vec 100, next-token 64)"}};
  const std::vector<FlagSpec> w = word2vec_flags();
  f.insert(f.end(), w.begin(), w.end());
  const std::vector<FlagSpec> n{
      {"context", "32", "next-token: positions per window"},
      {"stride", "T", "next-token: step between windows (default: the context)"},
      {"batch-size", "16", "next-token: windows per step"},
      {"steps", "1000", "next-token: optimizer steps"},
      position_kind_flag("pos", "next-token: the positional encoding (default learned)"),
      {"optimizer", "sgd|adam|adamw", "next-token: the optimizer (default adam)"},
      {"lr", "X", "next-token: the learning rate (sgd 0.1, adam 1e-3)"},
      {"weight-decay", "W", "next-token: weight decay (adamw 0.01, else 0)"},
      {"scale", nullptr, "next-token: multiply token vectors by sqrt(D)"},
      {"tie", nullptr, "next-token: the head reuses the token table"},
      {"valid-fraction", "0.1", "next-token: the held-out tail of the ids, in [0, 0.9]"},
      {"full-vocab", nullptr, "next-token: train a row for every id of gpt2, not only the ids that occur in FILE"},
      {"eval-lengths", "32,64,128", "next-token: also the held-out loss on windows of these lengths (length extrapolation)"},
      {"finetune-context", "T'", "next-token: after --steps, fine-tune at this longer context (with --finetune-steps)"},
      {"finetune-steps", "N", "next-token: steps of the fine-tune at --finetune-context"}};
  f.insert(f.end(), n.begin(), n.end());
  const std::vector<FlagSpec> p = position_param_flags("next-token: ");
  f.insert(f.end(), p.begin(), p.end());
  return f;
}

std::vector<FlagSpec> bench_train_flags() {
  std::vector<FlagSpec> f{
      {"model", "skipgram|cbow|next-token", "what to time (default skipgram)"},
      {"vector-size", "D", "the width of the tables (word2vec 100, next-token 64)"},
      {"seed", "S", "word2vec: the seed (default 1)"}};
  const std::vector<FlagSpec> w = word2vec_flags();
  f.insert(f.end(), w.begin(), w.end());
  const std::vector<FlagSpec> n{
      {"vocab-size", "5000", "next-token: the vocabulary of the synthetic ids"},
      {"context", "32", "next-token: positions per window"},
      {"batch-size", "256", "next-token: windows per step"},
      {"steps", "5", "next-token: timed steps"},
      {"optimizer", "sgd|adam|adamw", "next-token: the optimizer (default adam)"},
      position_kind_flag("pos", "next-token: the positional encoding (default learned)")};
  f.insert(f.end(), n.begin(), n.end());
  return f;
}

}  // namespace

const CommandSpec kTrain{
    "train",
    "Trains word2vec or the next-token model on FILE: progress on stderr, a JSON summary on stdout.",
    train_flags(), {"FILE"}, cmd_train};

const CommandSpec kBenchTrain{
    "bench train",
    "Times word2vec on FILE (whitespace, lower-cased) or next-token on synthetic ids: JSON figures.",
    bench_train_flags(), {"[FILE]"}, cmd_bench_train};

}  // namespace embedlab::cli
