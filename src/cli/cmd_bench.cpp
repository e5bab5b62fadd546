// embedlab bench lookup|...: JSON figures, each with a reference measured in the same run.
#include <iostream>

#include "bench/bench.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"

namespace embedlab::cli {

int cmd_bench(Args& a) {
  const auto& pos = a.positional();
  const std::string what = pos.empty() ? "" : pos[0];
  if (what == "tokenize") return cmd_bench_tokenize(a);
  if (what == "train") return cmd_bench_train(a);
  if (what == "lookup") {
    const int64_t V = a.integer_or("num-embeddings", 50257, 1, INT32_MAX);
    const int64_t D = a.integer_or("embedding-dim", 768, 1, 65536);
    const int64_t B = a.integer_or("batch", 32, 1, 1 << 20);
    const int64_t T = a.integer_or("context", 256, 1, 1 << 20);
    const int reps = static_cast<int>(a.integer_or("reps", 15, 1, 1000));
    a.finish();
    std::cout << to_json(bench_lookup(V, D, B, T, reps)) << "\n";
    return 0;
  }
  fail("bench", "unknown benchmark '" + what + "', expected: lookup");
}

}  // namespace embedlab::cli
