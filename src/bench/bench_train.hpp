// Training benchmarks shared by the CLI (`embedlab bench train ...`) and the wasm module, so
// native and wasm figures come from the same code.
//
//   bench_word2vec(ids, starts, counts, settings): trains all epochs once, reports effective
//     words/s (after min_count and sub-sampling, as gensim counts them) and raw words/s.
//   bench_next_token(V, D, T, B, steps, optimizer): a synthetic stream of uniform random ids
//     (seed 0), one warm-up step, then `steps` timed steps; tokens/s = B*T*steps / time.
//
// Intended usage:
//   NextTokenBench b = bench_next_token(5000, 64, 32, 256, 5, "adam");
//   std::cout << to_json(b);
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "train/word2vec.hpp"

namespace embedlab {

struct Word2VecBench {
  bool sg = true;
  int64_t vocab = 0, effective_words = 0, raw_words = 0, jobs = 0;
  double seconds = 0, effective_words_per_s = 0, raw_words_per_s = 0, final_loss = 0;
};
Word2VecBench bench_word2vec(std::span<const int32_t> ids, std::span<const int64_t> starts,
                             std::span<const int64_t> counts, const Word2VecSettings& s);
std::string to_json(const Word2VecBench& b);

struct NextTokenBench {
  int64_t V = 5000, D = 64, T = 32, B = 256, steps = 5;
  std::string optimizer = "adam", pos = "learned", isa;
  double ms_per_step = 0, tokens_per_s = 0, first_loss = 0, last_loss = 0;
};
NextTokenBench bench_next_token(int64_t V, int64_t D, int64_t T, int64_t B, int64_t steps,
                                const std::string& optimizer, const std::string& pos);
std::string to_json(const NextTokenBench& b);

}  // namespace embedlab
