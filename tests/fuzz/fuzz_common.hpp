// Shared by the libFuzzer targets in this folder (scripts/fuzz builds and runs them).
//
// Each target feeds bytes to one parser or decoder of the engine. embedlab::Error is the expected
// way to refuse an input, so expect_errors() swallows it; any other exception escapes
// LLVMFuzzerTestOneInput, std::terminate aborts, and libFuzzer reports the input as a crash
// (a std::bad_alloc, std::length_error or std::out_of_range is a bug: the engine must say what
// was wrong). ASan and UBSan (cmake/sanitize.cmake) turn memory errors and UB into crashes too,
// and require() turns a broken property (a failed round trip, an id out of range) into one.
//
// Memory: limit_memory() narrows the engine's planner (core/memory.hpp) to 64 MiB, so an input
// that asks for a big buffer is refused with an Error instead of running libFuzzer's RSS limit out.
//
// Intended usage:
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     embedlab::fuzz::limit_memory();
//     const std::string_view text = embedlab::fuzz::as_text(data, size);
//     embedlab::fuzz::expect_errors([&] { ... require(x == y, "decode(encode(text)) == text"); });
//     return 0;
//   }
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab::fuzz {

inline constexpr uint64_t kMemoryLimit = 64ull << 20;  // 64 MiB, total and per buffer

// A target may narrow it further (fuzz_bpe_load: a doubling merges file builds tokens up to the
// limit on every run, and 8 MiB reaches the same refusal path 8 times faster).
inline void limit_memory(uint64_t bytes = kMemoryLimit) {
  static const bool once = [bytes] {
    set_memory_limit_override(MemoryLimits{bytes, bytes});
    return true;
  }();
  (void)once;
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs f; an embedlab::Error is an accepted answer to a bad input, anything else propagates.
template <class F>
void expect_errors(F&& f) {
  try {
    f();
  } catch (const embedlab::Error&) {
  }
}

// A property that must hold for every input: prints it and aborts (a crash for libFuzzer).
inline void require(bool ok, const char* property) {
  if (ok) return;
  std::fprintf(stderr, "fuzz: property broken: %s\n", property);
  std::abort();
}

// True when s is valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF).
inline bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int n = 0;
    uint32_t cp = 0, min = 0;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; min = 0x10000; }
    else return false;
    if (i + static_cast<size_t>(n) >= s.size()) return false;  // ends inside the sequence
    for (int k = 1; k <= n; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = cp << 6 | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

}  // namespace embedlab::fuzz
