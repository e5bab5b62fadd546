// GPT-2 BPE (against tiktoken's reference ids), the GPT-2 splitter, UTF-8 repair, and the
// word/char vocabularies.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/error.hpp"
#include "tokenizer/gpt2.hpp"
#include "tokenizer/gpt2_split.hpp"
#include "tokenizer/unicode.hpp"

using namespace embedlab;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Gpt2Tokenizer& gpt2() {
  static Gpt2Tokenizer tok;
  return tok;
}

}  // namespace

TEST_CASE("Gpt2Tokenizer reproduces tiktoken gpt2", "[tokenizer][gpt2]") {
  const auto ref = nlohmann::json::parse(read_file(EMBEDLAB_SOURCE_DIR "/tests/reference/gpt2_the_verdict.json"));
  const std::string text = read_file(EMBEDLAB_SOURCE_DIR "/web/corpora/the-verdict.txt");
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
