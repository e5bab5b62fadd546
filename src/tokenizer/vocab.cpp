#include "tokenizer/vocab.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab {

namespace {

// Calls fn(std::string_view token) for each token of text (already lower-cased if wanted).
template <class F>
void for_each_token(std::string_view s, VocabKind kind, F&& fn) {
  const size_t n = s.size();
  size_t i = 0;
  auto at = [&](size_t k, uint32_t& cp) { return unicode::decode_one(s, k, cp); };
  auto is_word = [](uint32_t cp) {
    return cp != unicode::kInvalid && (cp == '_' || unicode::is_letter(cp) || unicode::is_number(cp));
  };
  while (i < n) {
    uint32_t cp;
    const int len = at(i, cp);
    if (kind == VocabKind::Char) {
      fn(s.substr(i, len));
      i += len;
      continue;
    }
    const bool space = cp != unicode::kInvalid && unicode::is_python_space(cp);
    if (space) {
      i += len;
      continue;
    }
    size_t j = i + len;
    if (kind == VocabKind::Whitespace) {
      while (j < n) {
        const int l = at(j, cp);
        if (cp != unicode::kInvalid && unicode::is_python_space(cp)) break;
        j += l;
      }
    } else if (is_word(cp)) {  // \w+
      while (j < n) {
        const int l = at(j, cp);
        if (!is_word(cp)) break;
        j += l;
      }
    }  // else [^\w\s]: this one character
    fn(s.substr(i, j - i));
    i = j;
  }
}

}  // namespace

VocabKind parse_vocab_kind(std::string_view name) {
  if (name == "whitespace") return VocabKind::Whitespace;
  if (name == "word") return VocabKind::Word;
  if (name == "char") return VocabKind::Char;
  fail("vocab", "unknown kind '" + std::string(name) + "', expected whitespace, word or char");
}

const char* vocab_kind_name(VocabKind kind) {
  switch (kind) {
    case VocabKind::Whitespace: return "whitespace";
    case VocabKind::Word: return "word";
    case VocabKind::Char: return "char";
  }
  return "?";
}

std::string lowercase_text(std::string_view text) { return unicode::lowercase(text); }

std::vector<std::string> split_tokens(std::string_view text, VocabKind kind, bool lowercase) {
  const std::string lowered = lowercase ? lowercase_text(text) : std::string();
  std::vector<std::string> out;
  for_each_token(lowercase ? std::string_view(lowered) : text, kind, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

Vocab Vocab::build(std::string_view corpus, const VocabOptions& options) {
  check_at_least("vocab", "min_count", options.min_count, 1);
  if (options.max_size != 0) check_at_least("vocab", "max_size", options.max_size, kNumSpecials);
  Vocab v;
  v.opt_ = options;
  const std::string lowered = options.lowercase ? lowercase_text(corpus) : std::string();
  const std::string_view text = options.lowercase ? std::string_view(lowered) : corpus;

  // token -> index into `seen` (first-occurrence order); counts alongside.
  std::unordered_map<std::string_view, size_t> index;
  std::vector<std::string_view> seen;
  std::vector<int64_t> count;
  for_each_token(text, options.kind, [&](std::string_view t) {
    auto [it, fresh] = index.try_emplace(t, seen.size());
    if (fresh) {
      // The distinct tokens grow with the text: plan the next doubling before it happens.
      if (seen.size() >= 1024 && (seen.size() & (seen.size() - 1)) == 0) {
        plan("vocab", "distinct tokens (about 96 bytes each)", {2 * static_cast<int64_t>(seen.size()), 96}, kBytes);
      }
      seen.push_back(t);
      count.push_back(0);
    }
    ++count[it->second];
    ++v.corpus_tokens_;
  });
  std::vector<size_t> order;
  for (size_t k = 0; k < seen.size(); ++k)
    if (count[k] >= options.min_count) order.push_back(k);
  // Descending count; stable_sort keeps first-occurrence order among equal counts.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return count[a] > count[b]; });
  size_t keep = order.size();
  if (options.max_size > 0) keep = std::min<size_t>(keep, static_cast<size_t>(options.max_size - kNumSpecials));
  if (keep + kNumSpecials > static_cast<size_t>(INT32_MAX)) {
    fail("vocab", std::to_string(keep + kNumSpecials) + " tokens do not fit in int32 ids; set max_size");
  }
  v.tokens_ = {"<pad>", "<unk>", "<sos>", "<eos>"};
  v.counts_.assign(kNumSpecials, 0);
  v.tokens_.reserve(keep + kNumSpecials);
  v.counts_.reserve(keep + kNumSpecials);
  for (size_t r = 0; r < keep; ++r) {
    v.tokens_.emplace_back(seen[order[r]]);
    v.counts_.push_back(count[order[r]]);
  }
  v.ids_.reserve(v.tokens_.size());
  // subtle: a corpus token spelled like a special ("<unk>") gets its own row, but id() and encode()
  // map that spelling to the special's id (lower ids win).
  for (int32_t id = static_cast<int32_t>(v.tokens_.size()) - 1; id >= 0; --id) v.ids_[v.tokens_[id]] = id;
  return v;
}

namespace {

constexpr std::string_view kVocabMagic = "embedlab vocab 1 ";

void escape_into(std::string& out, std::string_view token) {
  for (const char c : token) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out += c;
  }
}

[[noreturn]] void load_fail(size_t line, const std::string& what) {
  fail("vocab load", "line " + std::to_string(line) + ": " + what);
}

}  // namespace

std::string Vocab::save() const {
  std::string out(kVocabMagic);
  out += vocab_kind_name(opt_.kind);
  out += opt_.lowercase ? " lowercase=1\n" : " lowercase=0\n";
  for (const std::string& t : tokens_) {
    escape_into(out, t);
    out += '\n';
  }
  return out;
}

Vocab Vocab::load(std::string_view text) {
  const size_t head_end = text.find('\n');
  if (head_end == std::string_view::npos || text.substr(0, kVocabMagic.size()) != kVocabMagic) {
    load_fail(1, "not an embedlab vocabulary (it does not start with \"embedlab vocab 1\")");
  }
  const std::string_view head = text.substr(kVocabMagic.size(), head_end - kVocabMagic.size());
  const size_t sp = head.find(' ');
  const std::string_view flag = sp == std::string_view::npos ? std::string_view() : head.substr(sp + 1);
  if (flag != "lowercase=0" && flag != "lowercase=1") {
    load_fail(1, "expected \"<kind> lowercase=0\" or \"<kind> lowercase=1\", got \"" + std::string(head) + "\"");
  }
  Vocab v;
  v.opt_.kind = parse_vocab_kind(head.substr(0, sp));
  v.opt_.lowercase = flag == "lowercase=1";
  // one token per line: their count planned (as build() plans its distinct tokens) before any is kept
  const int64_t lines = std::count(text.begin() + static_cast<std::ptrdiff_t>(head_end + 1), text.end(), '\n');
  plan("vocab load", "tokens (about 96 bytes each)", {lines, 96}, kBytes);
  v.tokens_.reserve(static_cast<size_t>(lines));
  size_t at = head_end + 1, line = 1;
  while (at < text.size()) {
    ++line;
    const size_t end = text.find('\n', at);
    if (end == std::string_view::npos) load_fail(line, "the last token has no line end");
    std::string token;
    for (size_t k = at; k < end; ++k) {
      if (text[k] != '\\') {
        token += text[k];
        continue;
      }
      const char e = k + 1 < end ? text[++k] : '\0';
      if (e == '\\') token += '\\';
      else if (e == 'n') token += '\n';
      else if (e == 'r') token += '\r';
      else if (e == 't') token += '\t';
      else load_fail(line, "unknown escape (expected \\\\, \\n, \\r or \\t)");
    }
    if (token.empty()) load_fail(line, "an empty token");
    if (v.tokens_.size() >= static_cast<size_t>(INT32_MAX)) load_fail(line, "more tokens than int32 ids");
    v.tokens_.push_back(std::move(token));
    at = end + 1;
  }
  static const char* const kSpecials[kNumSpecials] = {"<pad>", "<unk>", "<sos>", "<eos>"};
  for (int32_t k = 0; k < kNumSpecials; ++k) {
    if (static_cast<int32_t>(v.tokens_.size()) <= k || v.tokens_[k] != kSpecials[k]) {
      load_fail(static_cast<size_t>(k) + 2, std::string("expected the special ") + kSpecials[k]);
    }
  }
  v.counts_.assign(v.tokens_.size(), 0);
  v.ids_.reserve(v.tokens_.size());
  // lower ids win, as in build()
  for (int32_t id = static_cast<int32_t>(v.tokens_.size()) - 1; id >= 0; --id) v.ids_[v.tokens_[id]] = id;
  return v;
}

int32_t Vocab::id(std::string_view token) const {
  auto it = ids_.find(std::string(token));
  return it == ids_.end() ? kUnk : it->second;
}

const std::string& Vocab::token(int32_t id) const {
  check_index("vocab", "token id", id, 0, size());
  return tokens_[id];
}

std::vector<int32_t> Vocab::encode(std::string_view text) const {
  // A check, not a reservation: every token covers at least one byte of the text.
  plan("encode", "ids (at most one per byte)", static_cast<int64_t>(text.size()), kInt32);
  const std::string lowered = opt_.lowercase ? lowercase_text(text) : std::string();
  std::vector<int32_t> out;
  std::string key;
  for_each_token(opt_.lowercase ? std::string_view(lowered) : text, opt_.kind, [&](std::string_view t) {
    key.assign(t);
    auto it = ids_.find(key);
    out.push_back(it == ids_.end() ? kUnk : it->second);
  });
  return out;
}

std::string Vocab::decode(std::span<const int32_t> ids) const {
  // The exact output size first (tokens and separators, summed in 64 bits), planned.
  uint64_t total = 0;
  for (size_t k = 0; k < ids.size(); ++k) {
    check_index("decode", "token id", ids[k], 0, size());
    total += tokens_[ids[k]].size() + (k > 0 && opt_.kind != VocabKind::Char ? 1 : 0);
  }
  std::string out;
  out.reserve(plan("decode", "text", static_cast<int64_t>(total), kBytes));
  for (size_t k = 0; k < ids.size(); ++k) {
    if (k > 0 && opt_.kind != VocabKind::Char) out += ' ';
    out += tokens_[ids[k]];
  }
  return unicode::replace_invalid_utf8(out);
}

}  // namespace embedlab
