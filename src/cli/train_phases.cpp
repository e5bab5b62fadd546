// The next-token phases of `embedlab train` (train_phases.hpp): fine-tune flags, the stepping
// loop, held-out losses by length.
#include "cli/train_phases.hpp"

#include <algorithm>
#include <climits>
#include <iostream>

#include "cli/json.hpp"
#include "core/error.hpp"

namespace embedlab::cli {

Finetune finetune_flags(Args& a, const NextTokenSettings& s) {
  Finetune f;
  if (!a.has("finetune-context") && !a.has("finetune-steps")) return f;
  if (!a.has("finetune-context")) fail("train", "--finetune-steps needs --finetune-context");
  if (!a.has("finetune-steps")) fail("train", "--finetune-context needs --finetune-steps");
  f.context = a.integer("finetune-context", 0, 1 << 20);
  f.steps = a.integer("finetune-steps", 0, INT32_MAX);
  if (f.context <= s.model.context) {
    fail("train", "--finetune-context " + std::to_string(f.context) + " must be > --context " + std::to_string(s.model.context));
  }
  if (f.steps < 1) fail("train", "--finetune-steps " + std::to_string(f.steps) + " must be >= 1");
  return f;
}

void run_until(NextTokenTrainer& tr, int64_t from, int64_t until, const char* label, Progress& p) {
  const int64_t slice = std::max<int64_t>(1, (until - from) / 10);
  int64_t done = tr.steps_done();
  while (done < until) {
    const TrainStats st = tr.step(std::min(slice, until - done));
    done += st.steps;
    p.tokens += st.tokens;
    p.ms += st.elapsed_ms;
    if (!p.any) p.first = st.loss;
    p.any = true;
    p.last = st.loss;
    std::cerr << label << done << "/" << until << " loss " << st.loss << " "
              << static_cast<int64_t>(st.tokens_per_s) << " tokens/s\n";
  }
}

std::string losses_by_length(NextTokenTrainer& tr, const std::vector<int32_t>& valid, const std::vector<int32_t>& lengths) {
  std::string by_length = "[";
  for (int32_t L : lengths) {
    std::string item = "{\"length\":" + std::to_string(L) + ",\"loss\":";
    try {
      item += json_number(tr.evaluate_at(valid, L).loss) + "}";
    } catch (const Error& e) {
      item += "null,\"error\":" + json_string(e.what()) + "}";
    }
    by_length += (by_length.size() > 1 ? "," : "") + item;
  }
  return by_length + "]";
}

}  // namespace embedlab::cli
