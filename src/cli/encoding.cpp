#include "cli/encoding.hpp"

#include "core/error.hpp"
#include "core/file.hpp"

namespace embedlab::cli {

bool Encoding::vocabulary() const {
  const TokenizerKind* k = find_tokenizer_kind(kind);
  return k && k->vocabulary;
}

Encoding parse_encoding(const std::string& value) {
  Encoding e;
  e.name = value;
  if (value.rfind("bpe:", 0) == 0) {
    e.kind = "bpe";
    e.bpe_file = value.substr(4);
    if (e.bpe_file.empty()) fail("--encoding", "bpe: needs a merge file, as in bpe:merges.txt");
    return e;
  }
  if (value == "bpe" || !find_tokenizer_kind(value)) {
    fail("--encoding", "unknown encoding '" + value + "', expected gpt2, whitespace, word, char or bpe:<file>");
  }
  e.kind = value;
  return e;
}

Tokenizer encoding_tokenizer(const Encoding& e, std::string_view corpus) {
  TokenizerOptions o = e.options;
  if (!e.bpe_file.empty()) o.merges = read_file("--encoding", e.bpe_file);
  return make_tokenizer(e.kind, corpus, o);
}

}  // namespace embedlab::cli
