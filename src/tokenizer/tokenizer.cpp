#include "tokenizer/tokenizer.hpp"

#include "core/error.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab {

Tokenizer Tokenizer::gpt2() {
  Tokenizer t;
  t.gpt2_ = std::make_shared<Gpt2Tokenizer>();
  return t;
}

Tokenizer Tokenizer::from_corpus(std::string_view corpus, const VocabOptions& options) {
  Tokenizer t;
  t.vocab_ = std::make_shared<Vocab>(Vocab::build(corpus, options));
  return t;
}

Tokenizer Tokenizer::from_bpe(BpeTokenizer bpe) {
  Tokenizer t;
  t.bpe_ = std::make_shared<BpeTokenizer>(std::move(bpe));
  return t;
}

Tokenizer Tokenizer::from_vocab(Vocab vocab) {
  Tokenizer t;
  t.vocab_ = std::make_shared<Vocab>(std::move(vocab));
  return t;
}

std::string Tokenizer::kind() const {
  if (gpt2_) return "gpt2";
  if (bpe_) return "bpe";
  return vocab_kind_name(vocab_->options().kind);
}

int32_t Tokenizer::vocab_size() const {
  if (gpt2_) return gpt2_->vocab_size();
  if (bpe_) return bpe_->vocab_size();
  return vocab_->size();
}

std::vector<int32_t> Tokenizer::encode(std::string_view text, bool allow_special) {
  if (gpt2_) return gpt2_->encode(text, allow_special);
  if (bpe_) return bpe_->encode(text);
  return vocab_->encode(text);
}

std::string Tokenizer::decode(std::span<const int32_t> ids) const {
  if (gpt2_) return gpt2_->decode(ids);
  if (bpe_) return bpe_->decode(ids);
  return vocab_->decode(ids);
}

std::string Tokenizer::token_bytes(int32_t id) const {
  if (gpt2_) return std::string(gpt2_->token_bytes(id));
  if (bpe_) return bpe_->token_bytes(id);
  return vocab_->token(id);
}

std::string Tokenizer::token_string(int32_t id) const { return unicode::replace_invalid_utf8(token_bytes(id)); }

}  // namespace embedlab
