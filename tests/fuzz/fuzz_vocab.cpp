// Fuzz target: word and character vocabularies (tokenizer/vocab.hpp via Tokenizer::from_corpus).
// Input (FuzzedDataProvider): options from the end (kind, lowercase, min_count in [-1, 4],
// max_size 0 or in [-1, 40]), then a text to encode, then the corpus (the rest).
// Properties: bad options fail with an Error; ids are in [0, vocab_size); the size respects
// max_size; decode is valid UTF-8 and token_string of every id is too; when nothing was dropped
// (min_count 1, no max_size) and the corpus is valid UTF-8, decode(encode(corpus)) gives back the
// corpus (char, lower-cased if asked) or its tokens joined by single spaces (whitespace, word).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tokenizer/tokenizer.hpp"
#include "tokenizer/vocab.hpp"

using namespace embedlab;

namespace {

std::string join(const std::vector<std::string>& tokens) {
  std::string out;
  for (size_t k = 0; k < tokens.size(); ++k) out += (k ? " " : "") + tokens[k];
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  FuzzedDataProvider in(data, size);
  VocabOptions o;
  o.kind = static_cast<VocabKind>(in.ConsumeIntegralInRange<int>(0, 2));
  o.lowercase = in.ConsumeBool();
  o.min_count = in.ConsumeIntegralInRange<int64_t>(-1, 4);
  o.max_size = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-1, 40) : 0;
  const std::string text = in.ConsumeRandomLengthString(256);
  const std::string corpus = in.ConsumeRemainingBytesAsString();

  fuzz::expect_errors([&] {
    Tokenizer t = Tokenizer::from_corpus(corpus, o);
    const int32_t V = t.vocab_size();
    fuzz::require(V >= Vocab::kNumSpecials, "vocab_size >= 4");
    fuzz::require(o.max_size == 0 || V <= o.max_size, "vocab_size <= max_size");
    for (int32_t id = 0; id < V && id < 64; ++id) {
      fuzz::require(fuzz::valid_utf8(t.token_string(id)), "token_string(id) is valid UTF-8");
    }
    for (const std::string* s : {&text, &corpus}) {
      const std::vector<int32_t> ids = t.encode(*s);
      for (const int32_t id : ids) fuzz::require(id >= 0 && id < V, "encode: ids in [0, vocab_size)");
      const std::string back = t.decode(ids);
      fuzz::require(fuzz::valid_utf8(back), "decode(ids) is valid UTF-8");
      const bool kept_all = o.min_count == 1 && o.max_size == 0;
      if (s == &corpus && kept_all && fuzz::valid_utf8(corpus)) {
        const std::string expected = o.kind == VocabKind::Char
                                         ? (o.lowercase ? lowercase_text(corpus) : corpus)
                                         : join(split_tokens(corpus, o.kind, o.lowercase));
        fuzz::require(back == expected, "decode(encode(corpus)) == the corpus (char) or its tokens joined");
      }
    }
  });
  return 0;
}
