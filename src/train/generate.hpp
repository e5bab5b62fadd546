// Sampling text from a trained next-token model: `embedlab generate`, M.generate and the page's
// "Sample text" box all run generate() below on the same checkpoint bytes, so the same state,
// prompt and seed give the same text everywhere (native and wasm compute the same bits: the
// model's forward is dense::gemm / exp_float, no FMA, and the draws come from core/rng.hpp).
//
// One step (autoregressive, `tokens` times):
//   window = the last min(n, T) ids of the sequence (prompt + what was drawn so far), padded at
//            the end to T (the model's context; causal attention, so the padding changes
//            nothing): every kind sees the positions it was trained on, 0..len-1.
//   z      = NextTokenModel::logits(window, len - 1)                       (V) float32
//   temperature 0: the first row of the largest z (greedy).
//   else:  e_j = exp_float(float((z_j - max z) / temperature))   (in double, then float)
//          the draw of torch.multinomial(e, 1, replacement=True) on the CPU: cumulative sums
//          c_j = e_0 + ... + e_j in float, c /= c_{V-1}, c_{V-1} = 1, u = one double uniform
//          of the Generator seeded with `seed` (torch's mt19937 stream), the first j with
//          c_j >= u (binary search).
// Rows and ids: a model row stands for a token id (train/run_tokens.hpp: the page trains only
// the ids of its text); the prompt's ids are mapped to rows, drawn rows back to ids.
// Output: `ids` are the generated token ids only (not the prompt's), `text` is their text as it
// continues the prompt: decode(prompt ids + ids) after decode(prompt ids), so a word vocabulary
// gives the joining space (" sat on") and prompt + text reads as one passage.
//
// Errors (Error, "generate: ..."):
//   "generate: the prompt is empty; give at least one token"
//   "generate: the prompt \"  \" has no tokens for the whitespace tokenizer; give at least one token"
//   "generate: tokens 5000 out of range [0, 4097)"   "generate: temperature must be finite and >= 0, got -1"
//   "generate: the prompt's token \" z\" (id 1976) does not occur in the training text, so the model has no row for it"
//   "generate: the prompt has text the char vocabulary lacks (it encodes to <unk>, id 1), so the model has no row for it"
//   "generate: this checkpoint holds no tokenizer (saved by an older embedlab); train it again with --save-state"
//   "checkpoint: it holds a word2vec run, not a next-token run"
// Sizes: the model is built only after its tables' lengths in the file match the settings (so
// V x D is bounded by the file), and planned (plan_model); the sequence, window and logits are
// planned (MemoryPlan "generate").
//
// Intended usage:
//   SampleOptions o;  o.tokens = 100;  o.temperature = 0.8;  o.seed = 1;
//   Generated g = generate(checkpoint_bytes, "ROMEO:", o);     // g.text, g.ids
//   SavedModel m = load_saved_model(bytes);                     // or step by step:
//   std::vector<int32_t> rows = sample_rows(*m.model, prompt_rows, o);
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "train/next_token_model.hpp"
#include "train/run_tokens.hpp"

namespace embedlab {

inline constexpr int64_t kMaxSampleTokens = 4096;  // tokens per call

struct SampleOptions {
  int64_t tokens = 100;      // new tokens, [0, kMaxSampleTokens]
  double temperature = 1.0;  // finite, >= 0; 0 = greedy
  uint64_t seed = 1;
};

void validate(const SampleOptions& o);

// prompt (n >= 1) int32 rows in [0, V) -> (o.tokens) int32 rows drawn one after another.
std::vector<int32_t> sample_rows(NextTokenModel& m, std::span<const int32_t> prompt, const SampleOptions& o);

// A next-token checkpoint's model (its tables) and tokenizer, without its training text.
struct SavedModel {
  std::unique_ptr<NextTokenModel> model;
  RunTokens tokens;
  int64_t step = 0;
};
SavedModel load_saved_model(std::span<const uint8_t> checkpoint);

struct Generated {
  std::string text;          // the continuation (see the file comment)
  std::vector<int32_t> ids;  // (tokens) the generated token ids
};
Generated generate(SavedModel& m, std::string_view prompt, const SampleOptions& o);
Generated generate(std::span<const uint8_t> checkpoint, std::string_view prompt, const SampleOptions& o);

}  // namespace embedlab
