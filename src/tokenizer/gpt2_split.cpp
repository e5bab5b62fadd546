#include "tokenizer/gpt2_split.hpp"

#include "core/error.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab {

namespace {

enum Cls : unsigned char { kLetter, kNumber, kSpace, kOther };

struct AsciiTable {
  Cls c[128];
  constexpr AsciiTable() : c() {
    for (int i = 0; i < 128; ++i) {
      const bool letter = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z');
      const bool digit = i >= '0' && i <= '9';
      const bool space = i == ' ' || (i >= 9 && i <= 13);
      c[i] = letter ? kLetter : digit ? kNumber : space ? kSpace : kOther;
    }
  }
};
constexpr AsciiTable kAscii;

// Class of the character at s[i]; len receives its byte length.
inline Cls class_at(std::string_view s, size_t i, int& len) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) {
    len = 1;
    return kAscii.c[b];
  }
  uint32_t cp;
  len = unicode::decode_one(s, i, cp);
  if (cp == unicode::kInvalid) return kOther;
  if (unicode::is_letter(cp)) return kLetter;
  if (unicode::is_number(cp)) return kNumber;
  if (unicode::is_unicode_space(cp)) return kSpace;
  return kOther;
}

// End of the run of characters of class k starting at i.
inline size_t run_end(std::string_view s, size_t i, Cls k) {
  int len;
  while (i < s.size() && class_at(s, i, len) == k) i += len;
  return i;
}

// Length of a contraction ('s 't 're 've 'm 'll 'd) at s[i] == '\'', or 0.
inline size_t contraction(std::string_view s, size_t i) {
  if (i + 1 >= s.size()) return 0;
  const char a = s[i + 1];
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  if (i + 2 >= s.size()) return 0;
  const char b = s[i + 2];
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
  return 0;
}

}  // namespace

bool Gpt2Splitter::next(std::string_view& piece) {
  const std::string_view s = text_;
  const size_t i = pos_;
  if (i >= s.size()) return false;
  size_t end;
  int len0;
  const Cls k0 = class_at(s, i, len0);
  size_t c;
  if (s[i] == '\'' && (c = contraction(s, i)) != 0) {
    end = i + c;                                            // 's|'t|'re|'ve|'m|'ll|'d
  } else if (k0 != kSpace) {
    end = run_end(s, i + len0, k0);                         // \p{L}+ | \p{N}+ | [^\s\p{L}\p{N}]+
  } else {
    int len1 = 0;
    const Cls k1 = (s[i] == ' ' && i + 1 < s.size()) ? class_at(s, i + 1, len1) : kSpace;
    if (k1 != kSpace) {
      end = run_end(s, i + 1 + len1, k1);                   // " ?" + one of the three runs
    } else {
      // \s+(?!\S) | \s+ : the whole run if it reaches the end of the text, else all but the
      // last whitespace character (which then prefixes the next piece), but at least one.
      size_t last = i, j = i + len0;
      int len;
      while (j < s.size() && class_at(s, j, len) == kSpace) last = j, j += len;
      end = (j == s.size() || last == i) ? j : last;
    }
  }
  piece = s.substr(i, end - i);
  pos_ = end;
  return true;
}

bool gpt2_safe_cut(std::string_view s, size_t p) {
  if (p == 0 || p >= s.size()) return false;
  // The character before p: ASCII, or a valid sequence whose lead byte is at most 3 bytes back.
  size_t q = p - 1;
  while (q > 0 && p - q < 4 && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) --q;
  uint32_t cp;
  if (unicode::decode_one(s, q, cp) != static_cast<int>(p - q) || cp == unicode::kInvalid) return false;
  int len;
  const Cls before = class_at(s, q, len);
  const Cls at = class_at(s, p, len);
  if (before == kSpace || at == before) return false;
  return !(s[q] == '\'' && at == kLetter);  // 's 't 're 've 'm 'll 'd
}

std::vector<size_t> gpt2_chunk_cuts(std::string_view text, size_t min_bytes) {
  if (min_bytes < 1) fail("gpt2_chunk_cuts", "min_bytes 0 out of range [1, inf)");
  std::vector<size_t> cuts;
  if (text.empty()) return cuts;
  // Each scan starts past the previous cut, so the whole search reads each byte at most once.
  for (size_t target = min_bytes; target < text.size();) {
    size_t p = target;
    while (p < text.size() && !gpt2_safe_cut(text, p)) ++p;
    if (p >= text.size()) break;
    cuts.push_back(p);
    target = (p / min_bytes + 1) * min_bytes;  // the first multiple after the cut
  }
  cuts.push_back(text.size());
  return cuts;
}

std::vector<std::string> gpt2_split(std::string_view text) {
  std::vector<std::string> out;
  Gpt2Splitter split(text);
  for (std::string_view p; split.next(p);) out.emplace_back(p);
  return out;
}

}  // namespace embedlab
