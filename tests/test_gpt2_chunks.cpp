// GPT-2 encoding of long texts on the thread pool (issue 25): the chunk cuts never change a
// pre-tokenizer piece (checked at every safe cut of adversarial texts against the splitter on
// the whole text), and encode() gives the plain serial encoder's ids (the splitter's pieces
// encoded one by one, no chunks) at 1, 2, 3 and 4 threads, on tinyshakespeare and on texts made
// to stress the cuts: long whitespace runs, no spaces at all, Unicode, invalid UTF-8.
// The tiktoken reference tests stay in test_tokenizer.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/file.hpp"
#include "core/parallel.hpp"
#include "tokenizer/gpt2.hpp"
#include "tokenizer/gpt2_split.hpp"

using namespace embedlab;

namespace {

struct KeepThreads {  // restores the thread count a test changed
  int saved = threads();
  ~KeepThreads() { set_threads(saved); }
};

// Characters chosen to meet every rule of the pattern: contractions and their letters, spaces
// before letters, whitespace runs that do and do not end the text, other Unicode whitespace,
// letters and numbers outside ASCII, emoji, and bytes that are not UTF-8.
const std::vector<std::string> kAlphabet = {
    " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "a", "Z", "s", "t", "re", "ll", "l", "e", "d", "m", "'", "'", "1", "42",
    "!", ".", "\xC2\xA0" /* NBSP */, "\xE2\x80\x83" /* EM SPACE */, "\xC3\xA9" /* é */, "\xD0\x96" /* Ж */,
    "\xE4\xB8\xAD" /* 中 */, "\xD9\xA3" /* Arabic-Indic 3 */, "\xF0\x9F\x98\x80" /* emoji */, "\xFF", "\x80", "\xE2\x82"};

std::string adversarial(uint64_t seed, size_t pieces) {
  std::mt19937_64 rng(seed);
  std::string s;
  for (size_t k = 0; k < pieces; ++k) s += kAlphabet[rng() % kAlphabet.size()];
  return s;
}

std::vector<std::string> joined_split(std::string_view text, size_t p) {
  std::vector<std::string> out = gpt2_split(text.substr(0, p));
  for (std::string& piece : gpt2_split(text.substr(p))) out.push_back(std::move(piece));
  return out;
}

// The plain serial encoder: the splitter's pieces of the whole text, encoded one by one.
std::vector<int32_t> serial_ids(std::string_view text) {
  Gpt2Tokenizer tok;
  std::vector<int32_t> ids;
  Gpt2Splitter split(text);
  for (std::string_view piece; split.next(piece);) tok.encode_piece(piece, ids);
  return ids;
}

std::string repeat(const std::string& unit, size_t bytes) {
  std::string s;
  while (s.size() < bytes) s += unit;
  return s;
}

}  // namespace

TEST_CASE("gpt2_safe_cut never changes a piece", "[tokenizer][gpt2][threads]") {
  SECTION("the header's example: after a letter before ', and before spaces; never after whitespace") {
    const std::string s = "It's  x";
    CHECK(gpt2_safe_cut(s, 2));
    CHECK_FALSE(gpt2_safe_cut(s, 3));
    CHECK(gpt2_safe_cut(s, 4));
    CHECK_FALSE(gpt2_safe_cut(s, 5));
    CHECK_FALSE(gpt2_safe_cut(s, 6));
    CHECK_FALSE(gpt2_safe_cut(s, 0));
    CHECK_FALSE(gpt2_safe_cut(s, 7));
  }
  SECTION("the cuts it refuses would change pieces: inside a whitespace run and inside a contraction") {
    CHECK(joined_split("a  b", 3) != gpt2_split("a  b"));  // "a", " ", " b" vs "a", "  ", "b"
    CHECK_FALSE(gpt2_safe_cut("a  b", 3));
    CHECK(joined_split("it's", 3) != gpt2_split("it's"));
    CHECK_FALSE(gpt2_safe_cut("it's", 3));
  }
  SECTION("at every safe cut of 200 adversarial texts the two halves split as the whole text does") {
    int64_t cuts = 0;
    for (uint64_t seed = 0; seed < 200; ++seed) {
      const std::string s = adversarial(seed, 60);
      const std::vector<std::string> whole = gpt2_split(s);
      for (size_t p = 1; p < s.size(); ++p) {
        if (!gpt2_safe_cut(s, p)) continue;
        ++cuts;
        INFO("seed " << seed << " cut " << p);
        REQUIRE(joined_split(s, p) == whole);
      }
    }
    CHECK(cuts > 2000);  // the texts do offer cuts
  }
}

TEST_CASE("gpt2_chunk_cuts: the first safe cut after each multiple, then the end", "[tokenizer][gpt2][threads]") {
  CHECK(gpt2_chunk_cuts("ab cd ef", 3) == std::vector<size_t>{5, 8});
  CHECK(gpt2_chunk_cuts("", 3).empty());
  CHECK(gpt2_chunk_cuts("abcdefgh", 3) == std::vector<size_t>{8});  // one letter run: no cut
  CHECK_THROWS_WITH(gpt2_chunk_cuts("ab", 0), "gpt2_chunk_cuts: min_bytes 0 out of range [1, inf)");
  const std::string s = adversarial(7, 5000);
  const std::vector<size_t> cuts = gpt2_chunk_cuts(s, 300);
  REQUIRE(cuts.size() > 10);
  CHECK(cuts.back() == s.size());
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    CHECK(gpt2_safe_cut(s, cuts[k]));
    CHECK(cuts[k] >= 300 * (k + 1));
    if (k > 0) CHECK(cuts[k] > cuts[k - 1]);
  }
}

TEST_CASE("GPT-2 encode gives the serial encoder's ids at 1, 2, 3 and 4 threads", "[tokenizer][gpt2][threads]") {
  KeepThreads keep;
  const std::string shakespeare = read_file("test", EMBEDLAB_SOURCE_DIR "/web/corpora/tinyshakespeare.txt");
  const std::string words = "To be, or not to be: that's the question.";
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"tinyshakespeare", shakespeare},
      {"long whitespace runs", repeat(words + std::string(5000, ' ') + "\n\n\n" + std::string(3000, '\t') + " x", 400000)},
      {"no spaces", repeat("abc'sdef'llxyz123!?.", 300000)},
      {"Unicode", repeat("Жили-были \xE4\xB8\xAD\xE6\x96\x87 caf\xC3\xA9\xC2\xA0na\xC3\xAFve \xF0\x9F\x98\x80\xF0\x9F\x98\x80 \xD9\xA3\xD9\xA4 ", 300000)},
      {"adversarial mix with invalid bytes", adversarial(99, 200000)},
      {"special tokens between chunks", repeat(words + " <|endoftext|>" + std::string(40000, 'x') + " ", 300000)},
  };
  for (const auto& [name, text] : texts) {
    INFO(name);
    REQUIRE(text.size() > 2 * Gpt2Tokenizer::kChunkBytes);
    const std::vector<int32_t> serial = serial_ids(text);
    for (int t = 1; t <= 4; ++t) {
      INFO("threads " << t);
      set_threads_oversubscribed(t);
      Gpt2Tokenizer tok;
      CHECK(tok.encode(text) == serial);
    }
  }
  SECTION("with allow_special, the chunks of each ordinary run keep 50256 in place") {
    const std::string text = repeat(words + "<|endoftext|>" + std::string(50000, 'y') + " ", 200000);
    set_threads(1);
    const std::vector<int32_t> one = Gpt2Tokenizer().encode(text, true);
    CHECK(std::count(one.begin(), one.end(), Gpt2Tokenizer::kEndOfText) > 2);
    for (int t = 2; t <= 4; ++t) {
      set_threads_oversubscribed(t);
      CHECK(Gpt2Tokenizer().encode(text, true) == one);
    }
  }
}
