// embedlab tokenize | decode | bpe-train | windows: text -> ids -> training windows, as JSON.
//
// --encoding gpt2 | whitespace | word | char | bpe:<merge file>. The vocabulary kinds are built
// from the input FILE itself (decode takes the same FILE to rebuild them).
#include <algorithm>
#include <climits>
#include <ostream>

#include "bench/bench.hpp"
#include "bench/bench_tokenize.hpp"
#include "cli/commands.hpp"
#include "cli/encoding.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/file.hpp"
#include "data/windows.hpp"
#include "tokenizer/bpe_train.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab::cli {

namespace {

// The operand FILE (the parser has checked that there is at most one, and one when required).
std::string the_file(const Args& a) { return a.operands().empty() ? "" : a.operands()[0]; }

// Reads the --encoding family of flags (encoding.hpp). The vocabulary flags apply to the
// vocabulary kinds only.
struct EncodingArgs {
  Encoding encoding;
  bool allow_special = false;
  const std::string& name() const { return encoding.name; }
  bool needs_corpus() const { return encoding.vocabulary(); }
};

EncodingArgs encoding_args(Args& a) {
  EncodingArgs e;
  e.encoding = parse_encoding(a.text("encoding"));
  TokenizerOptions& o = e.encoding.options;
  const bool lowercase = a.flag("lowercase");
  e.allow_special = a.flag("allow-special");
  const int64_t min_count = a.integer_or("min-count", 1, 1, INT64_MAX);
  const int64_t max_size = a.integer_or("max-size", 0, 0, INT32_MAX);
  if (!e.needs_corpus() && (lowercase || a.has("min-count") || a.has("max-size"))) {
    fail("--encoding", "--lowercase, --min-count and --max-size apply to whitespace, word and char only, not " + e.name());
  }
  if (e.needs_corpus()) {
    o.lowercase = lowercase;
    o.min_count = min_count;
    o.max_size = max_size;
  }
  if (e.allow_special && e.name() != "gpt2") fail("--allow-special", "applies to --encoding gpt2 only");
  return e;
}

void write_ids(std::ostream& os, const std::vector<int32_t>& ids) { write_ints(os, ids); }

int cmd_tokenize(Args& a, std::ostream& out) {
  const EncodingArgs e = encoding_args(a);
  const std::string file = the_file(a);
  a.finish();
  const std::string text = read_file("tokenize", file);
  Tokenizer tok = encoding_tokenizer(e.encoding, text);
  const std::vector<int32_t> ids = tok.encode(text, e.allow_special);
  check_printed_values("tokenize", "the token ids", {static_cast<int64_t>(ids.size())});
  out << "{\"encoding\":" << json_string(tok.kind()) << ",\"vocab_size\":" << tok.vocab_size()
            << ",\"bytes\":" << text.size() << ",\"tokens\":" << ids.size() << ",\"ids\":";
  write_ids(out, ids);
  out << "}\n";
  return 0;
}

int cmd_decode(Args& a, std::ostream& out) {
  const EncodingArgs e = encoding_args(a);
  const std::vector<int32_t> ids = a.int_list("ids");
  const std::string file = the_file(a);
  a.finish();
  if (e.needs_corpus() && a.operands().empty()) {
    fail("decode", "--encoding " + e.name() + " needs the corpus FILE to rebuild the vocabulary");
  }
  if (!e.needs_corpus() && !a.operands().empty()) {
    fail("decode", "unexpected argument '" + file + "' (--encoding " + e.name() + " takes no FILE)");
  }
  const std::string corpus = e.needs_corpus() ? read_file("decode", file) : "";
  Tokenizer tok = encoding_tokenizer(e.encoding, corpus);
  out << "{\"encoding\":" << json_string(tok.kind()) << ",\"text\":" << json_string(tok.decode(ids))
            << ",\"tokens\":[";
  for (size_t k = 0; k < ids.size(); ++k) out << (k ? "," : "") << json_string(tok.token_string(ids[k]));
  out << "]}\n";
  return 0;
}

int cmd_bpe_train(Args& a, std::ostream& out) {
  const int64_t V = a.integer("vocab-size", 256, 1 << 20);
  const std::string merges_file = a.text("out");
  const std::string file = the_file(a);
  a.finish();
  check_output_file("--out", merges_file);
  const std::string text = read_file("bpe-train", file);
  const double t0 = now_ms();
  BpeTrainer tr(text, V);
  tr.train();
  const double ms = now_ms() - t0;
  const BpeTokenizer& tok = tr.tokenizer();
  write_output_file("--out", merges_file, tok.save());
  const size_t n_tokens = tok.encode(text).size();
  out << "{\"vocab_size\":" << tok.vocab_size() << ",\"target_vocab_size\":" << V
            << ",\"merges\":" << tok.merges().size() << ",\"distinct_pieces\":" << tr.distinct_pieces()
            << ",\"bytes\":" << text.size() << ",\"tokens\":" << n_tokens << ",\"train_ms\":" << json_number(ms)
            << ",\"out\":" << json_string(merges_file) << ",\"first_merges\":[";
  for (size_t k = 0; k < tok.merges().size() && k < 20; ++k) {
    const BpeMerge& m = tok.merges()[k];
    out << (k ? "," : "") << "{\"left\":" << m.left << ",\"right\":" << m.right << ",\"id\":" << m.id
              << ",\"count\":" << m.count
              << ",\"token\":" << json_string(unicode::replace_invalid_utf8(tok.token_bytes(m.id))) << "}";
  }
  out << "]}\n";
  return 0;
}

int cmd_windows(Args& a, std::ostream& out) {
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
  const std::string file = the_file(a);
  a.finish();
  const std::string text = read_file("windows", file);
  Tokenizer tok = encoding_tokenizer(e.encoding, text);
  const std::vector<int32_t> ids = tok.encode(text, e.allow_special);
  SlidingWindows ds(ids, o);
  // inputs and targets of each printed batch
  check_printed_values("windows", "the batches", {std::min(ds.num_batches(), limit), o.batch_size, o.max_length, 2});
  out << "{\"encoding\":" << json_string(tok.kind()) << ",\"tokens\":" << ids.size()
            << ",\"max_length\":" << o.max_length << ",\"stride\":" << o.stride << ",\"batch_size\":" << o.batch_size
            << ",\"shuffle\":" << (o.shuffle ? "true" : "false") << ",\"seed\":" << o.seed
            << ",\"drop_last\":" << (o.drop_last ? "true" : "false") << ",\"samples\":" << ds.num_samples()
            << ",\"batches\":" << ds.num_batches() << ",\"input_tokens\":" << ds.input_tokens() << ",\"data\":[";
  for (int64_t b = 0; b < ds.num_batches() && b < limit; ++b) {
    const WindowBatch wb = ds.batch(b);
    out << (b ? "," : "") << "{\"inputs\":[";
    for (int64_t r = 0; r < wb.rows; ++r) {
      out << (r ? "," : "");
      write_ints(out, std::span<const int32_t>(wb.inputs).subspan(r * o.max_length, o.max_length));
    }
    out << "],\"targets\":[";
    for (int64_t r = 0; r < wb.rows; ++r) {
      out << (r ? "," : "");
      write_ints(out, std::span<const int32_t>(wb.targets).subspan(r * o.max_length, o.max_length));
    }
    out << "]}";
  }
  out << "]}\n";
  return 0;
}

// embedlab bench tokenize --encoding E [--reps R] FILE
int cmd_bench_tokenize(Args& a, std::ostream& out) {
  const EncodingArgs e = encoding_args(a);
  const int reps = static_cast<int>(a.integer_or("reps", 7, 1, 1000));
  const std::string file = the_file(a);
  a.finish();
  const std::string text = read_file("bench tokenize", file);
  const TokenizeBench b = bench_tokenize(text, [&] { return encoding_tokenizer(e.encoding, text); }, reps);
  std::string json = to_json(b);
  json.insert(json.size() - 1, ",\"file\":" + json_string(file) + ",\"build\":\"native\"");
  out << json << "\n";
  return 0;
}

// The --encoding family, shared by tokenize, decode, windows and bench tokenize.
std::vector<FlagSpec> with_encoding_flags(std::vector<FlagSpec> flags) {
  const std::vector<FlagSpec> encoding{
      {"encoding", "gpt2|whitespace|word|char|bpe:<file>", "the tokenizer (vocabulary kinds are built from FILE)", true},
      {"lowercase", nullptr, "lower-case before building the vocabulary (whitespace, word, char)"},
      {"allow-special", nullptr, "map <|endoftext|> to 50256 (gpt2)"},
      {"min-count", "N", "drop words seen fewer times (whitespace, word, char; default 1)"},
      {"max-size", "N", "keep the N most frequent (whitespace, word, char; default 0: all)"}};
  flags.insert(flags.begin(), encoding.begin(), encoding.end());
  return flags;
}

}  // namespace

const CommandSpec kTokenize{
    "tokenize", "Encodes FILE: {encoding, vocab_size, bytes, tokens, ids}.", with_encoding_flags({}), {"FILE"},
    cmd_tokenize};

const CommandSpec kDecode{
    "decode",
    "Decodes --ids: {encoding, text, tokens}; the vocabulary kinds need the corpus FILE they were built from.",
    with_encoding_flags({{"ids", "1,2,3", "token ids, comma-separated", true}}),
    {"[FILE]"},
    cmd_decode};

const CommandSpec kBpeTrain{
    "bpe-train",
    "Trains byte-level BPE merges on FILE and writes them to --out: a JSON summary with the first merges.",
    {{"vocab-size", "N", "the vocabulary size to reach (256 bytes + merges)", true},
     {"out", "OUT", "the merge file to write", true, 'o'}},
    {"FILE"},
    cmd_bpe_train};

const CommandSpec kWindows{
    "windows",
    "Sliding (input, target) windows over FILE's ids, in batches: {samples, batches, input_tokens, data, ...}.",
    with_encoding_flags({{"max-length", "L", "window length", true},
                         {"stride", "S", "step between windows", true},
                         {"batch-size", "B", "windows per batch", true},
                         {"shuffle", nullptr, "shuffle the windows (with --seed)"},
                         {"seed", "S", "the shuffle seed (default 0)"},
                         {"drop-last", "true|false", "drop a last, smaller batch (default true)"},
                         {"limit", "K", "print only the first K batches"}}),
    {"FILE"},
    cmd_windows};

const CommandSpec kBenchTokenize{
    "bench tokenize",
    "Times encoding FILE (cold and warm): JSON figures.",
    with_encoding_flags({{"reps", "R", "timed repetitions (default 7)"}}),
    {"FILE"},
    cmd_bench_tokenize};

}  // namespace embedlab::cli
