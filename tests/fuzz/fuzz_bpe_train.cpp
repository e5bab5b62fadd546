// Fuzz target: BPE training on small corpora (BpeTrainer, tokenizer/bpe_train.hpp).
// Input: byte 0 = the number of merges to ask for (vocab_size = 256 + byte 0, up to 511; the
// values 0 and 1 ask for 255 and for 1048577 + 1, which must fail), byte 1 = the step size,
// the rest = the corpus.
// Properties: training stops at the target or when no pair is left; merge ids are consecutive;
// token_count() equals the length of encode(corpus) with the trained merges (training and
// encoding apply the same merges in the same order); decode_bytes(encode(corpus)) == corpus;
// the saved merges load back.
#include <algorithm>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "tokenizer/bpe.hpp"
#include "tokenizer/bpe_train.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  if (size < 2) return 0;
  int64_t vocab_size = 256 + data[0];
  if (data[0] == 0) vocab_size = 255;               // below the 256 bytes: an Error
  if (data[0] == 1) vocab_size = (1 << 20) + 2;     // above the id limit: an Error
  const int64_t step = 1 + data[1] % 16;
  const std::string_view corpus = fuzz::as_text(data + 2, size - 2);
  fuzz::expect_errors([&] {
    BpeTrainer tr(corpus, vocab_size);
    fuzz::require(vocab_size >= 256 && vocab_size <= (1 << 20), "BpeTrainer refuses vocab sizes out of range");
    fuzz::require(tr.token_count() == static_cast<int64_t>(corpus.size()), "token_count() before training == bytes");
    int64_t next_id = 256;
    for (int rounds = 0; !tr.done() && rounds < 1000; ++rounds) {
      const std::vector<BpeMerge> merges = tr.step(step);
      fuzz::require(!merges.empty() && static_cast<int64_t>(merges.size()) <= step, "step(n) makes 1..n merges until done");
      for (const BpeMerge& m : merges) {
        fuzz::require(m.id == next_id++, "merge ids are consecutive");
        fuzz::require(m.count >= 1, "a merged pair occurs");
      }
    }
    const BpeTokenizer& tok = tr.tokenizer();
    fuzz::require(tr.done() && tok.vocab_size() <= vocab_size, "training stops at the target vocab size");
    const std::vector<int32_t> ids = tok.encode(corpus);
    fuzz::require(static_cast<int64_t>(ids.size()) == tr.token_count(), "token_count() == encode(corpus).size()");
    fuzz::require(tok.decode_bytes(ids) == corpus, "decode_bytes(encode(corpus)) == corpus");
    fuzz::require(BpeTokenizer::load(tok.save()).merges().size() == tok.merges().size(), "the saved merges load back");
  });
  return 0;
}
