// The UMAP benchmark, shared by the CLI (`embedlab bench umap`) and the wasm module
// (M.benchUmap, M.umapBenchData, M.umapQuality), so native, wasm and the peers in
// scripts/bench-umap.mjs run on the same table and are scored by the same code:
//   umap_bench_data: a (rows, dim) table of `clusters` Gaussian clusters drawn from seed:
//     centres N(0, 1) per coordinate, each row its cluster's centre plus N(0, 1) noise, the
//     cluster of each row drawn uniformly (labels (rows) int32).
//   umap_quality: for `sample` rows spread evenly over the table, (1) neighbours_kept: the share
//     of each row's 10 nearest rows in the table (exact, by the metric) that are among its 10
//     nearest points in the map (euclidean), (2) label_share: the share of its 10 nearest map
//     points with its label. Both averaged over the sample.
//   bench_umap: the data, then UmapRun (seconds per phase) and the quality of the map.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "maps/umap/umap.hpp"

namespace embedlab {

struct UmapBenchData {
  int64_t rows = 0, dim = 0;
  std::vector<float> table;     // (rows, dim)
  std::vector<int32_t> labels;  // (rows) cluster of each row
};
UmapBenchData umap_bench_data(int64_t rows, int64_t dim, int64_t clusters, uint64_t seed);

struct UmapQuality {
  int64_t sample = 0, k = 10;
  double neighbours_kept = 0, label_share = 0;
};
// coords (rows, 2); labels (rows) or empty (label_share 0).
UmapQuality umap_quality(std::span<const float> table, int64_t rows, int64_t dim, std::span<const int32_t> labels,
                         std::span<const float> coords, int64_t sample, Metric metric);

struct UmapBench {
  int64_t rows = 0, dim = 0, clusters = 0;
  UmapOptions opts;
  UmapSeconds seconds;
  UmapInfo info;
  UmapQuality quality;
  std::string isa;
};
UmapBench bench_umap(int64_t rows, int64_t dim, int64_t clusters, const UmapOptions& opts, int64_t sample);
std::string to_json(const UmapBench& b);
std::string to_json(const UmapQuality& q);

}  // namespace embedlab
