#include "maps/tsne/tsne_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "kernels/kernels.hpp"
#include "maps/tsne/tsne.hpp"

namespace embedlab {

std::vector<float> tsne_bench_table(int64_t rows, int64_t dim, int64_t clusters) {
  check_at_least("bench tsne", "rows", rows, 2);
  check_at_least("bench tsne", "dim", dim, 1);
  check_at_least("bench tsne", "clusters", clusters, 1);
  MemoryPlan p("bench tsne");
  const size_t n = p.add("table", {rows, dim}, kFloat32);
  p.add("cluster centres", {clusters, dim}, kFloat32);
  p.check();
  std::vector<float> table(n), centres(static_cast<size_t>(clusters * dim));
  Generator g(0);
  g.normal(centres.data(), centres.size());
  g.normal(table.data(), table.size());
  for (int64_t i = 0; i < rows; ++i) kernels::axpy(static_cast<size_t>(dim), 1.0f, centres.data() + (i % clusters) * dim, table.data() + i * dim);
  return table;
}

double map_label_agreement(std::span<const float> Y, std::span<const int32_t> labels, int64_t k) {
  const int64_t n = static_cast<int64_t>(labels.size());
  if (Y.size() != 2 * labels.size()) fail("map_label_agreement", "map has " + std::to_string(Y.size()) + " values for " + std::to_string(n) + " labels");
  check_at_least("map_label_agreement", "k", k, 1);
  if (k > n - 1) fail("map_label_agreement", "k " + std::to_string(k) + " needs more than " + std::to_string(n) + " points");
  std::vector<std::pair<float, int32_t>> d(plan("map_label_agreement", "distances", n, kInt64));
  int64_t same = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t m = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const float dx = Y[2 * i] - Y[2 * j], dy = Y[2 * i + 1] - Y[2 * j + 1];
      d[m++] = {dx * dx + dy * dy, static_cast<int32_t>(j)};
    }
    std::partial_sort(d.begin(), d.begin() + k, d.begin() + m);
    for (int64_t r = 0; r < k; ++r) same += labels[d[r].second] == labels[i];
  }
  return static_cast<double>(same) / static_cast<double>(n * k);
}

TsneBench bench_tsne(int64_t rows, int64_t dim, int64_t clusters, int64_t iterations, double perplexity, double theta) {
  TsneBench b;
  b.rows = rows, b.dim = dim, b.clusters = clusters, b.iterations = iterations, b.perplexity = perplexity, b.theta = theta;
  const std::vector<float> table = tsne_bench_table(rows, dim, clusters);
  TsneOptions o;
  o.perplexity = perplexity;
  o.iterations = iterations;
  o.theta = theta;
  const std::clock_t c0 = std::clock();
  TsneRun run(table, rows, dim, o);
  run.step(iterations);
#ifndef __EMSCRIPTEN__
  b.cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
#endif
  (void)c0;
  b.exact = run.exact();
  b.learning_rate = run.learning_rate();
  b.neighbours_s = run.neighbours_seconds();
  b.affinities_s = run.affinities_seconds();
  b.layout_s = run.layout_seconds();
  b.total_s = b.neighbours_s + b.affinities_s + b.layout_s;
  b.kl = run.kl();
  std::vector<int32_t> labels(plan("bench tsne", "labels", rows, kInt32));
  for (int64_t i = 0; i < rows; ++i) labels[i] = static_cast<int32_t>(i % clusters);
  b.agreement = map_label_agreement(run.coordinates(), labels, std::min<int64_t>(10, rows - 1));
  return b;
}

std::string to_json(const TsneBench& b) {
  char cpu[32] = "null";
  if (b.cpu_s >= 0) std::snprintf(cpu, sizeof cpu, "%.3f", b.cpu_s);
  char buf[704];
  std::snprintf(buf, sizeof buf,
                "{\"bench\":\"tsne\",\"rows\":%lld,\"dim\":%lld,\"clusters\":%lld,\"iterations\":%lld,\"perplexity\":%g,"
                "\"theta\":%g,\"exact\":%s,\"learning_rate\":%g,\"seconds\":{\"neighbours\":%.3f,\"affinities\":%.3f,"
                "\"layout\":%.3f,\"total\":%.3f},\"cpu_seconds\":%s,\"kl\":%.6f,\"label_agreement_10nn\":%.4f}",
                static_cast<long long>(b.rows), static_cast<long long>(b.dim), static_cast<long long>(b.clusters),
                static_cast<long long>(b.iterations), b.perplexity, b.theta, b.exact ? "true" : "false", b.learning_rate,
                b.neighbours_s, b.affinities_s, b.layout_s, b.total_s, cpu, b.kl, b.agreement);
  return buf;
}

}  // namespace embedlab
