#include "bench/bench_table.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "io/formats.hpp"
#include "io/npy.hpp"
#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"

namespace embedlab {

TableBench bench_table(int64_t rows, int64_t dim, int reps) {
  check_at_least("bench table", "rows", rows, 2);
  check_at_least("bench table", "dim", dim, 4);
  check_at_least("bench table", "reps", reps, 1);
  TableBench b;
  b.rows = rows, b.dim = dim, b.reps = reps;
  MemoryPlan p("bench table");
  const size_t n = p.add("table", {rows, dim}, kFloat32);
  p.add("planted directions", {8, dim}, kFloat32);
  p.check();
  std::vector<float> table(n), dirs(static_cast<size_t>(8 * dim)), coef(8);
  Generator g(0);
  g.normal(table.data(), table.size());
  g.normal(dirs.data(), dirs.size());
  for (int64_t i = 0; i < rows; ++i) {  // + sum_a (4 / (a + 1)) c_a dir_a: a decaying spectrum
    g.normal(coef.data(), coef.size());
    for (int64_t a = 0; a < 8; ++a)
      for (int64_t d = 0; d < dim; ++d) table[i * dim + d] += 4.0f / static_cast<float>(a + 1) * coef[a] * dirs[a * dim + d] / 4.0f;
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> ms;
  {  // the memory-bandwidth yardstick: copy the table (reads and writes each byte once)
    std::vector<float> copy(plan("bench table", "table copy", rows * dim, kFloat32));
    for (int r = 0; r < reps; ++r) {
      const double t = now_ms();
      std::memcpy(copy.data(), table.data(), table.size() * sizeof(float));
      ms.push_back(now_ms() - t);
    }
    b.memcpy_ms = median(ms);
  }
  {  // reading a .npy of the table into an engine table (what importing a file costs in the engine)
    const std::string npy = npy_bytes(table, rows, dim);
    ms.clear();
    for (int r = 0; r < std::min(reps, 3); ++r) {
      const double t = now_ms();
      const ImportedTable imported = import_table(npy, "npy");
      ms.push_back(now_ms() - t);
      if (imported.rows != rows) fail("bench table", "import read " + std::to_string(imported.rows) + " rows");
    }
    b.import_ms = median(ms);
  }
  double t0 = now_ms();
  const NeighbourIndex index(table, rows, dim);
  index.nearest(0, 10);
  b.first_query_ms = now_ms() - t0;
  ms.clear();
  for (int r = 0; r < reps; ++r) {
    t0 = now_ms();
    index.nearest(static_cast<int32_t>((r * 7919 + 1) % rows), 10);
    ms.push_back(now_ms() - t0);
  }
  b.neighbours_ms = median(ms);
  PcaOptions o;
  o.k = 3;
  ms.clear();
  for (int r = 0; r < std::min(reps, 3); ++r) {
    t0 = now_ms();
    const PcaResult result = pca(table, rows, dim, o);
    ms.push_back(now_ms() - t0);
    b.pca_solver = pca_solver_name(result.solver);
  }
  b.pca_ms = median(ms);
  return b;
}

std::string to_json(const TableBench& b) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"bench\":\"table\",\"rows\":%lld,\"dim\":%lld,\"reps\":%d,\"first_query_ms\":%.3f,"
                "\"neighbours_ms\":%.3f,\"pca_ms\":%.1f,\"pca_solver\":\"%s\",\"memcpy_ms\":%.3f,\"import_ms\":%.3f}",
                static_cast<long long>(b.rows), static_cast<long long>(b.dim), b.reps, b.first_query_ms, b.neighbours_ms,
                b.pca_ms, b.pca_solver.c_str(), b.memcpy_ms, b.import_ms);
  return buf;
}

}  // namespace embedlab
