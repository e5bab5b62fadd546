// word2vec's sentences (data/sentences.hpp): the one rule the CLI, the bindings and the page use.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "data/sentences.hpp"
#include "limits.hpp"
#include "tokenizer/tokenizer_kinds.hpp"

using namespace embedlab;

namespace {

Tokenizer vocabulary(const char* kind, std::string_view corpus) { return make_tokenizer(kind, corpus, {}); }

std::vector<std::string> as_strings(const std::vector<std::string_view>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("encode_sentences splits a text into word2vec sentences", "[sentences]") {
  SECTION("the worked example: a CRLF line, a blank line and a whitespace-only line") {
    const std::string text = "the cat\r\n\n \t\nthe hat";
    Tokenizer tok = vocabulary("whitespace", text);  // <pad> <unk> <sos> <eos> the cat hat
    const Sentences s = encode_sentences(tok, text);
    CHECK(s.ids == std::vector<int32_t>{4, 5, 4, 6});
    CHECK(s.starts == std::vector<int64_t>{0, 2, 4});
    CHECK(s.count() == 2);
  }

  SECTION("a CRLF text gives the sentences of its LF twin, even when '\\r' is a token") {
    const std::string lf = "ab c\nd\n\nef\n", crlf = "ab c\r\nd\r\n\r\nef\r\n";
    Tokenizer tok = vocabulary("char", crlf);  // '\r' is in this vocabulary
    const Sentences a = encode_sentences(tok, lf), b = encode_sentences(tok, crlf);
    CHECK(a.ids == b.ids);
    CHECK(a.starts == b.starts);
    CHECK(a.starts == std::vector<int64_t>{0, 4, 5, 7});
  }

  SECTION("whitespace-only lines are skipped by Python's str.isspace(), whatever the tokenizer") {
    // spaces and tabs, U+3000, U+00A0 and U+001C are Python whitespace; U+FEFF is not
    const std::string text = "a\n \t \n\xE3\x80\x80\n\xC2\xA0 \n\x1C\n\xEF\xBB\xBF\nb";
    CHECK(as_strings(sentence_lines(text)) == std::vector<std::string>{"a", "\xEF\xBB\xBF", "b"});
    Tokenizer tok = vocabulary("char", text);
    CHECK(encode_sentences(tok, text).count() == 3);
    Tokenizer gpt2 = make_tokenizer("gpt2", {}, {});
    CHECK(encode_sentences(gpt2, text).count() == 3);
  }

  SECTION("invalid UTF-8 bytes are text, not whitespace") {
    CHECK(is_blank_line(" \t\r"));
    CHECK(is_blank_line(""));
    CHECK_FALSE(is_blank_line(" \xFF "));
    CHECK(as_strings(sentence_lines("\xFF\n\n")) == std::vector<std::string>{"\xFF"});
  }

  SECTION("an empty text, or one of blank lines only, has no sentences") {
    Tokenizer tok = vocabulary("word", "x");
    for (const std::string text : {"", "\n", "\r\n \r\n\t\n"}) {
      const Sentences s = encode_sentences(tok, text);
      CHECK(s.ids.empty());
      CHECK(s.starts == std::vector<int64_t>{0});
      CHECK(s.count() == 0);
    }
  }

  SECTION("every line is encoded on its own, so GPT-2 never sees the newline") {
    Tokenizer gpt2 = make_tokenizer("gpt2", {}, {});
    const Sentences s = encode_sentences(gpt2, "Hello world\r\nHello world\n");
    CHECK(s.ids == std::vector<int32_t>{15496, 995, 15496, 995});
    CHECK(s.starts == std::vector<int64_t>{0, 2, 4});
  }

  SECTION("the ids are planned before they are stored") {
    // two lines of 150 ids: each line fits, the 300 ids together do not
    const std::string text = std::string(150, 'a') + "\n" + std::string(150, 'a');
    Tokenizer tok = vocabulary("char", text);
    testing::WasmLimits tiny(1024, 1024);
    REQUIRE_THROWS_WITH(encode_sentences(tok, text), "sentences: ids 300 int32 need 1.2 KiB; the limit here is 1.0 KiB");
  }
}
