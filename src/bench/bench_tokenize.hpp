// Tokenizer throughput, shared by `embedlab bench tokenize` and the wasm module, so native and
// wasm figures come from the same code.
//
// Does: times encode() of a whole text, each repetition with a FRESH tokenizer (so GPT-2's piece
// cache starts empty, as in a one-shot tiktoken encode call), after one untimed warm-up; reports
// the median and MB/s (10^6 bytes per second), plus the construction time measured separately.
// Does not: time decode, or compare with tiktoken (scripts/bench-tokenize.mjs does that in Node).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tokenizer/tokenizer.hpp"

namespace embedlab {

struct TokenizeBench {
  std::string encoding;
  int64_t bytes = 0, tokens = 0;
  int reps = 0;
  double construct_ms = 0;   // median time of make()
  double median_ms = 0;      // median encode time, fresh tokenizer each rep
  double mb_per_s = 0;       // bytes / median_ms / 1000
  double warm_ms = 0;        // median encode time re-using one tokenizer (cache filled)
  double warm_mb_per_s = 0;
};

TokenizeBench bench_tokenize(std::string_view text, const std::function<Tokenizer()>& make, int reps = 7);
std::string to_json(const TokenizeBench& b);

}  // namespace embedlab
