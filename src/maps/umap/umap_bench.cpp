#include "maps/umap/umap_bench.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "kernels/dense.hpp"
#include "maps/knn.hpp"

namespace embedlab {

UmapBenchData umap_bench_data(int64_t rows, int64_t dim, int64_t clusters, uint64_t seed) {
  check_at_least("bench umap", "rows", rows, 3);
  check_at_least("bench umap", "dim", dim, 1);
  if (clusters < 1 || clusters > rows) {
    fail("bench umap", "clusters " + std::to_string(clusters) + " out of range [1, " + std::to_string(rows) + "]");
  }
  MemoryPlan p("bench umap");
  p.add("table", {rows, dim}, kFloat32);
  p.add("centres", {clusters, dim}, kFloat32);
  p.add("labels", {rows}, kInt32);
  p.check();
  UmapBenchData d;
  d.rows = rows, d.dim = dim;
  d.table.resize(static_cast<size_t>(rows * dim));
  d.labels.resize(static_cast<size_t>(rows));
  std::vector<float> centres(static_cast<size_t>(clusters * dim));
  Generator g(seed);
  g.normal(centres.data(), centres.size());
  g.normal(d.table.data(), d.table.size());
  for (int64_t i = 0; i < rows; ++i) {
    const int32_t c = static_cast<int32_t>(g.below(static_cast<uint32_t>(clusters)));
    d.labels[i] = c;
    for (int64_t j = 0; j < dim; ++j) d.table[i * dim + j] += centres[c * dim + j];
  }
  return d;
}

UmapQuality umap_quality(std::span<const float> table, int64_t rows, int64_t dim, std::span<const int32_t> labels,
                         std::span<const float> coords, int64_t sample, Metric metric) {
  constexpr int64_t k = 10;
  if (static_cast<uint64_t>(coords.size()) != static_cast<uint64_t>(rows) * 2) {
    fail("umap quality", "coordinates have " + std::to_string(coords.size()) + " values, expected " +
                             std::to_string(rows) + " x 2");
  }
  if (!labels.empty() && static_cast<int64_t>(labels.size()) != rows) {
    fail("umap quality", "labels have " + std::to_string(labels.size()) + " values, expected " + std::to_string(rows));
  }
  if (rows <= k) fail("umap quality", "needs more than " + std::to_string(k) + " rows, got " + std::to_string(rows));
  sample = std::clamp<int64_t>(sample, 1, rows);
  const KnnRows x(table, rows, dim, metric, "umap quality");
  std::vector<float> queries(plan("umap quality", "sampled rows", {sample, dim}, kFloat32));
  std::vector<int64_t> ids(static_cast<size_t>(sample));
  for (int64_t s = 0; s < sample; ++s) {
    ids[s] = s * rows / sample;
    std::copy_n(table.data() + ids[s] * dim, dim, queries.data() + s * dim);
  }
  // k + 1 nearest, the row itself (distance 0) among them
  const KnnGraph in = knn_query(x, queries, sample, k + 1);
  UmapQuality q;
  q.sample = sample, q.k = k;
  std::vector<std::pair<float, int32_t>> d(static_cast<size_t>(rows));
  double kept = 0, same = 0;
  for (int64_t s = 0; s < sample; ++s) {
    const int64_t i = ids[s];
    const float xi = coords[2 * i], yi = coords[2 * i + 1];
    for (int64_t j = 0; j < rows; ++j) {
      const float dx = coords[2 * j] - xi, dy = coords[2 * j + 1] - yi;
      d[j] = {j == i ? -1.0f : dx * dx + dy * dy, static_cast<int32_t>(j)};
    }
    std::partial_sort(d.begin(), d.begin() + k + 1, d.end());  // (distance, id): a total order
    int64_t hit = 0, lab = 0;
    for (int64_t a = 1; a <= k; ++a) {
      const int32_t m = d[a].second;
      const int32_t* nb = in.ids.data() + s * (k + 1);
      int64_t counted = 0;  // the input neighbours other than the row itself
      for (int64_t b = 0; b <= k && counted < k; ++b) {
        if (nb[b] == i) continue;
        ++counted;
        if (nb[b] == m) ++hit;
      }
      if (!labels.empty() && labels[m] == labels[i]) ++lab;
    }
    kept += static_cast<double>(hit) / k;
    same += static_cast<double>(lab) / k;
  }
  q.neighbours_kept = kept / static_cast<double>(sample);
  q.label_share = labels.empty() ? 0.0 : same / static_cast<double>(sample);
  return q;
}

UmapBench bench_umap(int64_t rows, int64_t dim, int64_t clusters, const UmapOptions& opts, int64_t sample) {
  const UmapBenchData data = umap_bench_data(rows, dim, clusters, 0);
  UmapBench b;
  b.rows = rows, b.dim = dim, b.clusters = clusters, b.opts = opts;
  b.isa = dense::gemm_isa();
  UmapRun run(data.table, rows, dim, opts);
  run.run();
  b.seconds = run.seconds();
  b.info = run.info();
  b.quality = umap_quality(data.table, rows, dim, data.labels, run.coordinates(), sample, opts.metric);
  return b;
}

std::string to_json(const UmapQuality& q) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "{\"sample\":%lld,\"k\":%lld,\"neighbours_kept\":%.4f,\"label_share\":%.4f}",
                static_cast<long long>(q.sample), static_cast<long long>(q.k), q.neighbours_kept, q.label_share);
  return buf;
}

std::string to_json(const UmapBench& b) {
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "{\"bench\":\"umap\",\"rows\":%lld,\"dim\":%lld,\"clusters\":%lld,\"n_neighbors\":%lld,\"n_epochs\":%lld,"
                "\"metric\":\"%s\",\"isa\":\"%s\",\"layout_isa\":\"%s\",\"knn\":\"%s\",\"knn_rounds\":%d,\"knn_distances\":%lld,\"init\":\"%s\","
                "\"components\":%lld,\"edges\":%lld,\"seconds\":{\"knn\":%.3f,\"graph\":%.3f,\"init\":%.3f,\"layout\":%.3f,"
                "\"total\":%.3f},\"quality\":%s}",
                static_cast<long long>(b.rows), static_cast<long long>(b.dim), static_cast<long long>(b.clusters),
                static_cast<long long>(b.opts.n_neighbors), static_cast<long long>(b.info.n_epochs), metric_name(b.opts.metric),
                b.isa.c_str(), umap_layout_isa(), knn_method_name(b.info.knn.method), b.info.knn.rounds,
                static_cast<long long>(b.info.knn.distances), umap_init_name(b.info.init),
                static_cast<long long>(b.info.components), static_cast<long long>(b.info.edges), b.seconds.knn,
                b.seconds.graph, b.seconds.init, b.seconds.layout, b.seconds.total(), to_json(b.quality).c_str());
  return buf;
}

}  // namespace embedlab
