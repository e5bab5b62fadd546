// Training examples from a token stream: next-token sliding windows and skip-gram pairs.
//
// Does: the sliding-window dataset of LLMs-from-scratch (ch02, GPTDatasetV1 + create_dataloader_v1):
//   for i in range(0, len(ids) - max_length, stride):
//       input = ids[i : i + max_length];  target = ids[i + 1 : i + max_length + 1]
// grouped into batches of batch_size samples, optionally shuffled (seeded) and with the last,
// short batch dropped (drop_last). Also skip-gram (center, context) pairs within a window.
// Does not: tokenize (tokenizer/), pad, or copy the whole dataset: batches are cut on demand.
//
// Shapes: N = number of samples, B = batch_size, L = max_length.
//   batch(b): inputs (rows, L) int32, targets (rows, L) int32, rows = B except maybe the last batch.
//   samples(first, count, max_ids): inputs (rows, m) int32, targets (rows, m) int32 for the
//     samples first .. first + rows - 1 in batch order, rows = min(count, N - first), m =
//     min(L, max_ids): the first m ids of each window (a viewer shows a few of a long window).
//   input_tokens(): ids in all batches = min(N, num_batches() * B) * L.
//
// Shuffle: a Fisher-Yates shuffle of the sample order, for k = N-1 down to 1 swap(order[k],
// order[Generator(seed).below(k + 1)]). subtle: this is NOT torch.randperm's order (torch's
// DataLoader draws its permutation differently), so shuffled batches match no Python run; with
// shuffle off the batches are exactly the reference's.
//
// Worked example (tests/reference/gpt2_the_verdict.json): the-verdict's 5145 GPT-2 ids, L = 4,
// stride 4, B = 4, drop_last -> N = len(range(0, 5141, 4)) = 1286 samples, 321 batches,
// 321*4*4 = 5136 input tokens; batch 0 inputs {{40,367,2885,1464},{1807,3619,402,271},...};
// samples(1, 1, 2): starts {4}, inputs {{1807,3619}}, targets {{3619,402}}.
//
// Intended usage:
//   WindowOptions o;  o.max_length = 4;  o.stride = 4;  o.batch_size = 4;
//   SlidingWindows ds(ids, o);                    // validates, shuffles the sample order
//   for (int64_t b = 0; b < ds.num_batches(); ++b) { WindowBatch wb = ds.batch(b); ... }
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace embedlab {

// Defaults are create_dataloader_v1's (batch_size 4, max_length 256, stride 128, drop_last true),
// except shuffle: false here (true there), so that the default order is the reference's.
struct WindowOptions {
  int64_t max_length = 256;
  int64_t stride = 128;
  int64_t batch_size = 4;
  bool shuffle = false;
  uint64_t seed = 0;
  bool drop_last = true;
};

// Some samples' windows: a batch (batch()), or any run of samples (samples()).
struct WindowBatch {
  int64_t rows = 0;
  int64_t max_length = 0;        // ids per row: L, or fewer from samples(..., max_ids)
  std::vector<int64_t> starts;   // (rows) start offset in ids of each sample
  std::vector<int32_t> inputs;   // (rows, max_length) ids[s : s + max_length]
  std::vector<int32_t> targets;  // (rows, max_length) ids[s + 1 : s + max_length + 1]
};

// len(range(0, n_tokens - max_length, stride)): the number of samples; 0 when n_tokens <= max_length.
// Throws unless max_length >= 1 and stride >= 1.
int64_t window_count(int64_t n_tokens, int64_t max_length, int64_t stride);

class SlidingWindows {
 public:
  // Throws "windows: max_length must be >= 1, got 0" (likewise stride, batch_size), and for a
  // stream too short for one window: "windows: 4 tokens make no window of max_length 4: need at
  // least 5 tokens (max_length + 1, for the shifted target)".
  SlidingWindows(std::span<const int32_t> ids, const WindowOptions& options);

  int64_t num_samples() const { return static_cast<int64_t>(order_.size()); }
  int64_t num_batches() const;
  // Start offsets of all samples in batch order (after shuffling).
  const std::vector<int64_t>& sample_starts() const { return order_; }
  // Batch b in [0, num_batches()); throws "windows batch: batch index 7 out of range [0, 7)".
  WindowBatch batch(int64_t b) const;
  // Samples first .. first + rows - 1 (batch order), each cut to its first min(L, max_ids) ids;
  // first in [0, N], count >= 0, max_ids >= 1 (see Shapes). A viewer's slice of the dataset.
  WindowBatch samples(int64_t first, int64_t count, int64_t max_ids) const;
  // Samples that are in some batch: N, less the short last batch when drop_last.
  int64_t batched_samples() const;
  // Input ids over all batches: batched_samples() * L (5136 in the worked example).
  int64_t input_tokens() const;
  const WindowOptions& options() const { return opt_; }

 private:
  std::vector<int32_t> ids_;
  WindowOptions opt_;
  std::vector<int64_t> order_;  // sample index -> start offset
};

// Skip-gram pairs (word2vec, Mikolov et al. 2013): for each center position i, every context
// position j with 0 < |j - i| <= window, in order of i then j. ids (n) -> pairs (P) of
// (center id, context id), P = sum_i (#valid j).
// Example: ids {5, 6, 7}, window 1 -> (5,6), (6,5), (6,7), (7,6).
std::vector<std::pair<int32_t, int32_t>> skipgram_pairs(std::span<const int32_t> ids, int64_t window);

}  // namespace embedlab
