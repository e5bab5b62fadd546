// The resident-table benchmark (issue 10's targets), shared by the CLI (`embedlab bench table`)
// and the wasm module (M.benchTable), so native and wasm figures compare directly:
//   a (rows, dim) table drawn N(0, 1) from seed 0 with a planted low-rank structure (so PCA has
//   real components, as embedding tables do), then
//   - neighbours_ms: median of `reps` top-10 cosine queries (row norms cached after the first);
//   - pca_ms: median of min(reps, 3) PCAs to 3 components (the solver Auto picks: randomized
//     for 50257 x 768);
//   - memcpy_ms: median of `reps` copies of the table (the memory-bandwidth yardstick: a top-10
//     query reads the table once, a copy reads and writes it once);
//   - import_ms: median of min(reps, 3) reads of the table's .npy bytes into an engine table
//     (import_table; the page's File reading and the copy into wasm memory are not included).
#pragma once

#include <cstdint>
#include <string>

namespace embedlab {

struct TableBench {
  int64_t rows = 50257, dim = 768;
  int reps = 7;
  double first_query_ms = 0, neighbours_ms = 0, pca_ms = 0, memcpy_ms = 0, import_ms = 0;
  std::string pca_solver;
};

TableBench bench_table(int64_t rows, int64_t dim, int reps = 7);
std::string to_json(const TableBench& b);

}  // namespace embedlab
