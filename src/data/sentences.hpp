// word2vec's sentences: a text split into lines, each line encoded on its own. The one rule for
// the CLI (train --model skipgram|cbow), the bindings (M.sentences) and the page.
//
// The rule:
//   1. one sentence per line: the text is split at '\n';
//   2. a '\r' ending a line is dropped, so a CRLF file gives the sentences of its LF twin;
//   3. a line that is empty or whitespace only (Python's str.isspace(): unicode::is_python_space,
//      so `not line.strip()` in Python) is skipped;
//   4. a line that encodes to no ids is skipped.
//   Sentences keep their order; ids are never split across sentences.
// Does: split and encode. Does not: build the tokenizer (tokenizer_kinds.hpp), count or drop
// rare words (train/word2vec.hpp applies min_count), or split long lines (gensim cuts sentences
// at 10000 words; these are kept whole).
//
// Shapes: S = sentences, n = ids of all sentences.
//   encode_sentences(tok, text) -> ids (n) int32, starts (S+1) int64: sentence k is
//   ids[starts[k], starts[k+1]), starts[0] = 0, starts[S] = n.
//
// Worked example: text "the cat\r\n\n \t\nthe hat" and the whitespace vocabulary of that text
// ({<pad>, <unk>, <sos>, <eos>, the, cat, hat} = ids 0..6):
//   lines "the cat\r" -> "the cat" -> {4, 5};  "" skipped;  " \t" skipped;  "the hat" -> {4, 6}
//   -> ids {4, 5, 4, 6}, starts {0, 2, 4} (S = 2).
//
// Intended usage:
//   Tokenizer tok = make_tokenizer("whitespace", text, {});
//   Sentences s = encode_sentences(tok, text);
//   Word2Vec w2v(s.ids, s.starts, counts, settings);
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.hpp"

namespace embedlab {

struct Sentences {
  std::vector<int32_t> ids;     // (n) every sentence's ids, concatenated
  std::vector<int64_t> starts;  // (S+1) offsets into ids
  int64_t count() const { return static_cast<int64_t>(starts.size()) - 1; }
};

// Rules 1-3: the lines that may become sentences, as views into text, '\r' already dropped.
// Example: "a\r\n\n  \nb c" -> {"a", "b c"}.
std::vector<std::string_view> sentence_lines(std::string_view text);

// True when line is empty or Python-whitespace only (rule 3). Example: " \t\u3000" -> true.
bool is_blank_line(std::string_view line);

// Rules 1-4: the sentences of text encoded by tok (see the file comment for the shapes).
Sentences encode_sentences(Tokenizer& tok, std::string_view text);

}  // namespace embedlab
