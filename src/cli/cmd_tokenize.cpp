// embedlab tokenize | decode | bpe-train | windows: text -> ids -> training windows, as JSON.
//
// --encoding gpt2 | whitespace | word | char | bpe:<merge file>. The vocabulary kinds are built
// from the input FILE itself (decode takes the same FILE to rebuild them).
#include <climits>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench/bench.hpp"
#include "bench/bench_tokenize.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/error.hpp"
#include "data/windows.hpp"
#include "tokenizer/bpe_train.hpp"
#include "tokenizer/tokenizer.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab::cli {

namespace {

std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail("read", "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string one_file(Args& a, const char* where, bool required = true) {
  const auto& pos = a.positional();
  if (pos.size() > 1) fail(where, "expected one FILE, got " + std::to_string(pos.size()) + " arguments");
  if (pos.empty()) {
    if (required) fail(where, "missing the input FILE");
    return "";
  }
  return pos[0];
}

// Reads the --encoding family of flags. corpus may be empty for gpt2/bpe.
struct EncodingArgs {
  std::string name;
  VocabOptions vocab;
  bool allow_special = false;
  std::string bpe_file;
  bool needs_corpus() const { return name != "gpt2" && bpe_file.empty(); }
};

EncodingArgs encoding_args(Args& a) {
  EncodingArgs e;
  e.name = a.text("encoding");
  e.vocab.lowercase = a.flag("lowercase");
  e.allow_special = a.flag("allow-special");
  e.vocab.min_count = a.integer_or("min-count", 1, 1, INT64_MAX);
  e.vocab.max_size = a.integer_or("max-size", 0, 0, INT32_MAX);
  if (e.name.rfind("bpe:", 0) == 0) {
    e.bpe_file = e.name.substr(4);
    if (e.bpe_file.empty()) fail("--encoding", "bpe: needs a merge file, as in bpe:merges.txt");
  } else if (e.name != "gpt2" && e.name != "whitespace" && e.name != "word" && e.name != "char") {
    fail("--encoding", "unknown encoding '" + e.name + "', expected gpt2, whitespace, word, char or bpe:<file>");
  } else if (e.name != "gpt2") {
    e.vocab.kind = parse_vocab_kind(e.name);
  }
  const bool vocab_kind = e.needs_corpus();
  if (!vocab_kind && (e.vocab.lowercase || a.has("min-count") || a.has("max-size"))) {
    fail("--encoding", "--lowercase, --min-count and --max-size apply to whitespace, word and char only, not " + e.name);
  }
  if (e.allow_special && e.name != "gpt2") fail("--allow-special", "applies to --encoding gpt2 only");
  return e;
}

Tokenizer make_tokenizer(const EncodingArgs& e, const std::string& corpus) {
  if (e.name == "gpt2") return Tokenizer::gpt2();
  if (!e.bpe_file.empty()) return Tokenizer::from_bpe(BpeTokenizer::load(read_text_file(e.bpe_file)));
  return Tokenizer::from_corpus(corpus, e.vocab);
}

void write_ids(std::ostream& os, const std::vector<int32_t>& ids) { write_ints(os, ids); }

}  // namespace

int cmd_tokenize(Args& a) {
  const EncodingArgs e = encoding_args(a);
  const std::string file = one_file(a, "tokenize");
  a.finish();
  const std::string text = read_text_file(file);
  Tokenizer tok = make_tokenizer(e, text);
  const std::vector<int32_t> ids = tok.encode(text, e.allow_special);
  std::cout << "{\"encoding\":" << json_string(tok.kind()) << ",\"vocab_size\":" << tok.vocab_size()
            << ",\"bytes\":" << text.size() << ",\"tokens\":" << ids.size() << ",\"ids\":";
  write_ids(std::cout, ids);
  std::cout << "}\n";
  return 0;
}

int cmd_decode(Args& a) {
  const EncodingArgs e = encoding_args(a);
  const std::vector<int32_t> ids = a.int_list("ids");
  const std::string file = one_file(a, "decode", false);
  a.finish();
  if (e.needs_corpus() && file.empty()) {
    fail("decode", "--encoding " + e.name + " needs the corpus FILE to rebuild the vocabulary");
  }
  const std::string corpus = e.needs_corpus() ? read_text_file(file) : "";
  Tokenizer tok = make_tokenizer(e, corpus);
  std::cout << "{\"encoding\":" << json_string(tok.kind()) << ",\"text\":" << json_string(tok.decode(ids))
            << ",\"tokens\":[";
  for (size_t k = 0; k < ids.size(); ++k) std::cout << (k ? "," : "") << json_string(tok.token_string(ids[k]));
  std::cout << "]}\n";
  return 0;
}

int cmd_bpe_train(Args& a) {
  const int64_t V = a.integer("vocab-size", 256, 1 << 20);
  const std::string out = a.text("out");
  const std::string file = one_file(a, "bpe-train");
  a.finish();
  const std::string text = read_text_file(file);
  const double t0 = now_ms();
  BpeTrainer tr(text, V);
  tr.train();
  const double ms = now_ms() - t0;
  const BpeTokenizer& tok = tr.tokenizer();
  std::ofstream f(out, std::ios::binary);
  if (!f) fail("bpe-train", "cannot write '" + out + "'");
  f << tok.save();
  if (!f.flush()) fail("bpe-train", "writing '" + out + "' failed");
  const size_t n_tokens = tok.encode(text).size();
  std::cout << "{\"vocab_size\":" << tok.vocab_size() << ",\"target_vocab_size\":" << V
            << ",\"merges\":" << tok.merges().size() << ",\"distinct_pieces\":" << tr.distinct_pieces()
            << ",\"bytes\":" << text.size() << ",\"tokens\":" << n_tokens << ",\"train_ms\":" << json_number(ms)
            << ",\"out\":" << json_string(out) << ",\"first_merges\":[";
  for (size_t k = 0; k < tok.merges().size() && k < 20; ++k) {
    const BpeMerge& m = tok.merges()[k];
    std::cout << (k ? "," : "") << "{\"left\":" << m.left << ",\"right\":" << m.right << ",\"id\":" << m.id
              << ",\"count\":" << m.count
              << ",\"token\":" << json_string(unicode::replace_invalid_utf8(tok.token_bytes(m.id))) << "}";
  }
  std::cout << "]}\n";
  return 0;
}

int cmd_windows(Args& a) {
  const EncodingArgs e = encoding_args(a);
  WindowOptions o;
  o.max_length = a.integer("max-length", INT32_MIN, INT32_MAX);
  o.stride = a.integer("stride", INT32_MIN, INT32_MAX);
  o.batch_size = a.integer("batch-size", INT32_MIN, INT32_MAX);
  o.shuffle = a.flag("shuffle");
  o.seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  const std::string drop = a.text_or("drop-last", "true");
  if (drop != "true" && drop != "false") fail("--drop-last", "expected true or false, got '" + drop + "'");
  o.drop_last = drop == "true";
  const int64_t limit = a.integer_or("limit", INT64_MAX, 0, INT64_MAX);
  const std::string file = one_file(a, "windows");
  a.finish();
  const std::string text = read_text_file(file);
  Tokenizer tok = make_tokenizer(e, text);
  const std::vector<int32_t> ids = tok.encode(text, e.allow_special);
  SlidingWindows ds(ids, o);
  int64_t input_tokens = 0;
  for (int64_t b = 0; b < ds.num_batches(); ++b) input_tokens += std::min(o.batch_size, ds.num_samples() - b * o.batch_size) * o.max_length;
  std::cout << "{\"encoding\":" << json_string(tok.kind()) << ",\"tokens\":" << ids.size()
            << ",\"max_length\":" << o.max_length << ",\"stride\":" << o.stride << ",\"batch_size\":" << o.batch_size
            << ",\"shuffle\":" << (o.shuffle ? "true" : "false") << ",\"seed\":" << o.seed
            << ",\"drop_last\":" << (o.drop_last ? "true" : "false") << ",\"samples\":" << ds.num_samples()
            << ",\"batches\":" << ds.num_batches() << ",\"input_tokens\":" << input_tokens << ",\"data\":[";
  for (int64_t b = 0; b < ds.num_batches() && b < limit; ++b) {
    const WindowBatch wb = ds.batch(b);
    std::cout << (b ? "," : "") << "{\"inputs\":[";
    for (int64_t r = 0; r < wb.rows; ++r) {
      std::cout << (r ? "," : "");
      write_ints(std::cout, std::span<const int32_t>(wb.inputs).subspan(r * o.max_length, o.max_length));
    }
    std::cout << "],\"targets\":[";
    for (int64_t r = 0; r < wb.rows; ++r) {
      std::cout << (r ? "," : "");
      write_ints(std::cout, std::span<const int32_t>(wb.targets).subspan(r * o.max_length, o.max_length));
    }
    std::cout << "]}";
  }
  std::cout << "]}\n";
  return 0;
}

// embedlab bench tokenize --encoding E [--reps R] FILE (dispatched from cmd_bench).
int cmd_bench_tokenize(Args& a) {
  const EncodingArgs e = encoding_args(a);
  const int reps = static_cast<int>(a.integer_or("reps", 7, 1, 1000));
  const auto& pos = a.positional();
  if (pos.size() != 2) fail("bench tokenize", "expected one FILE after 'tokenize'");
  const std::string file = pos[1];
  a.finish();
  const std::string text = read_text_file(file);
  const TokenizeBench b = bench_tokenize(text, [&] { return make_tokenizer(e, text); }, reps);
  std::string json = to_json(b);
  json.insert(json.size() - 1, ",\"file\":" + json_string(file) + ",\"build\":\"native\"");
  std::cout << json << "\n";
  return 0;
}

}  // namespace embedlab::cli
