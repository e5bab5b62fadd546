// The t-SNE benchmark (issue 12), shared by the CLI (`embedlab bench tsne`) and the wasm module
// (M.benchTsne), so native and wasm figures compare directly:
//   a (rows, dim) table of `clusters` Gaussian clusters drawn from seed 0 (row i belongs to
//   cluster i % clusters; centres N(0, 1) per column, points centre + N(0, 1)), mapped by
//   TsneRun with the given options; reported: the seconds of each phase, the final KL
//   divergence (the Barnes-Hut estimate above 1000 rows) and how well the map keeps the
//   clusters (map_label_agreement with k = 10). cpu_seconds: the process's CPU time for the run
//   (std::clock, native only; the wasm runner measures it with Node's process.cpuUsage), which
//   stays meaningful when other jobs share the cores and stretch the wall-clock seconds.
//
//   tsne_bench_table(rows, dim, clusters) -> (rows, dim) float32 (scripts/peers/sklearn_tsne.py
//   reads the same table from the .npy `embedlab bench tsne --save-table` writes)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

struct TsneBench {
  int64_t rows = 10000, dim = 100, clusters = 10, iterations = 1000;
  double perplexity = 30, theta = 0.5, learning_rate = 0;
  bool exact = false;
  double neighbours_s = 0, affinities_s = 0, layout_s = 0, total_s = 0;
  double kl = 0, agreement = 0;
  double cpu_s = -1;  // < 0: not measured (wasm)
};

std::vector<float> tsne_bench_table(int64_t rows, int64_t dim, int64_t clusters);

// The fraction of (point, neighbour) pairs, over every point's k nearest other points in the map
// Y (n, 2), whose labels agree (exact search, ties to the lower index). Example: two far
// apart pairs labelled {0, 0} and {1, 1}, k = 1 -> 1.0.
double map_label_agreement(std::span<const float> Y, std::span<const int32_t> labels, int64_t k);

TsneBench bench_tsne(int64_t rows, int64_t dim, int64_t clusters, int64_t iterations, double perplexity, double theta);
std::string to_json(const TsneBench& b);

}  // namespace embedlab
