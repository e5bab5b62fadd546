// What every trainer's step(n) returns, and the shared guard against a diverging loss.
//
// Both trainers (word2vec.hpp, next_token.hpp) are steppers: step(n) runs n steps and
// returns a TrainStats for that slice, so a caller (the CLI, the web worker) can train
// in slices, report progress, pause and resume without blocking. One "step" is one
// optimizer update for the next-token model and one gensim job (up to batch_words raw
// words, default 10000) for word2vec.
//
// Intended usage:
//   TrainStats s = trainer.step(10);
//   printf("loss %.4f at %.0f tokens/s\n", s.loss, s.tokens_per_s);
#pragma once

#include <cstdint>
#include <string>

namespace embedlab {

struct TrainStats {
  double loss = 0;              // mean loss over the steps of this call (NaN if none ran)
  double last_loss = 0;         // loss of the last step of this call
  int64_t steps = 0;            // steps run by this call
  int64_t total_steps = 0;      // steps run since construction or reset
  int64_t tokens = 0;           // tokens trained on by this call (word2vec: effective words)
  int64_t raw_tokens = 0;       // word2vec: raw words read, before min_count and sub-sampling
  double elapsed_ms = 0;        // wall time of this call
  double tokens_per_s = 0;      // tokens / elapsed
  double raw_tokens_per_s = 0;  // raw_tokens / elapsed
  double learning_rate = 0;     // learning rate used by the last step
  bool finished = false;        // word2vec: all epochs done (further steps do nothing)
};

// Throws "train: loss became nan at step 37 with learning rate 10; lower the learning rate"
// (or "inf"): the stop rule for a non-finite loss. step counts from 1.
[[noreturn]] void fail_non_finite(double loss, int64_t step, double learning_rate);

// The learning rate formatted as the messages print it (up to 6 significant digits).
std::string format_rate(double lr);

}  // namespace embedlab
