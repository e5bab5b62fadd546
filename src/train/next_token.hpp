// The next-token trainer: a NextTokenModel, an optimizer and a stream of sliding-window
// batches, driven as a stepper (step(n) runs n optimizer updates).
//
// Batches: data/windows.hpp SlidingWindows over the training ids with max_length T,
// stride (default T) and batch_size B, shuffled with the seed, full batches only (unless the
// stream holds less than one); when the batches run out a new epoch reshuffles with seed + epoch. Inputs are ids[s : s+T], targets ids[s+1 : s+T+1].
// A step: forward_backward on one batch, then the optimizer update of every parameter
// (SGD touches only the token rows that appeared: the sparse embedding update).
// Non-finite loss: step(n) throws "train: loss became nan at step 37 with learning rate 10;
// lower the learning rate" and leaves the tables as they were before that step's update.
// Fine-tune (the extrapolation lesson; position interpolation, Chen et al. 2023 sec. 3, is meant
// to be used with one): start_finetune(T') continues the same run at a longer context T' > T.
// The parameters carry over (every kind that extrapolates has parameters of the same shape at
// any context), the optimizer state continues (Adam's m, v and t), and the batch stream
// continues on windows of T' positions: the current epoch's number (its shuffle seed) with
// windows of the new length, from its first batch; stride 0 means T' there. Kinds with a
// table of T rows (learned) are refused, not extended: a PI user expects the trained model
// itself to run longer, and new random rows would be a different model (docs/training.md).
//
// Intended usage:
//   NextTokenSettings s;  s.model.vocab_size = 65;  s.model.pos = "rope";
//   NextTokenTrainer tr(ids, s);
//   TrainStats st = tr.step(100);                      // st.loss, st.tokens_per_s
//   double held_out = tr.evaluate(valid_ids);          // mean loss over whole windows
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "data/windows.hpp"
#include "tokenizer/tokenizer_kinds.hpp"
#include "train/next_token_model.hpp"
#include "train/optimizer.hpp"
#include "train/train_stats.hpp"

namespace embedlab {

struct NextTokenSettings {
  NextTokenConfig model;
  OptimizerSettings optimizer;
  int64_t batch_size = 16;  // B
  int64_t stride = 0;       // 0: the context length (non-overlapping windows)
};

// Throws for the first bad setting (model, optimizer, batch size, stride).
void validate(const NextTokenSettings& s);

// The "settings" record of a next-token checkpoint (name=value lines, train/checkpoint.hpp), and
// the model it describes read back: vocab_size, dim, context, pos with its "<pos>.<name>"
// parameters, scale, tie, seed (the optimizer's lines are not needed to run the model). Throws
// "checkpoint: the settings have no dim" or "checkpoint: setting context=abc is not an integer".
std::string settings_text(const NextTokenSettings& s);
NextTokenConfig model_settings(const std::string& text);

class NextTokenTrainer {
 public:
  // ids (n) int32 in [0, vocab_size): the training stream; needs at least T + 1 ids.
  NextTokenTrainer(std::span<const int32_t> ids, const NextTokenSettings& settings);

  TrainStats step(int64_t n);
  // Fresh tables, optimizer state and batch order (the same run again).
  void reset();
  // Mean loss over the non-overlapping windows of ids (forward only, batches of B) at the
  // current context (T, or T' after start_finetune); needs at least that many ids + 1.
  double evaluate(std::span<const int32_t> ids);
  // Length extrapolation: the same trained model on windows of `length` positions (T, 2T, 4T...;
  // T is the current context):
  // the mean loss over the non-overlapping windows of ids (needs length + 1 ids), and the
  // attention weights (length) of position `at` (default: the last) in the first window, zero
  // past `at`. A kind that cannot run past T (learned: no position rows beyond T) throws
  // "next-token evaluate: learned positions have no rows beyond T = 32 (asked for 64)".
  struct Evaluation {
    double loss = 0;
    int64_t length = 0, at = 0;
    std::vector<float> attention;
  };
  Evaluation evaluate_at(std::span<const int32_t> ids, int64_t length, int64_t at = -1);

  // Checkpoints (train/checkpoint.hpp): every parameter, the optimizer's moments and step
  // count, the batch stream's position (epoch, batch) and the phase: a fine-tuned run also
  // writes finetune.context, finetune.step and finetune.epoch (where the fine-tune began), and
  // load_state puts the trainer in the file's phase. load_state needs a trainer made
  // with the same settings and training ids (else it throws naming the difference) and leaves
  // this one unchanged when it throws; the run then continues as the saved one would have,
  // bit for bit.
  std::vector<uint8_t> save_state();
  void load_state(std::span<const uint8_t> bytes);
  // The run's tokenizer and the token id of each model row (empty: row r is id r), written
  // into every later save_state (train/run_tokens.hpp) so text can be sampled from the file.
  // Throws unless they fit the model's V rows (check_run_tokens).
  void set_tokens(const Tokenizer& tok, std::vector<int32_t> rows);

  // Fine-tune: continue at `context` T' (> the settings' T, at most once per run; reset() undoes
  // it). Throws, leaving the run as it was, for T' <= T ("next-token fine-tune: context 16 must
  // be > the training context 32"), for a kind with a table ("learned positions have no rows
  // beyond T = 32: ..."), a training stream shorter than T' + 1, or buffers over the memory limit.
  void start_finetune(int64_t context);
  // The checks of start_finetune alone (before training, so a refusal costs no steps).
  void check_finetune(int64_t context) const;
  int64_t context() const { return model_.config().context; }  // T, or T' once fine-tuning
  int64_t finetune_context() const { return ft_context_; }     // 0 before start_finetune
  int64_t finetune_step() const { return ft_step_; }           // the step it began at

  const NextTokenSettings& settings() const { return settings_; }  // the training context T
  int64_t steps_done() const { return total_steps_; }
  int64_t epoch() const { return epoch_; }
  NextTokenModel& model() { return model_; }
  const NextTokenModel& model() const { return model_; }

 private:
  void next_batch();
  std::unique_ptr<SlidingWindows> windows_at(int64_t epoch) const;  // of the current context

  NextTokenSettings settings_;
  std::vector<int32_t> ids_;
  NextTokenModel model_;
  Optimizer opt_;
  std::unique_ptr<SlidingWindows> windows_;
  WindowBatch batch_;
  int64_t next_batch_ = 0, epoch_ = 0, total_steps_ = 0;
  int64_t ft_context_ = 0, ft_step_ = 0, ft_epoch_ = 0;  // the fine-tune phase (0: none)
  std::optional<SavedTokenizer> tokens_;  // set_tokens
  std::vector<int32_t> token_rows_;
};

}  // namespace embedlab
