// Fuzz target: GPT-2 decode of arbitrary ids (tokenizer/gpt2.hpp).
// Input: little-endian int32 ids, 4 bytes each (any value: negative, past 50256, huge).
// Properties: ids out of [0, 50257) fail with an embedlab::Error; otherwise decode_bytes is the
// concatenation of token_bytes, decode is valid UTF-8, and encoding the decoded bytes decodes
// back to the same bytes (ids may differ: decoding forgets token boundaries).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tokenizer/gpt2.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  static Gpt2Tokenizer tok;
  std::vector<int32_t> ids(size / 4);
  if (!ids.empty()) std::memcpy(ids.data(), data, ids.size() * 4);
  bool in_range = true;
  for (const int32_t id : ids) in_range = in_range && id >= 0 && id < Gpt2Tokenizer::kVocabSize;

  bool decoded = false;
  fuzz::expect_errors([&] {
    const std::string bytes = tok.decode_bytes(ids);
    decoded = true;
    std::string joined;
    for (const int32_t id : ids) joined += tok.token_bytes(id);
    fuzz::require(bytes == joined, "decode_bytes(ids) == the ids' token_bytes joined");
    fuzz::require(fuzz::valid_utf8(tok.decode(ids)), "decode(ids) is valid UTF-8");
    fuzz::require(tok.decode_bytes(tok.encode(bytes, true)) == bytes, "decode_bytes(encode(decode_bytes(ids))) == decode_bytes(ids)");
  });
  fuzz::require(decoded == in_range, "decode_bytes fails exactly when an id is out of range");
  fuzz::expect_errors([&] {
    (void)tok.decode(ids);
    fuzz::require(in_range, "decode fails when an id is out of range");
  });
  return 0;
}
