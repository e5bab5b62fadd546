// The tokenizer kinds and the one factory that builds a Tokenizer from a kind name, used by the
// CLI (--encoding), the bindings (M.Tokenizer.make / gpt2 / fromCorpus / fromBpe) and the page.
//
// Does: name the kinds (a small registry: name, description, which options apply), check that
// the options given apply to the kind, and build the tokenizer.
//   gpt2        GPT-2 byte-level BPE (tiktoken's gpt2 ids); takes no options and no corpus.
//   whitespace  a word vocabulary built from the corpus (Python's str.split()).
//   word        a word vocabulary built from the corpus (\w+|[^\w\s]).
//   char        a character vocabulary built from the corpus.
//               The three vocabulary kinds take lowercase, min_count and max_size (vocab.hpp).
//   bpe         byte-level BPE, either from `merges` (the text of a merge file, bpe.hpp), or
//               trained on the corpus up to `vocab_size` ids (bpe_train.hpp, run to the end);
//               exactly one of the two.
// Does not: read files (the CLI reads a merge file with core/file.hpp and passes its text), or
// keep the corpus.
//
// Errors name the kind and the option:
//   "tokenizer: unknown kind 'bytes', expected gpt2, whitespace, word, char or bpe"
//   "tokenizer: lowercase, min_count and max_size apply to whitespace, word and char, not gpt2"
//   "tokenizer: merges and vocab_size apply to bpe only, not word"
//   "tokenizer: bpe needs merges (a merge file's text) or vocab_size (to train on the corpus)"
//   "tokenizer: bpe takes merges or vocab_size, not both"
// and the engine's own checks follow ("bpe train: vocab_size must be >= 256, got 100").
//
// Intended usage:
//   TokenizerOptions o;  o.lowercase = true;
//   Tokenizer t = make_tokenizer("whitespace", corpus, o);        // a vocabulary of corpus
//   TokenizerOptions b;  b.vocab_size = 300;
//   Tokenizer u = make_tokenizer("bpe", corpus, b);               // up to 44 merges learnt on corpus
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tokenizer/tokenizer.hpp"

namespace embedlab {

struct TokenizerKind {
  const char* name;         // "gpt2" | "whitespace" | "word" | "char" | "bpe"
  const char* description;  // one line, for help texts
  bool vocabulary;          // built from the corpus; takes lowercase, min_count, max_size
};

// The kinds in a fixed order: gpt2, whitespace, word, char, bpe.
std::span<const TokenizerKind> tokenizer_kinds();
// The kind called name, or nullptr.
const TokenizerKind* find_tokenizer_kind(std::string_view name);

struct TokenizerOptions {
  // vocabulary kinds (vocab.hpp VocabOptions)
  bool lowercase = false;
  int64_t min_count = 1;
  int64_t max_size = 0;
  // bpe: exactly one of the two
  std::optional<std::string> merges;    // a merge file's text (BpeTokenizer::save())
  std::optional<int64_t> vocab_size;    // train on the corpus up to this many ids (>= 256)
};

// kind + corpus (the text the vocabulary kinds and trained BPE learn from; ignored otherwise)
// -> a Tokenizer. Throws for an unknown kind or options that do not apply (see the file comment).
Tokenizer make_tokenizer(std::string_view kind, std::string_view corpus, const TokenizerOptions& options);

// A built tokenizer as text and back (a checkpoint's tokenizer record, train/run_tokens.hpp):
//   gpt2        data ""  (the ids are tiktoken's, built in)
//   bpe         data = the merge file (BpeTokenizer::save)
//   whitespace, word, char: data = the vocabulary (Vocab::save: kind, lowercase, tokens in id order)
// load_tokenizer(saved.kind, saved.data) encodes and decodes every text as the saved tokenizer.
// Throws "tokenizer: unknown kind ..." or the format's own message ("vocab load: line 3: ...").
struct SavedTokenizer {
  std::string kind, data;
};
SavedTokenizer save_tokenizer(const Tokenizer& t);
Tokenizer load_tokenizer(std::string_view kind, std::string_view data);

}  // namespace embedlab
