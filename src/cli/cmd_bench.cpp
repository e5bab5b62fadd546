// embedlab bench lookup: JSON figures, each with a reference measured in the same run.
// (bench tokenize is in cmd_tokenize.cpp, bench train in cmd_train.cpp.)
#include <climits>
#include <ostream>

#include "bench/bench.hpp"
#include "bench/bench_table.hpp"
#include "cli/commands.hpp"

namespace embedlab::cli {

namespace {

int cmd_bench_lookup(Args& a, std::ostream& out) {
  const int64_t V = a.integer_or("num-embeddings", 50257, 1, INT32_MAX);
  const int64_t D = a.integer_or("embedding-dim", 768, 1, 65536);
  const int64_t B = a.integer_or("batch", 32, 1, 1 << 20);
  const int64_t T = a.integer_or("context", 256, 1, 1 << 20);
  const int reps = static_cast<int>(a.integer_or("reps", 15, 1, 1000));
  a.finish();
  out << to_json(bench_lookup(V, D, B, T, reps)) << "\n";
  return 0;
}

int cmd_bench_table(Args& a, std::ostream& out) {
  const int64_t rows = a.integer_or("rows", 50257, 2, INT32_MAX);
  const int64_t dim = a.integer_or("dim", 768, 4, 65536);
  const int reps = static_cast<int>(a.integer_or("reps", 7, 1, 1000));
  a.finish();
  out << to_json(bench_table(rows, dim, reps)) << "\n";
  return 0;
}

}  // namespace

const CommandSpec kBenchTable{
    "bench table",
    "Times a top-10 cosine query and PCA to 3 components on a resident (rows, dim) table: JSON figures.",
    {{"rows", "50257", "rows (default GPT-2's vocabulary)"},
     {"dim", "768", "columns (default GPT-2's width)"},
     {"reps", "R", "timed neighbour queries (default 7)"}},
    {},
    cmd_bench_table};

const CommandSpec kBenchLookup{
    "bench lookup",
    "Times lookup + positions + backward of (B, T) ids in a (V, D) table against memcpy: JSON figures.",
    {{"num-embeddings", "V", "rows (default 50257)"},
     {"embedding-dim", "D", "columns (default 768)"},
     {"batch", "B", "sequences (default 32)"},
     {"context", "T", "positions (default 256)"},
     {"reps", "R", "timed repetitions (default 15)"}},
    {},
    cmd_bench_lookup};

}  // namespace embedlab::cli
