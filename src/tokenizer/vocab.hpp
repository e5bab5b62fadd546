// Word and character vocabularies built from a corpus (the seed notebooks' create_vocab, made
// deterministic), with the splitters that feed them.
//
// Does: split text into tokens, count them, assign ids, encode text -> ids and decode ids -> text.
//   Splitters (VocabKind):
//     whitespace  exactly Python's str.split(): runs of whitespace separate tokens, no empty
//                 tokens. Whitespace = Python's str.isspace() set: \t \n \v \f \r, U+001C-001F,
//                 space, U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000
//                 (checked against Python 3.11 over all code points).
//     word        re.findall(r"\w+|[^\w\s]", text): runs of word characters, and every other
//                 non-space character alone ("don't!" -> "don", "'", "t", "!"). Word characters =
//                 \p{L} | \p{N} | '_' (checked: exactly Python 3.11's re \w over all code points; Python
//                 3.11 knows Unicode 14, the generated tables the Unicode version of the building Node).
//     char        one token per Unicode code point (UTF-8), whitespace included.
//   Bytes that are not valid UTF-8 are single-byte "other" characters in every splitter.
//   lowercase: Python's str.lower() (unicode.hpp: full Unicode mapping and final sigma).
// Ids: <pad>=0, <unk>=1, <sos>=2, <eos>=3, then tokens with count >= min_count by descending
//   count, ties by first occurrence in the corpus; max_size (> 0) caps the total size, specials
//   included. Unknown tokens encode to <unk>.
// Does not: subword splitting (gpt2.hpp, bpe_train.hpp), or keep the original spacing for the
//   whitespace/word kinds (decode joins their tokens with single spaces; char decodes exactly).
//
// Worked example: build("the cat the hat", whitespace) -> {<pad>,<unk>,<sos>,<eos>,"the","cat","hat"},
//   counts {0,0,0,0,2,1,1}; encode("the dog") -> {4, 1}; decode({4, 5}) -> "the cat".
//
// Intended usage:
//   VocabOptions o;  o.kind = VocabKind::Word;  o.lowercase = true;  o.min_count = 2;
//   Vocab v = Vocab::build(corpus, o);
//   std::vector<int32_t> ids = v.encode(corpus);   // (n) int32 in [0, v.size())
//   std::span<const int64_t> c = v.counts();       // (V) corpus count per id, 0 for specials
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace embedlab {

enum class VocabKind { Whitespace, Word, Char };

// "whitespace" | "word" | "char"; throws "vocab: unknown kind 'x', expected whitespace, word or char".
VocabKind parse_vocab_kind(std::string_view name);
const char* vocab_kind_name(VocabKind kind);

struct VocabOptions {
  VocabKind kind = VocabKind::Whitespace;
  bool lowercase = false;
  int64_t min_count = 1;  // >= 1
  int64_t max_size = 0;   // 0: no limit; otherwise >= 4 (the specials)
};

// text -> tokens by the splitter of `kind` (with optional lower-casing).
// Example: split_tokens(" a  b\tc\n", Whitespace) -> {"a", "b", "c"}.
std::vector<std::string> split_tokens(std::string_view text, VocabKind kind, bool lowercase = false);

// Python's str.lower() (unicode::lowercase); bytes that are not UTF-8 pass through.
std::string lowercase_text(std::string_view text);

class Vocab {
 public:
  static constexpr int32_t kPad = 0, kUnk = 1, kSos = 2, kEos = 3, kNumSpecials = 4;

  static Vocab build(std::string_view corpus, const VocabOptions& options);

  int32_t size() const { return static_cast<int32_t>(tokens_.size()); }
  const VocabOptions& options() const { return opt_; }
  // The id of a token (already split/lower-cased), or kUnk.
  int32_t id(std::string_view token) const;
  // The token of an id; throws "vocab: token id 9 out of range [0, 9)".
  const std::string& token(int32_t id) const;
  // Corpus count per id (V), 0 for the specials.
  std::span<const int64_t> counts() const { return counts_; }
  // Tokens in the corpus before min_count/max_size (= sum of all counts when nothing is dropped).
  int64_t corpus_tokens() const { return corpus_tokens_; }

  // text -> ids (n) int32: split with this vocabulary's options, unknown tokens -> kUnk.
  std::vector<int32_t> encode(std::string_view text) const;
  // ids -> text: char vocabularies concatenate (invalid UTF-8 replaced by U+FFFD), the others
  // join with single spaces; specials appear as their names ("<unk>").
  std::string decode(std::span<const int32_t> ids) const;

  // The vocabulary as text (a checkpoint's tokenizer record, train/run_tokens.hpp), and back:
  //   "embedlab vocab 1 char lowercase=0\n" then one token per line in id order, specials
  //   included, with \\ \n \r \t escaped (the Projector metadata escapes).
  // load(save()) encodes and decodes every text as the original; counts are not kept (all 0).
  // load throws "vocab load: line 7: ..." naming the line and the problem.
  std::string save() const;
  static Vocab load(std::string_view text);

 private:
  VocabOptions opt_;
  std::vector<std::string> tokens_;                // id -> token
  std::vector<int64_t> counts_;                    // id -> corpus count
  std::unordered_map<std::string, int32_t> ids_;  // token -> id
  int64_t corpus_tokens_ = 0;
};

}  // namespace embedlab
