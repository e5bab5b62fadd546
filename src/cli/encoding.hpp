// The CLI's --encoding flag: its value names a tokenizer kind (tokenizer/tokenizer_kinds.hpp),
// and "bpe:<file>" a merge file to read. Shared by tokenize, decode, windows, bench tokenize,
// train and bench train, so every command builds its tokenizer the same way, through the
// engine's make_tokenizer.
//
//   parse_encoding("word")            -> {name "word", kind "word"}
//   parse_encoding("bpe:merges.txt")  -> {name "bpe:merges.txt", kind "bpe", bpe_file "merges.txt"}
//   parse_encoding("bytes")           -> "--encoding: unknown encoding 'bytes', expected gpt2,
//                                         whitespace, word, char or bpe:<file>"
// It does not read flags (the commands do, and put --lowercase, --min-count and --max-size into
// options) and does not check the options against the kind (make_tokenizer does).
//
// Intended usage:
//   Encoding e = parse_encoding(a.text("encoding"));
//   if (e.vocabulary()) e.options.lowercase = a.flag("lowercase");
//   Tokenizer tok = encoding_tokenizer(e, text);     // reads bpe:<file> with core/file.hpp
#pragma once

#include <string>
#include <string_view>

#include "tokenizer/tokenizer_kinds.hpp"

namespace embedlab::cli {

struct Encoding {
  std::string name;      // the flag's value
  std::string kind;      // a tokenizer kind name
  std::string bpe_file;  // bpe:<file>: the merge file, else empty
  TokenizerOptions options;
  // A vocabulary kind (whitespace, word, char): built from the corpus FILE.
  bool vocabulary() const;
};

Encoding parse_encoding(const std::string& value);

// The tokenizer of e; corpus is the text the vocabulary kinds are built from.
Tokenizer encoding_tokenizer(const Encoding& e, std::string_view corpus);

}  // namespace embedlab::cli
