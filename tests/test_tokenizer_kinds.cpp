// The tokenizer factory (tokenizer/tokenizer_kinds.hpp): one way to build every kind, for the
// CLI, the bindings and the page.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tokenizer/tokenizer_kinds.hpp"

using namespace embedlab;

TEST_CASE("make_tokenizer builds every kind from its name", "[tokenizer][kinds]") {
  const std::string corpus = "the cat the hat\nThe cat sat on the mat, the cat sat.\n";

  SECTION("the registry lists gpt2, whitespace, word, char and bpe, vocabularies marked") {
    std::vector<std::string> names;
    for (const TokenizerKind& k : tokenizer_kinds()) {
      names.push_back(k.name);
      CHECK(std::string(k.description).size() > 10);
    }
    CHECK(names == std::vector<std::string>{"gpt2", "whitespace", "word", "char", "bpe"});
    CHECK(find_tokenizer_kind("word")->vocabulary);
    CHECK_FALSE(find_tokenizer_kind("bpe")->vocabulary);
    CHECK(find_tokenizer_kind("bytes") == nullptr);
  }

  SECTION("gpt2 gives tiktoken's ids and ignores the corpus") {
    Tokenizer t = make_tokenizer("gpt2", corpus, {});
    CHECK(t.kind() == "gpt2");
    CHECK(t.encode("Hello world") == std::vector<int32_t>{15496, 995});
  }

  SECTION("a vocabulary kind is built from the corpus with its options") {
    Tokenizer t = make_tokenizer("whitespace", "the cat the hat", {});
    CHECK(t.kind() == "whitespace");
    CHECK(t.vocab_size() == 7);  // <pad> <unk> <sos> <eos> the cat hat
    CHECK(t.encode("the dog") == std::vector<int32_t>{4, 1});
    TokenizerOptions o;
    o.lowercase = true;
    o.min_count = 2;
    Tokenizer w = make_tokenizer("word", corpus, o);
    // words seen twice or more, lower-cased: the (5), cat (3), sat (2)
    CHECK(w.vocab_size() == 7);
    CHECK(w.encode("THE CAT SAT") == std::vector<int32_t>{4, 5, 6});
    CHECK(make_tokenizer("char", "abca", {}).vocab_size() == 7);
  }

  SECTION("bpe trained on the corpus equals bpe loaded from its merges") {
    TokenizerOptions train;
    train.vocab_size = 260;
    Tokenizer a = make_tokenizer("bpe", corpus, train);
    CHECK(a.kind() == "bpe");
    CHECK(a.vocab_size() == 260);
    TokenizerOptions load;
    load.merges = a.bpe()->save();
    Tokenizer b = make_tokenizer("bpe", "", load);
    CHECK(b.vocab_size() == 260);
    CHECK(a.encode(corpus) == b.encode(corpus));
    CHECK(a.encode(corpus).size() < corpus.size());
  }

  SECTION("options that do not apply to the kind are refused, naming the kind") {
    TokenizerOptions lower;
    lower.lowercase = true;
    REQUIRE_THROWS_WITH(make_tokenizer("gpt2", corpus, lower),
                        "tokenizer: lowercase, min_count and max_size apply to whitespace, word and char, not gpt2");
    TokenizerOptions max;
    max.max_size = 10;
    REQUIRE_THROWS_WITH(make_tokenizer("bpe", corpus, max),
                        "tokenizer: lowercase, min_count and max_size apply to whitespace, word and char, not bpe");
    TokenizerOptions size;
    size.vocab_size = 300;
    REQUIRE_THROWS_WITH(make_tokenizer("word", corpus, size), "tokenizer: merges and vocab_size apply to bpe only, not word");
  }

  SECTION("bpe needs exactly one of merges and vocab_size") {
    REQUIRE_THROWS_WITH(make_tokenizer("bpe", corpus, {}),
                        "tokenizer: bpe needs merges (a merge file's text) or vocab_size (to train on the corpus)");
    TokenizerOptions both;
    both.vocab_size = 300;
    both.merges = "";
    REQUIRE_THROWS_WITH(make_tokenizer("bpe", corpus, both), "tokenizer: bpe takes merges or vocab_size, not both");
  }

  SECTION("an unknown kind names the kinds; the engine's own checks follow") {
    REQUIRE_THROWS_WITH(make_tokenizer("bytes", corpus, {}),
                        "tokenizer: unknown kind 'bytes', expected gpt2, whitespace, word, char or bpe");
    TokenizerOptions small;
    small.vocab_size = 100;
    REQUIRE_THROWS_WITH(make_tokenizer("bpe", corpus, small), "bpe train: vocab_size must be >= 256, got 100");
    TokenizerOptions bad;
    bad.min_count = 0;
    REQUIRE_THROWS_WITH(make_tokenizer("word", corpus, bad), "vocab: min_count must be >= 1, got 0");
  }
}

TEST_CASE("save_tokenizer / load_tokenizer: the same ids and text for every kind", "[tokenizer]") {
  const std::string corpus = "Tab\there, back\\slash and\r\nnew lines.\nThe <unk> cat\n";
  TokenizerOptions bpe;
  bpe.vocab_size = 270;
  for (const char* kind : {"gpt2", "whitespace", "word", "char", "bpe"}) {
    INFO(kind);
    TokenizerOptions o = std::string(kind) == "bpe" ? bpe : TokenizerOptions{};
    if (std::string(kind) == "word") o.lowercase = true;
    Tokenizer a = make_tokenizer(kind, corpus, o);
    const SavedTokenizer s = save_tokenizer(a);
    CHECK(s.kind == kind);
    Tokenizer b = load_tokenizer(s.kind, s.data);
    CHECK(b.vocab_size() == a.vocab_size());
    const std::string probe = "the Cat\tand new\\slash <unk>\n";
    CHECK(b.encode(probe) == a.encode(probe));
    const std::vector<int32_t> all = a.encode(corpus);
    CHECK(b.decode(all) == a.decode(all));
  }
  SECTION("malformed saved vocabularies are named by line") {
    CHECK_THROWS_WITH(load_tokenizer("char", "nonsense\n"), "vocab load: line 1: not an embedlab vocabulary (it does not start with \"embedlab vocab 1\")");
    CHECK_THROWS_WITH(load_tokenizer("char", "embedlab vocab 1 char lowercase=0\n<pad>\n<unk>\n<sos>\n<eos>\na\\q\n"),
                      "vocab load: line 6: unknown escape (expected \\\\, \\n, \\r or \\t)");
    CHECK_THROWS_WITH(load_tokenizer("char", "embedlab vocab 1 char lowercase=0\n<pad>\n<unk>\n"), "vocab load: line 4: expected the special <sos>");
    CHECK_THROWS_WITH(load_tokenizer("word", "embedlab vocab 1 char lowercase=0\n<pad>\n<unk>\n<sos>\n<eos>\n"),
                      "tokenizer: a saved word tokenizer holds a char vocabulary");
    CHECK_THROWS_WITH(load_tokenizer("gpt2", "x"), "tokenizer: a saved gpt2 tokenizer holds no data, got 1 bytes");
  }
}
