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
// Intended usage:
//   Gpt2Splitter split(text);
//   for (std::string_view piece; split.next(piece);) encode(piece);
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

}  // namespace embedlab
