// Fuzz target: GPT-2 encode of arbitrary bytes (tokenizer/gpt2.hpp).
// Input: byte 0 bit 0 = allow_special, the rest = the text.
// Properties: every id is in [0, 50257); decode_bytes(encode(text)) == text for any bytes;
// decode(encode(text)) == text when text is valid UTF-8 (and is valid UTF-8 in any case);
// without allow_special no id is <|endoftext|>.
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "tokenizer/gpt2.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  if (size < 1) return 0;
  static Gpt2Tokenizer tok;  // 50k-entry table: built once
  const bool allow_special = data[0] & 1;
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  fuzz::expect_errors([&] {
    const std::vector<int32_t> ids = tok.encode(text, allow_special);
    for (const int32_t id : ids) {
      fuzz::require(id >= 0 && id < Gpt2Tokenizer::kVocabSize, "encode: ids in [0, 50257)");
      fuzz::require(allow_special || id != Gpt2Tokenizer::kEndOfText, "encode: no <|endoftext|> without allow_special");
    }
    fuzz::require(tok.decode_bytes(ids) == text, "decode_bytes(encode(text)) == text");
    const std::string shown = tok.decode(ids);
    fuzz::require(fuzz::valid_utf8(shown), "decode(ids) is valid UTF-8");
    if (fuzz::valid_utf8(text)) fuzz::require(shown == text, "decode(encode(text)) == text for valid UTF-8");
  });
  return 0;
}
