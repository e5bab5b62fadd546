// GPT-2 pre-tokenization: splits text into the pieces that BPE then encodes one by one.
//
// Does: exactly what this regex does (tiktoken's gpt2 pat_str, leftmost-first alternation):
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// hand-implemented on UTF-8 bytes (no std::regex). \p{L}/\p{N} come from the generated Unicode
// tables and \s is the Unicode White_Space property (what the Rust regex crate inside tiktoken uses).
// The tables follow the Unicode version of the Node that ran the build step (17.0 for Node 20.20);
// tiktoken's Rust regex crate may know an older version, so code points assigned since then can differ.
// Does not: BPE, special tokens (gpt2.cpp handles <|endoftext|>), or case-insensitive contractions
// (GPT-2's pattern is case-sensitive: "DON'T" splits as "DON", "'", "T").
//
// subtle: bytes that are not valid UTF-8 cannot occur in tiktoken's input (a JS/Rust string); here
// each such byte is one character of the "other" class [^\s\p{L}\p{N}], so every byte string
// splits into pieces that concatenate back to it.
//
// Worked example: "Hello  world's 42!\n" -> "Hello", " ", " world", "'s", " 42", "!", "\n"
//   (two spaces: \s+(?!\S) takes the first, leaving " world" to ` ?\p{L}+`).
//
// Chunks (gpt2_chunk_cuts): a long text is cut into chunks that can be split and encoded
// independently (on the thread pool, gpt2.cpp) because a cut never changes a piece. The splitter
// only looks forward from where it stands, so a cut at p is safe when the whole text has a piece
// boundary at p whatever came before, and the piece ending at p is found without the bytes after
// it. Both hold when the character before p is a letter, a number or an "other" character, the
// character at p is of another class, and not (the one before is ' and the one at p a letter),
// which a contraction 's 't 're 've 'm 'll 'd could join; both characters must be ASCII or valid
// UTF-8. A cut never follows whitespace: `\s+(?!\S)` and ` ?` look ahead past it.
//   "It's  x" : safe cuts at 2 ("It" | "'s..." : ' after a letter) and 4 ("It's" | "  x");
//               not 3 (' then s: the contraction), 5 or 6 (after whitespace).
//
// Intended usage:
//   Gpt2Splitter split(text);
//   for (std::string_view piece; split.next(piece);) encode(piece);
//   for (size_t cut : gpt2_chunk_cuts(text, 1 << 15)) ...;   // chunk ends, the last is text.size()
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

class Gpt2Splitter {
 public:
  explicit Gpt2Splitter(std::string_view text) : text_(text) {}
  // Sets piece to the next match and returns true; false at the end of the text.
  bool next(std::string_view& piece);

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// All pieces at once (tests, display).
std::vector<std::string> gpt2_split(std::string_view text);

// True when text can be cut at byte p (0 < p < size) without changing any piece: the rule in the
// header above. Depends on the characters around p only.
bool gpt2_safe_cut(std::string_view text, size_t p);

// The ends of the chunks of text: the first safe cut at or after every multiple of min_bytes
// (skipping multiples that an earlier cut passed), then text.size(). Depends on the text and
// min_bytes only, never on a thread count. {} for the empty text; min_bytes >= 1, else Error.
// Worked example: gpt2_chunk_cuts("ab cd ef", 3) -> {5, 8} (3 is after a space: the next safe cut
// is 5, "ab cd" | " ef"; the multiple 6 lies beyond 5 but the text ends first).
std::vector<size_t> gpt2_chunk_cuts(std::string_view text, size_t min_bytes);

}  // namespace embedlab
