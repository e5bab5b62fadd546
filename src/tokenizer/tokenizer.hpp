// One tokenizer interface over the four kinds (GPT-2 BPE, word/char vocabularies, trained BPE),
// for the CLI and the wasm bindings, which choose the kind at run time.
//
// Does: construct by kind, encode text -> ids, decode ids -> text, report vocab_size and each
// token's bytes/display string. Does not: train (bpe_train.hpp) or hold the corpus.
//
// Encoding names (CLI --encoding, JS Tokenizer kinds): "gpt2", "whitespace", "word", "char",
// "bpe" (a trained merge file, bpe.hpp).
//
// Intended usage:
//   Tokenizer t = Tokenizer::gpt2();                          // or from_corpus / from_bpe
//   std::vector<int32_t> ids = t.encode("Hello world");       // {15496, 995}
//   std::string text = t.decode(ids);                         // "Hello world" (valid UTF-8)
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/bpe.hpp"
#include "tokenizer/gpt2.hpp"
#include "tokenizer/vocab.hpp"

namespace embedlab {

class Tokenizer {
 public:
  static Tokenizer gpt2();
  // A word/char vocabulary built from corpus (kind in options).
  static Tokenizer from_corpus(std::string_view corpus, const VocabOptions& options);
  static Tokenizer from_bpe(BpeTokenizer bpe);
  static Tokenizer from_vocab(Vocab vocab);

  // "gpt2" | "whitespace" | "word" | "char" | "bpe"
  std::string kind() const;
  int32_t vocab_size() const;
  // text -> ids (n) int32 in [0, vocab_size()); allow_special only affects gpt2 (<|endoftext|>).
  std::vector<int32_t> encode(std::string_view text, bool allow_special = false);
  // ids -> valid UTF-8 text (invalid byte sequences replaced by U+FFFD); throws on ids out of range.
  std::string decode(std::span<const int32_t> ids) const;
  // The raw bytes of one token (a vocabulary token's text; "<unk>" for specials).
  std::string token_bytes(int32_t id) const;
  // token_bytes made displayable: valid UTF-8 (U+FFFD for partial sequences).
  std::string token_string(int32_t id) const;
  // The word/char vocabulary, or nullptr for the BPE kinds.
  const Vocab* vocab() const { return vocab_.get(); }
  const BpeTokenizer* bpe() const { return bpe_.get(); }

 private:
  std::shared_ptr<Gpt2Tokenizer> gpt2_;
  std::shared_ptr<Vocab> vocab_;
  std::shared_ptr<BpeTokenizer> bpe_;
};

}  // namespace embedlab
