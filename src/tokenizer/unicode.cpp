#include "tokenizer/unicode.hpp"

#include <algorithm>

#include "core/memory.hpp"

namespace embedlab::generated {
extern const size_t kLetterRangeCount;
extern const size_t kNumberRangeCount;
extern const uint32_t kLetterRanges[];
extern const uint32_t kNumberRanges[];
extern const size_t kCasedRangeCount;
extern const size_t kCaseIgnorableRangeCount;
extern const uint32_t kCasedRanges[];
extern const uint32_t kCaseIgnorableRanges[];
extern const size_t kLowerMapCount;
extern const uint32_t kLowerMap[];  // [from, to1, to2] triples sorted by from; to2 = 0: one code point
}  // namespace embedlab::generated

namespace embedlab::unicode {

namespace {

// Scans one UTF-8 sequence at s[i] by the well-formed byte table (Unicode 15, Table 3-7).
// Returns the number of bytes consumed: the whole sequence when valid (cp set), otherwise the
// length of the maximal subpart (>= 1) and cp = kInvalid.
int scan(std::string_view s, size_t i, uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  int need;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  uint32_t v;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1, v = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2, v = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3, v = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // <= U+10FFFF
  } else {
    cp = kInvalid;
    return 1;
  }
  for (int k = 1; k <= need; ++k) {
    if (i + k >= s.size()) {
      cp = kInvalid;
      return k;
    }
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < lo || b > hi) {
      cp = kInvalid;
      return k;
    }
    lo = 0x80, hi = 0xBF;
    v = (v << 6) | (b & 0x3F);
  }
  cp = v;
  return need + 1;
}

bool in_ranges(const uint32_t* r, size_t count, uint32_t cp) {
  // r holds [first, last] pairs sorted by first: find the last pair with first <= cp.
  size_t lo = 0, hi = count;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (r[2 * mid] <= cp) lo = mid + 1; else hi = mid;
  }
  return lo > 0 && cp <= r[2 * (lo - 1) + 1];
}

}  // namespace

int decode_one(std::string_view s, size_t i, uint32_t& cp) {
  const int n = scan(s, i, cp);
  return cp == kInvalid ? 1 : n;
}

bool is_letter(uint32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  return cp != kInvalid && in_ranges(generated::kLetterRanges, generated::kLetterRangeCount, cp);
}

bool is_number(uint32_t cp) {
  if (cp < 0x80) return cp >= '0' && cp <= '9';
  return cp != kInvalid && in_ranges(generated::kNumberRanges, generated::kNumberRangeCount, cp);
}

bool is_unicode_space(uint32_t cp) {
  if (cp <= 0x20) return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D);
  if (cp < 0x85) return false;
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

bool is_python_space(uint32_t cp) { return (cp >= 0x1C && cp <= 0x1F) || is_unicode_space(cp); }

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Python's str.lower() (Objects/unicodeobject.c, lower_ucs4 + handle_capital_sigma): each code
// point's full lowercase mapping; U+03A3 becomes final sigma U+03C2 when
//   \p{Cased} \p{Case_Ignorable}* U+03A3 !(\p{Case_Ignorable}* \p{Cased})
std::string lowercase(std::string_view text) {
  // A check, not a reservation: a code point lower-cases to at most two, so at most 3 bytes per
  // input byte (2-byte U+0130 -> 3-byte "i\u0307" is 1.5 in practice).
  plan("lowercase", "lower-cased text (at most 3 bytes per byte)", {static_cast<int64_t>(text.size()), 3}, kBytes);
  std::string out;
  out.reserve(text.size());
  const uint32_t* map = generated::kLowerMap;
  const size_t count = generated::kLowerMapCount;
  auto cased = [](uint32_t c) { return c != kInvalid && in_ranges(generated::kCasedRanges, generated::kCasedRangeCount, c); };
  auto ignorable = [](uint32_t c) {
    return c != kInvalid && in_ranges(generated::kCaseIgnorableRanges, generated::kCaseIgnorableRangeCount, c);
  };
  bool after_cased = false;  // the last code point that is not case-ignorable was cased
  for (size_t i = 0; i < text.size();) {
    uint32_t cp;
    const int len = decode_one(text, i, cp);
    if (cp == kInvalid) {
      out += text[i];
    } else if (cp < 0x80) {
      out += static_cast<char>(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
    } else if (cp == 0x3A3) {
      bool final_form = after_cased;
      for (size_t j = i + len; final_form && j < text.size();) {
        uint32_t next;
        j += decode_one(text, j, next);
        if (!ignorable(next)) {
          final_form = !cased(next);
          break;
        }
      }
      append_utf8(out, final_form ? 0x3C2 : 0x3C3);
    } else {
      size_t lo = 0, hi = count;  // binary search for from == cp
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (map[3 * mid] < cp) lo = mid + 1; else hi = mid;
      }
      if (lo < count && map[3 * lo] == cp) {
        append_utf8(out, map[3 * lo + 1]);
        if (map[3 * lo + 2] != 0) append_utf8(out, map[3 * lo + 2]);
      } else {
        out.append(text.substr(i, len));
      }
    }
    if (!ignorable(cp)) after_cased = cased(cp);
    i += len;
  }
  return out;
}

std::string replace_invalid_utf8(std::string_view bytes) {
  // The exact size first (each invalid subpart becomes 3 bytes), planned in 64 bits.
  uint64_t size = 0;
  bool valid = true;
  for (size_t i = 0; i < bytes.size();) {
    uint32_t cp;
    const int n = scan(bytes, i, cp);
    valid = valid && cp != kInvalid;
    size += cp == kInvalid ? 3 : static_cast<uint64_t>(n);
    i += n;
  }
  plan("replace_invalid_utf8", "text", static_cast<int64_t>(size), kBytes);
  if (valid) return std::string(bytes);
  std::string out;
  out.reserve(size);
  for (size_t i = 0; i < bytes.size();) {
    uint32_t cp;
    const int n = scan(bytes, i, cp);
    if (cp == kInvalid) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else {
      out.append(bytes.substr(i, n));
    }
    i += n;
  }
  return out;
}

}  // namespace embedlab::unicode
