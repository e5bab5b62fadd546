// BPE training (step API, tie-breaking, incremental counts vs a naive recount) and the trained
// tokenizer (encode/decode, save/load).
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "core/error.hpp"
#include "core/file.hpp"
#include "tokenizer/bpe.hpp"
#include "tokenizer/bpe_train.hpp"
#include "tokenizer/gpt2_split.hpp"
#include "limits.hpp"

using namespace embedlab;

namespace {

// The textbook algorithm (minbpe get_stats/merge) with a full recount every step and the same
// tie-breaking (highest count, then smallest pair), to check the incremental trainer against.
std::vector<BpeMerge> naive_train(const std::string& text, int vocab_size) {
  std::vector<std::vector<int32_t>> chunks;
  for (const auto& piece : gpt2_split(text)) {
    chunks.emplace_back();
    for (unsigned char c : piece) chunks.back().push_back(c);
  }
  std::vector<BpeMerge> merges;
  for (int32_t id = 256; id < vocab_size; ++id) {
    std::map<std::pair<int32_t, int32_t>, int64_t> stats;
    for (const auto& c : chunks)
      for (size_t k = 0; k + 1 < c.size(); ++k) ++stats[{c[k], c[k + 1]}];
    if (stats.empty()) break;
    auto best = stats.begin();
    for (auto it = stats.begin(); it != stats.end(); ++it)
      if (it->second > best->second) best = it;  // map order: the smallest pair wins ties
    const auto [l, r] = best->first;
    merges.push_back({l, r, id, best->second});
    for (auto& c : chunks) {
      std::vector<int32_t> out;
      for (size_t k = 0; k < c.size(); ++k) {
        if (k + 1 < c.size() && c[k] == l && c[k + 1] == r) out.push_back(id), ++k;
        else out.push_back(c[k]);
      }
      c = out;
    }
  }
  return merges;
}

bool same_merges(const std::vector<BpeMerge>& a, const std::vector<BpeMerge>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].left != b[k].left || a[k].right != b[k].right || a[k].id != b[k].id || a[k].count != b[k].count) return false;
  return true;
}

std::string corpus() { return read_file("test", EMBEDLAB_SOURCE_DIR "/web/corpora/the-verdict.txt"); }

}  // namespace

TEST_CASE("BpeTrainer merges the most frequent pair each step", "[bpe]") {
  SECTION("the worked example: aa, then ab by the tie rule, then aaab") {
    BpeTrainer tr("aaabdaaabac", 259);
    const auto m1 = tr.step(1);
    REQUIRE(m1.size() == 1);
    CHECK(m1[0].left == 97);
    CHECK(m1[0].right == 97);
    CHECK(m1[0].id == 256);
    CHECK(m1[0].count == 4);
    const auto rest = tr.step(5);  // only two more fit under vocab_size 259
    REQUIRE(rest.size() == 2);
    CHECK((rest[0].left == 97 && rest[0].right == 98 && rest[0].count == 2));
    CHECK((rest[1].left == 256 && rest[1].right == 257 && rest[1].id == 258));
    CHECK(tr.done());
    CHECK(tr.tokenizer().token_bytes(258) == "aaab");
    CHECK(tr.tokenizer().encode("aaabdaaabac") == std::vector<int32_t>{258, 100, 258, 97, 99});
    CHECK(tr.token_count() == 5);
  }
  SECTION("incremental counts give the same merges as a full recount (random texts)") {
    std::mt19937 rng(7);
    const char* words[] = {"the", " the", " cat", " sat", "aaa", " on", "!!", "\n", " ", "  ", "ab", "ba", "\xC3\xA9t\xC3\xA9"};
    for (int t = 0; t < 40; ++t) {
      std::string text;
      const int n = 5 + static_cast<int>(rng() % 80);
      for (int k = 0; k < n; ++k) text += words[rng() % 13];
      BpeTrainer tr(text, 256 + 30);
      tr.train();
      INFO("text: " << text);
      REQUIRE(same_merges(tr.tokenizer().merges(), naive_train(text, 256 + 30)));
    }
  }
  SECTION("on the-verdict the first merges match a full recount and training shortens the text") {
    const std::string text = corpus();
    BpeTrainer tr(text, 256 + 40);
    tr.train();
    CHECK(same_merges(tr.tokenizer().merges(), naive_train(text, 256 + 40)));
    const auto ids = tr.tokenizer().encode(text);
    CHECK(ids.size() < text.size());
    CHECK(tr.token_count() == static_cast<int64_t>(ids.size()));  // encoding replays the training merges
    CHECK(tr.tokenizer().decode_bytes(ids) == text);
  }
  SECTION("training stops early when no pair is left") {
    BpeTrainer tr("ab", 300);
    CHECK(tr.step(10).size() == 1);
    CHECK(tr.done());
    CHECK(tr.tokenizer().vocab_size() == 257);
    BpeTrainer empty("", 300);
    CHECK(empty.step(3).empty());
    CHECK(empty.done());
  }
  SECTION("bad sizes are refused with clear messages") {
    REQUIRE_THROWS_WITH(BpeTrainer("abc", 100), "bpe train: vocab_size must be >= 256, got 100");
    REQUIRE_THROWS_WITH(BpeTrainer("abc", 2000000), "bpe train: vocab_size 2000000 out of range [256, 1048577)");
    BpeTrainer tr("abc", 300);
    REQUIRE_THROWS_WITH(tr.step(-1), "bpe train step: n must be >= 0, got -1");
  }
}

TEST_CASE("BPE training on text without spaces costs work in proportion to its length", "[bpe]") {
  // one 20,000-letter piece trained to the end (every pair merged away): a trainer that rescans
  // the piece after each merge reads ~20,000 positions per merge, ~10^8 in all; one that visits
  // only the occurrences of the merged pair reads each position a bounded number of times
  std::mt19937 rng(3);
  std::string text(20000, 'a');
  for (auto& c : text) c = static_cast<char>('a' + rng() % 26);
  BpeTrainer tr(text, 1 << 20);
  tr.train();
  CHECK(tr.done());
  CHECK(tr.token_count() == 1);  // one piece, one token
  CHECK(tr.work() <= 20 * static_cast<int64_t>(text.size()));
}

TEST_CASE("BPE encode: the heap path for long pieces gives minbpe's ids", "[bpe]") {
  // minbpe's encode_chunk on one piece: merge the lowest-rank pair everywhere, repeat
  auto naive_encode = [](const BpeTokenizer& tok, const std::string& text) {
    std::vector<int32_t> out;
    for (const auto& piece : gpt2_split(text)) {
      std::vector<int32_t> ids(piece.begin(), piece.end());
      for (auto& id : ids) id = static_cast<unsigned char>(id);
      for (;;) {
        const BpeMerge* best = nullptr;
        for (size_t k = 0; k + 1 < ids.size(); ++k)
          for (const BpeMerge& m : tok.merges())
            if (m.left == ids[k] && m.right == ids[k + 1] && (!best || m.id < best->id)) best = &m;
        if (!best) break;
        merge_pair(ids, *best);
      }
      out.insert(out.end(), ids.begin(), ids.end());
    }
    return out;
  };
  std::mt19937 rng(11);
  for (int t = 0; t < 30; ++t) {
    // space-free runs over a small alphabet (pieces of 64..600 bytes take the heap path) with
    // merges trained on another such text, so many merges apply and many runs overlap ("aaa")
    auto text_of = [&](int n, int letters) {
      std::string s;
      while (static_cast<int>(s.size()) < n) {
        if (rng() % 50 == 0) s += ' ';
        s += static_cast<char>('a' + rng() % letters);
      }
      return s;
    };
    const int letters = 1 + static_cast<int>(rng() % 3);
    BpeTrainer tr(text_of(400, letters), 256 + 40);
    tr.train();
    const std::string text = text_of(kBpeHeapFrom + static_cast<int>(rng() % 600), letters);
    INFO("text: " << text);
    REQUIRE(tr.tokenizer().encode(text) == naive_encode(tr.tokenizer(), text));
  }
}

TEST_CASE("BPE training makes no token longer than kMaxBpeTokenBytes", "[bpe]") {
  // 2 MiB of 'a' (one piece): the merges double the token up to 1 MiB (ids 256..275); the next
  // one, 2 MiB, is never merged, so training ends there and the merges file loads back
  BpeTrainer tr(std::string(size_t{2} << 20, 'a'), 1 << 20);
  tr.train();
  CHECK(tr.done());
  REQUIRE(tr.tokenizer().vocab_size() == 276);
  CHECK(tr.tokenizer().token_bytes(275).size() == static_cast<size_t>(kMaxBpeTokenBytes));
  CHECK(tr.token_count() == 2);
  CHECK(BpeTokenizer::load(tr.tokenizer().save()).vocab_size() == 276);
  CHECK(tr.work() <= 8 * (int64_t{2} << 20));
}

TEST_CASE("BpeTokenizer encodes, decodes, saves and loads", "[bpe]") {
  BpeTrainer tr("the cat sat on the mat; the hat, the bat.", 270);
  tr.train();
  const BpeTokenizer& tok = tr.tokenizer();
  REQUIRE(tok.vocab_size() == 270);

  SECTION("random byte strings round-trip through encode and decode") {
    std::mt19937 rng(99);
    for (int t = 0; t < 500; ++t) {
      std::string s(rng() % 40, '\0');
      for (auto& c : s) c = static_cast<char>(rng() % 2 ? rng() % 256 : "the at "[rng() % 7]);
      REQUIRE(tok.decode_bytes(tok.encode(s)) == s);
    }
    CHECK(tok.encode("").empty());
    CHECK(tok.decode(tok.encode("\xFF" "the")) == "\xEF\xBF\xBD" "the");
  }
  SECTION("save then load gives the same merges and the same ids") {
    const std::string file = tok.save();
    CHECK(file.rfind("embedlab-bpe 1\npattern gpt2\nmerges 14\n", 0) == 0);
    const BpeTokenizer back = BpeTokenizer::load(file);
    CHECK(same_merges(back.merges(), tok.merges()));
    CHECK(back.encode("the cat sat") == tok.encode("the cat sat"));
  }
  SECTION("malformed files are refused naming the line") {
    REQUIRE_THROWS_WITH(BpeTokenizer::load("bpe\n"), "bpe load: line 1: expected 'embedlab-bpe 1', got 'bpe'");
    REQUIRE_THROWS_WITH(BpeTokenizer::load("embedlab-bpe 1\npattern gpt2\nmerges 2\n97 98 3\n"),
                        "bpe load: line 4: file ends after 1 of 2 merges");
    REQUIRE_THROWS_WITH(BpeTokenizer::load("embedlab-bpe 1\npattern gpt2\nmerges 1\n97 300 3\n"),
                        "bpe load: line 4: pair (97, 300) refers to an id outside [0, 256)");
    REQUIRE_THROWS_WITH(BpeTokenizer::load("embedlab-bpe 1\npattern gpt2\nmerges 1\n97 x\n"),
                        "bpe load: line 4: expected '<left> <right> <count>', got '97 x'");
    REQUIRE_THROWS_WITH(tok.decode_bytes(std::vector<int32_t>{270}), "decode: token id 270 out of range [0, 270)");
  }
}

namespace {
// A merges file whose tokens double each line: 256 = "aa", 257 = 256 256 = "aaaa", ...
std::string doubling_merges(int lines) {
  std::string s = "embedlab-bpe 1\npattern gpt2\nmerges " + std::to_string(lines) + "\n97 97 0\n";
  for (int k = 1; k < lines; ++k) s += std::to_string(255 + k) + " " + std::to_string(255 + k) + " 0\n";
  return s;
}
}  // namespace

TEST_CASE("BPE loading, encoding and training plan their bytes", "[bpe][memory]") {
  SECTION("a merges file whose tokens double each line fails at the line that passes the limit") {
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    // after merge k the tokens hold 256 + 2^(k+2) - 2 bytes: 20 merges (each token within the
    // cap) hold 2 MiB together, planned as one figure
    REQUIRE_THROWS_WITH(BpeTokenizer::load(doubling_merges(20)),
                        "bpe load: token text of 20 merges 2097406 bytes need 2.0 MiB; the limit here is 1.0 MiB");
    CHECK(BpeTokenizer::load(doubling_merges(18)).vocab_size() == 256 + 18);
    // 60 doubling lines in 636 bytes (tokens of 2^60 bytes by the end): the cap stops it first
    const std::string file = doubling_merges(60);
    CHECK(file.size() == 636);
    REQUIRE_THROWS_WITH(BpeTokenizer::load(file),
                        "bpe load: line 24: token 276 would be 2097152 bytes long; the longest allowed is 1048576 bytes (1.0 MiB)");
  }

  SECTION("token length is capped and checked before any token is built") {
    // the 436-byte file: 40 doubling lines (tests/fuzz/regressions/bpe_load/doubling-tokens-436-bytes)
    const std::string file = doubling_merges(40);
    CHECK(file.size() == 436);
    // a limit far above the cap: the cap, not the memory limit, stops it, at the line that
    // passes it (id 276 = 2^21 bytes of 'a'), and nothing is allocated before (1 GiB allowed,
    // and the message is not the memory plan's)
    testing::WasmLimits big(1ull << 30, 1ull << 30);
    REQUIRE_THROWS_WITH(BpeTokenizer::load(file),
                        "bpe load: line 24: token 276 would be 2097152 bytes long; the longest allowed is 1048576 bytes (1.0 MiB)");
    CHECK(BpeTokenizer::load(doubling_merges(20)).token_bytes(275).size() == (size_t{1} << 20));
  }

  SECTION("the whole file's token bytes are planned before any token is built") {
    // 300 merges of "a" + the previous token: each token is short (<= 301 bytes), together they
    // hold 256 + (2 + 3 + ... + 301) = 45,706 bytes; the plan names the total, not a line
    std::string file = "embedlab-bpe 1\npattern gpt2\nmerges 300\n97 97 0\n";
    for (int k = 1; k < 300; ++k) file += "97 " + std::to_string(255 + k) + " 0\n";
    testing::WasmLimits tiny(40000, 40000);
    REQUIRE_THROWS_WITH(BpeTokenizer::load(file),
                        "bpe load: token text of 300 merges 45706 bytes need 44.6 KiB; the limit here is 39.1 KiB");
  }

  const BpeTokenizer tok = BpeTokenizer::load(doubling_merges(16));  // id 271: 2^16 bytes of 'a'

  SECTION("decode plans its exact output") {
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(tok.decode_bytes(std::vector<int32_t>(32, 271)),
                        "decode: text 2097152 bytes need 2.0 MiB; the limit here is 1.0 MiB");
    CHECK(tok.decode_bytes(std::vector<int32_t>(8, 271)) == std::string(8 << 16, 'a'));
  }

  SECTION("encode checks one id per byte without reserving it") {
    const std::string text(300000, 'x');
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(tok.encode(text),
                        "encode: ids (at most one per byte) 300000 int32 need 1.1 MiB; the limit here is 1.0 MiB");
  }

  SECTION("training checks its piece ids and pair tables") {
    const std::string text(300000, 'x');
    {
      testing::WasmLimits tiny(1 << 20, 1 << 20);
      REQUIRE_THROWS_WITH(BpeTrainer(text, 300),
                          "bpe train: piece ids (at most one per byte) 300000 int32 need 1.1 MiB; the limit here is 1.0 MiB");
    }
    // 20000 distinct 5-letter pieces (" " + 4 letters): 80000 adjacent pairs x 96 bytes of index
    std::string words;
    for (int k = 0; k < 20000; ++k) {
      words += ' ';
      for (int d = 0, v = k; d < 4; ++d, v /= 26) words += static_cast<char>('a' + v % 26);
    }
    testing::WasmLimits tiny(4 << 20, 4 << 20);
    REQUIRE_THROWS_WITH(BpeTrainer(words, 300),
                        "bpe train: pair index 80000 x 96 bytes need 7.3 MiB; the limit here is 4.0 MiB");
  }
}
