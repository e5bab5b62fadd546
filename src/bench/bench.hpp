// Benchmarks that run the same code natively and in wasm (the CLI's `bench` subcommands
// and the wasm module's bench functions call these), so their figures compare directly.
//
// Each benchmark reports the median of `reps` timed repetitions after one warm-up, and
// a memcpy of the same number of output bytes measured in the same run, so the result
// reads as a fraction of this machine's memory bandwidth.
#pragma once

#include <cstdint>
#include <string>

#include "core/clock.hpp"  // now_ms, for the benchmarks

namespace embedlab {

struct LookupBench {
  int64_t V = 50257, D = 768, B = 32, T = 256;
  int reps = 15;
  double median_ms = 0, gb_per_s = 0;            // tok(ids)*sqrt(D) + pos, output bytes / time
  double memcpy_ms = 0, memcpy_gb_per_s = 0;     // memcpy of the same number of bytes
  double backward_ms = 0, backward_gb_per_s = 0; // sparse backward: scatter-add of dout rows
  double ratio_to_memcpy = 0;
  std::string isa;
};

// ids are drawn uniformly from [0, V) with seed 0; positions are sinusoidal (T, D).
LookupBench bench_lookup(int64_t V, int64_t D, int64_t B, int64_t T, int reps = 15);
std::string to_json(const LookupBench& b);

}  // namespace embedlab
