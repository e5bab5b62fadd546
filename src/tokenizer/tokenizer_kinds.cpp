#include "tokenizer/tokenizer_kinds.hpp"

#include <array>

#include "core/error.hpp"
#include "tokenizer/bpe_train.hpp"

namespace embedlab {

namespace {

constexpr std::array<TokenizerKind, 5> kKinds{{
    {"gpt2", "GPT-2 byte-level BPE, the ids of tiktoken's gpt2 encoding (50257)", false},
    {"whitespace", "words split as Python's str.split(), a vocabulary of the corpus", true},
    {"word", "words and punctuation (\\w+|[^\\w\\s]), a vocabulary of the corpus", true},
    {"char", "one token per character, a vocabulary of the corpus", true},
    {"bpe", "byte-level BPE from a merge file, or trained on the corpus to a vocabulary size", false},
}};

std::string kind_list() {
  std::string s;
  for (size_t k = 0; k < kKinds.size(); ++k) {
    s += k == 0 ? "" : k + 1 == kKinds.size() ? " or " : ", ";
    s += kKinds[k].name;
  }
  return s;
}

}  // namespace

std::span<const TokenizerKind> tokenizer_kinds() { return kKinds; }

const TokenizerKind* find_tokenizer_kind(std::string_view name) {
  for (const TokenizerKind& k : kKinds) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

Tokenizer make_tokenizer(std::string_view kind, std::string_view corpus, const TokenizerOptions& options) {
  const TokenizerKind* k = find_tokenizer_kind(kind);
  if (!k) fail("tokenizer", "unknown kind '" + std::string(kind) + "', expected " + kind_list());
  const std::string name = k->name;
  const bool vocab_options = options.lowercase || options.min_count != 1 || options.max_size != 0;
  if (vocab_options && !k->vocabulary) {
    fail("tokenizer", "lowercase, min_count and max_size apply to whitespace, word and char, not " + name);
  }
  const bool bpe_options = options.merges.has_value() || options.vocab_size.has_value();
  if (bpe_options && name != "bpe") fail("tokenizer", "merges and vocab_size apply to bpe only, not " + name);

  if (name == "gpt2") return Tokenizer::gpt2();
  if (name == "bpe") {
    if (options.merges && options.vocab_size) fail("tokenizer", "bpe takes merges or vocab_size, not both");
    if (options.merges) return Tokenizer::from_bpe(BpeTokenizer::load(*options.merges));
    if (!options.vocab_size) {
      fail("tokenizer", "bpe needs merges (a merge file's text) or vocab_size (to train on the corpus)");
    }
    BpeTrainer trainer(corpus, *options.vocab_size);
    trainer.train();
    return Tokenizer::from_bpe(trainer.tokenizer());
  }
  VocabOptions v;
  v.kind = parse_vocab_kind(name);
  v.lowercase = options.lowercase;
  v.min_count = options.min_count;
  v.max_size = options.max_size;
  return Tokenizer::from_corpus(corpus, v);
}

SavedTokenizer save_tokenizer(const Tokenizer& t) {
  if (t.bpe()) return {"bpe", t.bpe()->save()};
  if (t.vocab()) return {t.kind(), t.vocab()->save()};
  return {"gpt2", ""};
}

Tokenizer load_tokenizer(std::string_view kind, std::string_view data) {
  const TokenizerKind* k = find_tokenizer_kind(kind);
  if (!k) fail("tokenizer", "unknown kind '" + std::string(kind) + "', expected " + kind_list());
  if (std::string_view(k->name) == "gpt2") {
    if (!data.empty()) fail("tokenizer", "a saved gpt2 tokenizer holds no data, got " + std::to_string(data.size()) + " bytes");
    return Tokenizer::gpt2();
  }
  if (std::string_view(k->name) == "bpe") return Tokenizer::from_bpe(BpeTokenizer::load(data));
  Vocab v = Vocab::load(data);
  if (vocab_kind_name(v.options().kind) != kind) {
    fail("tokenizer", "a saved " + std::string(kind) + " tokenizer holds a " + vocab_kind_name(v.options().kind) + " vocabulary");
  }
  return Tokenizer::from_vocab(std::move(v));
}

}  // namespace embedlab
