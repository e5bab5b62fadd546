// embedlab train | bench train: train word2vec or the next-token model on a text FILE.
//
// train --model skipgram|cbow|next-token --encoding gpt2|whitespace|word|char|bpe:<file>
//       [--lowercase] --seed S FILE [--out table.npy] [--out-tsv DIR] [--table input|output|position]
//   word2vec (gensim's names and defaults): --vector-size 100 --window 5 --negative 5
//       --min-count 5 --sample 1e-3 --alpha 0.025 --min-alpha 0.0001 --epochs 5 [--cbow-sum]
//       One sentence per non-empty line of FILE, tokenized line by line.
//   next-token: --vector-size 64 --context 32 --batch-size 16 --steps 1000 --pos learned
//       --optimizer adam --lr 1e-3 [--weight-decay W] [--scale] [--tie] [--stride S] [--alibi-slope 0.5]
//       [--valid-fraction 0.1]: the last fraction of the ids is held out and its loss reported.
// Progress lines go to stderr; the last line on stdout is one JSON summary.
// Tables: --out writes the chosen table (default: the input/token table) as float32 .npy;
// --out-tsv writes DIR/vectors.tsv + DIR/metadata.tsv for projector.tensorflow.org.
#include <climits>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "bench/bench_train.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/error.hpp"
#include "tokenizer/tokenizer.hpp"
#include "train/next_token.hpp"
#include "train/table_io.hpp"
#include "train/word2vec.hpp"

namespace embedlab::cli {

namespace {

constexpr double kLowest = std::numeric_limits<double>::lowest(), kHighest = std::numeric_limits<double>::max();

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail("train", "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string the_file(Args& a) {
  const auto& pos = a.positional();
  if (pos.size() != 1) fail("train", "expected one FILE, got " + std::to_string(pos.size()) + " arguments");
  return pos[0];
}

std::string bench_file(Args& a) {
  const auto& pos = a.positional();  // "train" FILE
  if (pos.size() != 2) fail("bench train", "expected one FILE after 'train'");
  return pos[1];
}

Tokenizer make_tokenizer(const std::string& encoding, bool lowercase, const std::string& corpus) {
  if (encoding == "gpt2") return Tokenizer::gpt2();
  if (encoding.rfind("bpe:", 0) == 0) return Tokenizer::from_bpe(BpeTokenizer::load(read_file(encoding.substr(4))));
  VocabOptions o;
  o.kind = parse_vocab_kind(encoding);
  o.lowercase = lowercase;
  return Tokenizer::from_corpus(corpus, o);
}

// One sentence per non-empty line: ids (n) and starts (S+1).
void encode_lines(Tokenizer& tok, const std::string& text, std::vector<int32_t>& ids,
                  std::vector<int64_t>& starts) {
  starts.assign(1, 0);
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    const std::vector<int32_t> line = tok.encode(std::string_view(text).substr(p, e - p));
    if (!line.empty()) {
      ids.insert(ids.end(), line.begin(), line.end());
      starts.push_back(static_cast<int64_t>(ids.size()));
    }
    p = e + 1;
  }
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

void write_tables(const std::vector<float>& table, int64_t rows, int64_t cols,
                  const std::vector<std::string>& labels, const std::string& out,
                  const std::string& out_tsv) {
  if (!out.empty()) write_npy(out, table, rows, cols);
  if (!out_tsv.empty()) write_projector_tsv(out_tsv, table, rows, cols, labels);
}

int train_word2vec(Args& a, bool sg) {
  const std::string encoding = a.text("encoding");
  const bool lowercase = a.flag("lowercase");
  const Word2VecSettings s = word2vec_settings(a, sg, true);
  const std::string out = a.text_or("out", ""), out_tsv = a.text_or("out-tsv", "");
  const std::string which = a.text_or("table", "input");
  if (which != "input" && which != "output") fail("train", "--table for word2vec is input or output, got '" + which + "'");
  const std::string file = the_file(a);
  a.finish();

  const std::string text = read_file(file);
  Tokenizer tok = make_tokenizer(encoding, lowercase, text);
  std::vector<int32_t> ids;
  std::vector<int64_t> starts;
  encode_lines(tok, text, ids, starts);
  const std::vector<int64_t> counts = counts_of(tok);
  Word2Vec w2v(ids, starts, counts, s);
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
  write_tables(which == "input" ? w2v.input_table() : w2v.output_table(), W, D, labels, out, out_tsv);
  const double sec = ms / 1000.0;
  std::cout << "{\"model\":" << json_string(sg ? "skipgram" : "cbow") << ",\"encoding\":" << json_string(encoding)
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

NextTokenSettings next_token_settings(Args& a, int64_t V) {
  NextTokenSettings s;
  s.model.vocab_size = V;
  s.model.dim = a.integer_or("vector-size", 64, 0, 1 << 20);
  s.model.context = a.integer_or("context", 32, 0, 4096);
  s.model.pos = parse_position_kind(a.text_or("pos", "learned"));
  s.model.scale_embeddings = a.flag("scale");
  s.model.tie_head = a.flag("tie");
  s.model.alibi_slope = static_cast<float>(a.number_or("alibi-slope", 0.5, kLowest, kHighest));
  s.model.seed = static_cast<uint64_t>(a.integer("seed", 0, INT64_MAX));
  s.batch_size = a.integer_or("batch-size", 16, 0, 1 << 20);
  s.stride = a.integer_or("stride", 0, 0, 1 << 20);
  s.optimizer.kind = parse_optimizer_kind(a.text_or("optimizer", "adam"));
  s.optimizer.lr = a.number_or("lr", s.optimizer.kind == OptimizerKind::Sgd ? 0.1 : 1e-3, kLowest, kHighest);
  s.optimizer.weight_decay = a.number_or("weight-decay", default_weight_decay(s.optimizer.kind), kLowest, kHighest);
  return s;
}

int train_next_token(Args& a) {
  const std::string encoding = a.text("encoding");
  const bool lowercase = a.flag("lowercase");
  const std::string out = a.text_or("out", ""), out_tsv = a.text_or("out-tsv", "");
  const std::string which = a.text_or("table", "input");
  const int64_t steps = a.integer_or("steps", 1000, 0, INT32_MAX);
  const double valid_fraction = a.number_or("valid-fraction", 0.1, 0, 0.9);
  const std::string file = the_file(a);
  const std::string text = read_file(file);
  Tokenizer tok = make_tokenizer(encoding, lowercase, text);
  const NextTokenSettings s = next_token_settings(a, tok.vocab_size());
  a.finish();
  if (which != "input" && which != "output" && which != "position") {
    fail("train", "--table for next-token is input, output or position, got '" + which + "'");
  }

  const std::vector<int32_t> ids = tok.encode(text);
  const size_t n_valid = static_cast<size_t>(static_cast<double>(ids.size()) * valid_fraction);
  const std::vector<int32_t> train(ids.begin(), ids.end() - static_cast<std::ptrdiff_t>(n_valid));
  const std::vector<int32_t> valid(ids.end() - static_cast<std::ptrdiff_t>(n_valid), ids.end());
  NextTokenTrainer tr(train, s);
  std::cerr << "next-token: " << ids.size() << " tokens (" << train.size() << " train, " << valid.size()
            << " held out), vocabulary " << s.model.vocab_size << ", D " << s.model.dim << ", T "
            << s.model.context << ", B " << s.batch_size << ", pos " << position_kind_name(s.model.pos)
            << ", " << optimizer_kind_name(s.optimizer.kind) << " lr " << s.optimizer.lr << "\n";
  const int64_t slice = std::max<int64_t>(1, steps / 10);
  int64_t done = 0, tokens = 0;
  double ms = 0, first = NAN, last = NAN;
  while (done < steps) {
    const TrainStats st = tr.step(std::min(slice, steps - done));
    done += st.steps;
    tokens += st.tokens;
    ms += st.elapsed_ms;
    if (std::isnan(first)) first = st.loss;
    last = st.loss;
    std::cerr << "step " << done << "/" << steps << " loss " << st.loss << " "
              << static_cast<int64_t>(st.tokens_per_s) << " tokens/s\n";
  }
  const double valid_loss = valid.size() > static_cast<size_t>(s.model.context) ? tr.evaluate(valid) : NAN;
  const NextTokenModel& m = tr.model();
  const int64_t V = s.model.vocab_size, D = s.model.dim;
  if (!out.empty() || !out_tsv.empty()) {
    if (which == "position") {
      const std::vector<float>& P = m.position_table();
      if (P.empty()) fail("train", "--table position needs --pos learned or sinusoidal");
      std::vector<std::string> labels(static_cast<size_t>(s.model.context));
      for (size_t t = 0; t < labels.size(); ++t) labels[t] = std::to_string(t);
      write_tables(P, s.model.context, D, labels, out, out_tsv);
    } else {
      std::vector<std::string> labels(static_cast<size_t>(V));
      for (int64_t r = 0; r < V; ++r) labels[r] = tok.token_string(static_cast<int32_t>(r));
      write_tables(which == "input" ? m.token_table() : m.head_table(), V, D, labels, out, out_tsv);
    }
  }
  const double sec = ms / 1000.0;
  std::cout << "{\"model\":\"next-token\",\"encoding\":" << json_string(encoding) << ",\"settings\":{\"vector_size\":"
            << D << ",\"context\":" << s.model.context << ",\"batch_size\":" << s.batch_size
            << ",\"pos\":" << json_string(position_kind_name(s.model.pos)) << ",\"scale\":"
            << (s.model.scale_embeddings ? "true" : "false") << ",\"tie\":" << (s.model.tie_head ? "true" : "false")
            << ",\"optimizer\":" << json_string(optimizer_kind_name(s.optimizer.kind))
            << ",\"lr\":" << json_number(s.optimizer.lr) << ",\"weight_decay\":" << json_number(s.optimizer.weight_decay)
            << ",\"seed\":" << s.model.seed << "},\"vocab\":" << V << ",\"steps\":" << done
            << ",\"loss\":" << json_number(last) << ",\"first_loss\":" << json_number(first)
            << ",\"valid_loss\":" << json_number(valid_loss) << ",\"tokens\":" << tokens
            << ",\"seconds\":" << json_number(sec) << ",\"tokens_per_s\":" << json_number(tokens / sec) << "}\n";
  return 0;
}

}  // namespace

int cmd_train(Args& a) {
  const std::string model = a.text("model");
  if (model == "skipgram" || model == "cbow") return train_word2vec(a, model == "skipgram");
  if (model == "next-token") return train_next_token(a);
  fail("train", "unknown model '" + model + "', expected skipgram, cbow or next-token");
}

// embedlab bench train --model skipgram|cbow FILE  (whitespace, lower-cased, gensim defaults)
// embedlab bench train --model next-token [--vocab-size 5000 --vector-size 64 --context 32
//                      --batch-size 256 --steps 5 --optimizer adam --pos learned]
int cmd_bench_train(Args& a) {
  const std::string model = a.text_or("model", "skipgram");
  if (model == "next-token") {
    const int64_t V = a.integer_or("vocab-size", 5000, 2, INT32_MAX);
    const int64_t D = a.integer_or("vector-size", 64, 1, 1 << 16);
    const int64_t T = a.integer_or("context", 32, 1, 4096);
    const int64_t B = a.integer_or("batch-size", 256, 1, 1 << 16);
    const int64_t steps = a.integer_or("steps", 5, 1, 100000);
    const std::string opt = a.text_or("optimizer", "adam"), pos = a.text_or("pos", "learned");
    a.finish();
    std::cout << to_json(bench_next_token(V, D, T, B, steps, opt, pos)) << "\n";
    return 0;
  }
  if (model != "skipgram" && model != "cbow") {
    fail("bench train", "unknown model '" + model + "', expected skipgram, cbow or next-token");
  }
  Word2VecSettings s = word2vec_settings(a, model == "skipgram", false);
  const std::string file = bench_file(a);
  a.finish();
  const std::string text = read_file(file);
  Tokenizer tok = make_tokenizer("whitespace", true, text);
  std::vector<int32_t> ids;
  std::vector<int64_t> starts;
  encode_lines(tok, text, ids, starts);
  std::cout << to_json(bench_word2vec(ids, starts, counts_of(tok), s)) << "\n";
  return 0;
}

}  // namespace embedlab::cli
