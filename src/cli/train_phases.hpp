// The phases of `embedlab train --model next-token` (cmd_train.cpp): the fine-tune flags, the
// stepping loop with its progress lines, and the held-out losses by length as JSON.
// It does not read FILE, build the trainer or write outputs (cmd_train.cpp does).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "train/next_token.hpp"

namespace embedlab::cli {

// --finetune-context T' --finetune-steps N (both or neither): context 0 when not asked for.
// Throws "train: --finetune-context 16 must be > --context 32", "train: --finetune-steps 0 must
// be >= 1", or names the missing partner flag.
struct Finetune {
  int64_t context = 0, steps = 0;
};
Finetune finetune_flags(Args& a, const NextTokenSettings& s);

// Steps until the run has done `until` steps in all, printing "<label><done>/<until> loss ..."
// on stderr every (until - from) / 10 steps; the totals of those slices go into p.
struct Progress {
  int64_t tokens = 0;
  double ms = 0, first = 0, last = 0;  // first, last: mean losses of the first and last slice (NaN: none)
  bool any = false;
};
void run_until(NextTokenTrainer& tr, int64_t from, int64_t until, const char* label, Progress& p);

// valid (n) int32 ids -> the JSON array [{"length":L,"loss":x}...] of the held-out loss on
// windows of each length; a length the kind cannot reach gets "loss":null and its "error".
std::string losses_by_length(NextTokenTrainer& tr, const std::vector<int32_t>& valid, const std::vector<int32_t>& lengths);

}  // namespace embedlab::cli
