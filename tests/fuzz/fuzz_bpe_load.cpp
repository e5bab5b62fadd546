// Fuzz target: the BPE merges loader (BpeTokenizer::load, tokenizer/bpe.hpp).
// Input: the bytes of a merges file (dictionary: bpe_load.dict).
// Properties: a bad file fails with an Error naming its line; a file that loads has 256 + M ids,
// saves to a file that loads to the same merges, and encodes any bytes (the input itself) to ids
// in range that decode back to the same bytes.
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "tokenizer/bpe.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory(8ull << 20);  // see fuzz_common.hpp
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::expect_errors([&] {
    const BpeTokenizer tok = BpeTokenizer::load(text);
    const auto& merges = tok.merges();
    fuzz::require(tok.vocab_size() == 256 + static_cast<int64_t>(merges.size()), "vocab_size == 256 + merges");
    const BpeTokenizer again = BpeTokenizer::load(tok.save());
    fuzz::require(again.merges().size() == merges.size(), "load(save()) has the same merge count");
    for (size_t k = 0; k < merges.size(); ++k) {
      const BpeMerge& a = merges[k];
      const BpeMerge& b = again.merges()[k];
      fuzz::require(a.left == b.left && a.right == b.right && a.id == b.id && a.count == b.count,
                    "load(save()) has the same merges");
    }
    const std::vector<int32_t> ids = tok.encode(text);
    for (const int32_t id : ids) fuzz::require(id >= 0 && id < tok.vocab_size(), "encode: ids in [0, vocab_size)");
    fuzz::require(tok.decode_bytes(ids) == text, "decode_bytes(encode(text)) == text");
  });
  return 0;
}
