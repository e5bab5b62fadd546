// GPT-2 BPE (against tiktoken's reference ids), the GPT-2 splitter, UTF-8 repair, and the
// word/char vocabularies.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <random>

#include "core/error.hpp"
#include "core/file.hpp"
#include "tokenizer/gpt2.hpp"
#include "tokenizer/gpt2_split.hpp"
#include "tokenizer/unicode.hpp"
#include "tokenizer/vocab.hpp"
#include "limits.hpp"

using namespace embedlab;

namespace {

Gpt2Tokenizer& gpt2() {
  static Gpt2Tokenizer tok;
  return tok;
}

}  // namespace

TEST_CASE("Gpt2Tokenizer reproduces tiktoken gpt2", "[tokenizer][gpt2]") {
  const auto ref = nlohmann::json::parse(read_file("test", EMBEDLAB_SOURCE_DIR "/tests/reference/gpt2_the_verdict.json"));
  const std::string text = read_file("test", EMBEDLAB_SOURCE_DIR "/web/corpora/the-verdict.txt");
  const auto expected = ref["ids"].get<std::vector<int32_t>>();

  SECTION("the-verdict encodes to the reference's 5145 ids") {
    const auto ids = gpt2().encode(text);
    REQUIRE(ids.size() == 5145);
    CHECK(ids[0] == 40);
    CHECK(ids[1] == 367);
    CHECK(ids[2] == 2885);
    CHECK(ids[3] == 1464);
    CHECK(ids == expected);
  }
  SECTION("decoding the reference ids gives back the text") {
    CHECK(gpt2().decode_bytes(expected) == text);
    CHECK(gpt2().decode(expected) == text);
  }
}

TEST_CASE("Gpt2Tokenizer round-trips any bytes", "[tokenizer][gpt2]") {
  Gpt2Tokenizer& tok = gpt2();
  auto round_trip = [&](const std::string& s) { return tok.decode_bytes(tok.encode(s)) == s; };

  SECTION("the empty text encodes to no ids") {
    CHECK(tok.encode("").empty());
    CHECK(tok.decode_bytes(std::vector<int32_t>{}).empty());
  }
  SECTION("every single byte is one token and decodes back") {
    for (int b = 0; b < 256; ++b) {
      const std::string s(1, static_cast<char>(b));
      const auto ids = tok.encode(s);
      REQUIRE(ids.size() == 1);
      REQUIRE(tok.decode_bytes(ids) == s);
    }
  }
  SECTION("multi-byte UTF-8 and invalid UTF-8 round-trip") {
    CHECK(round_trip("caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E \xF0\x9F\x98\x80!"));
    CHECK(round_trip("\xFF\xFE\x80 abc \xE2\x82 \xED\xA0\x80 \xC0\xAF"));
  }
  SECTION("random byte strings round-trip (property test, 2000 strings)") {
    std::mt19937 rng(12345);
    for (int t = 0; t < 2000; ++t) {
      std::string s(rng() % 64, '\0');
      // Mix ASCII letters/spaces with arbitrary bytes so pieces of every class occur.
      for (auto& c : s) c = static_cast<char>(rng() % 3 == 0 ? rng() % 256 : " a'sZ9\n\t"[rng() % 8]);
      INFO("case " << t);
      REQUIRE(round_trip(s));
    }
  }
  SECTION("decode replaces invalid UTF-8 with U+FFFD, never throws") {
    CHECK(tok.decode(tok.encode("ok\xFFok")) == "ok\xEF\xBF\xBDok");
    // A token whose bytes are a lone UTF-8 lead byte (0xE6) decodes to one U+FFFD.
    const std::string_view partial = tok.token_bytes(tok.encode("\xE6")[0]);
    CHECK(tok.decode(tok.encode(std::string(partial))) == "\xEF\xBF\xBD");
  }
  SECTION("<|endoftext|> is 50256 only when special tokens are allowed") {
    const std::vector<int32_t> ordinary = {27, 91, 437, 1659, 5239, 91, 29};  // tiktoken encode_ordinary
    CHECK(tok.encode("<|endoftext|>") == ordinary);
    CHECK(tok.encode("<|endoftext|>", true) == std::vector<int32_t>{50256});
    const auto ids = tok.encode("Hello<|endoftext|> world", true);
    CHECK(ids == std::vector<int32_t>{15496, 50256, 995});
    CHECK(tok.decode_bytes(ids) == "Hello<|endoftext|> world");
    CHECK(tok.token_bytes(50256) == "<|endoftext|>");
  }
  SECTION("an id outside the vocabulary is refused with its value") {
    REQUIRE_THROWS_WITH(tok.decode_bytes(std::vector<int32_t>{5, 50257}), "decode: token id 50257 out of range [0, 50257)");
    REQUIRE_THROWS_WITH(tok.decode(std::vector<int32_t>{-1}), "decode: token id -1 out of range [0, 50257)");
    REQUIRE_THROWS_WITH(tok.token_bytes(60000), "token_bytes: token id 60000 out of range [0, 50257)");
  }
}

namespace {
// tiktoken's byte_pair_merge as its simple loop (src/lib.rs): parts start as single bytes; join
// the adjacent parts whose concatenation has the lowest rank, the leftmost on ties, until no
// concatenation is a token. The reference for Gpt2Tokenizer's heap path (pieces of
// kHeapMergeFrom bytes or more), which must pick the same pair at every step.
std::vector<int32_t> scan_merge(const Gpt2Tokenizer& tok, std::string_view piece) {
  if (tok.rank(piece) >= 0) return {tok.rank(piece)};
  std::vector<size_t> start(piece.size() + 1);
  for (size_t k = 0; k <= piece.size(); ++k) start[k] = k;
  for (;;) {
    int32_t best = -1;
    size_t at = 0;
    for (size_t k = 0; k + 2 < start.size(); ++k) {
      const int32_t r = tok.rank(piece.substr(start[k], start[k + 2] - start[k]));
      if (r >= 0 && (best < 0 || r < best)) best = r, at = k;
    }
    if (best < 0) break;
    start.erase(start.begin() + static_cast<std::ptrdiff_t>(at) + 1);
  }
  std::vector<int32_t> ids;
  for (size_t k = 0; k + 1 < start.size(); ++k) ids.push_back(tok.rank(piece.substr(start[k], start[k + 1] - start[k])));
  return ids;
}
}  // namespace

TEST_CASE("Gpt2Tokenizer's heap merge path (long pieces) gives tiktoken's ids", "[tokenizer][gpt2]") {
  Gpt2Tokenizer& tok = gpt2();
  const size_t from = Gpt2Tokenizer::kHeapMergeFrom;

  SECTION("tiktoken's own ids for texts of long pieces (tests/reference/gpt2_long_pieces.json)") {
    const auto ref = nlohmann::json::parse(read_file("test", EMBEDLAB_SOURCE_DIR "/tests/reference/gpt2_long_pieces.json"));
    REQUIRE(ref["cases"].size() == 6);
    for (const auto& c : ref["cases"]) {
      const std::string text = c["text"].get<std::string>();
      INFO(c["name"].get<std::string>());
      // every case has a piece long enough for the heap path; the-verdict itself has none
      size_t longest = 0;
      for (const auto& piece : gpt2_split(text)) longest = std::max(longest, piece.size());
      CHECK(longest >= from);
      CHECK(tok.encode(text) == c["ids"].get<std::vector<int32_t>>());
    }
    size_t verdict_longest = 0;
    for (const auto& piece : gpt2_split(read_file("test", EMBEDLAB_SOURCE_DIR "/web/corpora/the-verdict.txt")))
      verdict_longest = std::max(verdict_longest, piece.size());
    CHECK(verdict_longest < from);
  }
  SECTION("the heap picks the same pairs as tiktoken's scan loop (random long pieces)") {
    // letters from a few common words (many merges apply, with ties of one rank at several
    // places), digit runs and whitespace runs, each one piece of 64..700 bytes
    std::mt19937 rng(2024);
    const char* syllables[] = {"the", "in", "er", "an", "re", "on", "at", "en", "ing", "tion", "a", "e", "s", "ll"};
    for (int t = 0; t < 60; ++t) {
      const size_t n = from + rng() % 640;
      std::string piece;
      switch (t % 3) {
        case 0: while (piece.size() < n) piece += syllables[rng() % 14]; break;
        case 1: while (piece.size() < n) piece += static_cast<char>('0' + rng() % 10); break;
        default: while (piece.size() < n) piece += " \n\t"[rng() % 3];
      }
      INFO("piece: " << piece);
      std::vector<int32_t> ids;
      tok.encode_piece(piece, ids);
      REQUIRE(ids == scan_merge(tok, piece));
    }
  }
}

TEST_CASE("gpt2_split follows the GPT-2 pattern", "[tokenizer][gpt2]") {
  using V = std::vector<std::string>;
  SECTION("contractions, letters, numbers and punctuation take one optional leading space") {
    CHECK(gpt2_split("Hello  world's 42!\n") == V{"Hello", " ", " world", "'s", " 42", "!", "\n"});
    CHECK(gpt2_split("don't I'll we've DON'T") == V{"don", "'t", " I", "'ll", " we", "'ve", " DON", "'", "T"});
  }
  SECTION("a whitespace run leaves its last space to the next word") {
    CHECK(gpt2_split("a   b") == V{"a", "  ", " b"});
    CHECK(gpt2_split("a\n\n b") == V{"a", "\n\n", " b"});
    CHECK(gpt2_split("x \n") == V{"x", " \n"});
    CHECK(gpt2_split("\n\nx") == V{"\n", "\n", "x"});
  }
  SECTION("Unicode letters and numbers use the generated tables") {
    CHECK(gpt2_split("caf\xC3\xA9 \xD9\xA3\xD9\xA4 \xE2\x85\xAB") == V{"caf\xC3\xA9", " \xD9\xA3\xD9\xA4", " \xE2\x85\xAB"});
    CHECK(gpt2_split("a\xC2\xA0" "b") == V{"a", "\xC2\xA0", "b"});  // U+00A0 is White_Space
  }
  SECTION("invalid bytes are punctuation-like and stay in order") {
    CHECK(gpt2_split("ab\xFF\xFE cd") == V{"ab", "\xFF\xFE", " cd"});
  }
}

TEST_CASE("replace_invalid_utf8 substitutes maximal subparts", "[tokenizer][unicode]") {
  using unicode::replace_invalid_utf8;
  SECTION("valid text is unchanged") {
    CHECK(replace_invalid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xF0\x9F\x98\x80");
    CHECK(replace_invalid_utf8("").empty());
  }
  SECTION("each maximal invalid subpart becomes one U+FFFD (Python errors='replace')") {
    // Python: b'a\xe2\x82b'.decode('utf-8','replace') == 'a\ufffdb'
    CHECK(replace_invalid_utf8("a\xE2\x82" "b") == "a\xEF\xBF\xBD" "b");
    CHECK(replace_invalid_utf8("\xFF\xFE") == "\xEF\xBF\xBD\xEF\xBF\xBD");
    // b'\xed\xa0\x80' (a surrogate) -> three U+FFFD; b'\xc0\xaf' (overlong) -> two.
    CHECK(replace_invalid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(replace_invalid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(replace_invalid_utf8("\xF0\x9F\x98") == "\xEF\xBF\xBD");
  }
}

TEST_CASE("Vocab builds word and character vocabularies", "[tokenizer][vocab]") {
  using V = std::vector<std::string>;
  SECTION("whitespace splitting is Python's str.split()") {
    // Python: 'a\x1cb\x85c\u2003d\u200be'.split() == ['a', 'b', 'c', 'd\u200be']
    CHECK(split_tokens("a\x1c" "b\xC2\x85" "c\xE2\x80\x83" "d\xE2\x80\x8B" "e", VocabKind::Whitespace) ==
          V{"a", "b", "c", "d\xE2\x80\x8B" "e"});
    CHECK(split_tokens("  \t\n ", VocabKind::Whitespace).empty());
    CHECK(split_tokens("", VocabKind::Whitespace).empty());
  }
  SECTION("word splitting is re.findall(r'\\w+|[^\\w\\s]')") {
    // Python: ['don', "'", 't', '!', 'x_y', '3', '.', '14', 'é', 'z']
    CHECK(split_tokens("don't! x_y 3.14 \xC3\xA9\xC2\xA0z", VocabKind::Word) ==
          V{"don", "'", "t", "!", "x_y", "3", ".", "14", "\xC3\xA9", "z"});
  }
  SECTION("char splitting yields code points") {
    CHECK(split_tokens("a\xC3\xA9 \xF0\x9F\x98\x80", VocabKind::Char) == V{"a", "\xC3\xA9", " ", "\xF0\x9F\x98\x80"});
  }
  SECTION("lower-casing is Python's str.lower(), final sigma included") {
    // Python 3.11: 'ΟΔΟΣ Σ ΑΣ. İstanbul ÀÉ Ǆ ĀĂ Ⅻ ＡＢ Ωmega ẞ Ԁ ᏸ'.lower()
    //   == 'οδος σ ας. i̇stanbul àé ǆ āă ⅻ ａｂ ωmega ß ԁ ᏸ'
    CHECK(lowercase_text("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 \xCE\xA3 \xCE\x91\xCE\xA3. \xC4\xB0stanbul \xC3\x80\xC3\x89 "
                         "\xC7\x84 \xC4\x80\xC4\x82 \xE2\x85\xAB \xEF\xBC\xA1\xEF\xBC\xA2 \xCE\xA9mega \xE1\xBA\x9E "
                         "\xD4\x80 \xE1\x8F\xB8") ==
          "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82 \xCF\x83 \xCE\xB1\xCF\x82. i\xCC\x87stanbul \xC3\xA0\xC3\xA9 "
          "\xC7\x86 \xC4\x81\xC4\x83 \xE2\x85\xBB \xEF\xBD\x81\xEF\xBD\x82 \xCF\x89mega \xC3\x9F "
          "\xD4\x81 \xE1\x8F\xB8");
    CHECK(lowercase_text("AbC \xFF \xC3\x97") == "abc \xFF \xC3\x97");  // invalid byte and U+00D7 unchanged
    // Final_Sigma looks for *cased* neighbours, skipping case-ignorable ones (Python 3.11):
    // 'ΟΔΟΣ日' -> 'οδος日' (日 is uncased), 'ΟΔΟΣⅫ' -> 'οδοσⅻ' (Ⅻ is cased), "ΑΣ'Β" -> "ασ'β", 'Σ.' -> 'σ.'
    CHECK(lowercase_text("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3\xE6\x97\xA5") == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82\xE6\x97\xA5");
    CHECK(lowercase_text("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3\xE2\x85\xAB") == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83\xE2\x85\xBB");
    CHECK(lowercase_text("\xCE\x91\xCE\xA3'\xCE\x92") == "\xCE\xB1\xCF\x83'\xCE\xB2");
    CHECK(lowercase_text("\xCE\xA3.") == "\xCF\x83.");
  }
  SECTION("ids are specials, then descending count, ties by first occurrence") {
    const Vocab v = Vocab::build("the cat the hat", {});
    REQUIRE(v.size() == 7);
    CHECK(v.token(0) == "<pad>");
    CHECK(v.token(1) == "<unk>");
    CHECK(v.token(2) == "<sos>");
    CHECK(v.token(3) == "<eos>");
    CHECK(v.token(4) == "the");
    CHECK(v.token(5) == "cat");
    CHECK(v.token(6) == "hat");
    CHECK(std::vector<int64_t>(v.counts().begin(), v.counts().end()) == std::vector<int64_t>{0, 0, 0, 0, 2, 1, 1});
    CHECK(v.encode("the dog") == std::vector<int32_t>{4, 1});
    CHECK(v.decode(std::vector<int32_t>{4, 5, 1}) == "the cat <unk>");
  }
  SECTION("seed 001's create_vocab text gives 54 entries (50 words + 4 specials)") {
    const std::string text =
        "\nThis script implements a decoder-only Transformer model for text generation, similar to the architecture "
        "used in GPT (Generative Pre-trained Transformer). The model is trained on a text dataset, specifically the "
        "book \"Pride and Prejudice,\" to learn to generate text in the style of the book.\nThe script trains the model "
        "on the text of \"Pride and Prejudice\" to generate text in a similar style. After training, the model can be "
        "used to generate text by predicting the next token in a sequence based on the previous tokens.\n";
    CHECK(Vocab::build(text, {}).size() == 54);
  }
  SECTION("min_count, max_size and lowercase shape the vocabulary") {
    VocabOptions o;
    o.kind = VocabKind::Word;
    o.lowercase = true;
    const Vocab all = Vocab::build("A a b B c, d!", o);
    CHECK(all.size() == 4 + 6);  // a b c , d !
    CHECK(all.token(4) == "a");
    CHECK(all.corpus_tokens() == 8);
    o.min_count = 2;
    const Vocab frequent = Vocab::build("A a b B c, d!", o);
    CHECK(frequent.size() == 6);
    CHECK(frequent.encode("b C") == std::vector<int32_t>{5, Vocab::kUnk});
    o.min_count = 1, o.max_size = 5;
    CHECK(Vocab::build("A a b B c, d!", o).size() == 5);
  }
  SECTION("char vocabularies decode exactly; empty text gives zero tokens") {
    VocabOptions o;
    o.kind = VocabKind::Char;
    const std::string text = "h\xC3\xA9llo w\xC3\xB6rld\n";
    const Vocab v = Vocab::build(text, o);
    CHECK(v.decode(v.encode(text)) == text);
    CHECK(v.encode("").empty());
    CHECK(Vocab::build("", o).size() == 4);
  }
  SECTION("bad settings and ids are refused with clear messages") {
    VocabOptions o;
    o.min_count = 0;
    REQUIRE_THROWS_WITH(Vocab::build("a", o), "vocab: min_count must be >= 1, got 0");
    o.min_count = 1, o.max_size = 3;
    REQUIRE_THROWS_WITH(Vocab::build("a", o), "vocab: max_size must be >= 4, got 3");
    REQUIRE_THROWS_WITH(parse_vocab_kind("bytes"), "vocab: unknown kind 'bytes', expected whitespace, word or char");
    const Vocab v = Vocab::build("a b", {});
    REQUIRE_THROWS_WITH(v.decode(std::vector<int32_t>{6}), "decode: token id 6 out of range [0, 6)");
  }
}

TEST_CASE("GPT-2 and vocabulary encode/decode plan their outputs", "[tokenizer][memory]") {
  testing::WasmLimits tiny(1 << 20, 1 << 20);
  const std::string text(300000, 'x');

  SECTION("GPT-2 encode checks one id per byte, decode plans the exact bytes") {
    Gpt2Tokenizer tok;
    REQUIRE_THROWS_WITH(tok.encode(text),
                        "encode: ids (at most one per byte) 300000 int32 need 1.1 MiB; the limit here is 1.0 MiB");
    // <|endoftext|> is 13 bytes: 100000 of them are 1300000 bytes
    REQUIRE_THROWS_WITH(tok.decode_bytes(std::vector<int32_t>(100000, Gpt2Tokenizer::kEndOfText)),
                        "decode: text 1300000 bytes need 1.2 MiB; the limit here is 1.0 MiB");
    CHECK(tok.decode_bytes(tok.encode("Hello world")) == "Hello world");
  }

  SECTION("a long piece's merge buffers are planned") {
    Gpt2Tokenizer tok;
    testing::WasmLimits tinier(1 << 16, 1 << 16);
    // one 10000-byte piece of letters that are no token together: links 3 x 10001 int32
    std::string piece;
    for (int k = 0; k < 10000; ++k) piece += static_cast<char>(k % 2 ? 'q' : 'z');
    REQUIRE_THROWS_WITH(tok.encode(piece),
                        "encode: merge links 3 x 10001 int32 need 117.2 KiB; the limit here is 64.0 KiB");
  }

  SECTION("vocabulary encode and decode are planned the same way") {
    VocabOptions o;
    o.kind = VocabKind::Char;
    const Vocab v = Vocab::build("xy", o);
    REQUIRE_THROWS_WITH(v.encode(text),
                        "encode: ids (at most one per byte) 300000 int32 need 1.1 MiB; the limit here is 1.0 MiB");
    const int32_t x = v.id("x");
    REQUIRE_THROWS_WITH(v.decode(std::vector<int32_t>(2000000, x)),
                        "decode: text 2000000 bytes need 1.9 MiB; the limit here is 1.0 MiB");
    CHECK(v.decode(std::vector<int32_t>(3, x)) == "xxx");
  }
}

TEST_CASE("text buffers that grow with the input are planned", "[tokenizer][memory]") {
  testing::WasmLimits small(1 << 16, 1 << 16);  // 64 KiB

  SECTION("a vocabulary of many distinct words fails while it grows, naming its size") {
    std::string corpus;
    for (int k = 0; k < 5000; ++k) corpus += "w" + std::to_string(k) + " ";
    REQUIRE_THROWS_WITH(Vocab::build(corpus, {}),
                        "vocab: distinct tokens (about 96 bytes each) 2048 x 96 bytes need 192.0 KiB; "
                        "the limit here is 64.0 KiB");
  }
  SECTION("lower-casing checks its worst case, three bytes per byte") {
    REQUIRE_THROWS_WITH(unicode::lowercase(std::string(30000, 'A')),
                        "lowercase: lower-cased text (at most 3 bytes per byte) 30000 x 3 bytes need 87.9 KiB; "
                        "the limit here is 64.0 KiB");
    CHECK(unicode::lowercase(std::string(20000, 'A')) == std::string(20000, 'a'));
  }
  SECTION("replacing invalid UTF-8 plans the exact output") {
    // 30000 lone continuation bytes -> 30000 U+FFFD, 90000 bytes
    REQUIRE_THROWS_WITH(unicode::replace_invalid_utf8(std::string(30000, '\x80')),
                        "replace_invalid_utf8: text 90000 bytes need 87.9 KiB; the limit here is 64.0 KiB");
    CHECK(unicode::replace_invalid_utf8(std::string(60000, 'a')).size() == 60000);
  }
}
