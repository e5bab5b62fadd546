// embedlab tsne | bench tsne: a t-SNE map of a table's rows (maps/tsne/tsne.hpp).
//
// tsne --table T [--perplexity 30] [--iterations 1000] [--seed S] [--theta 0.5] [--metric euclidean|cosine]
//      [--learning-rate 200|auto] [--early-exaggeration 12] [--init random|pca|LAYOUT.npy] --out coords.npy
//   -> {"n","dim","perplexity","iterations","theta","exact","learning_rate","metric","init","seed",
//       "seconds":{"neighbours","affinities","layout","total"},"kl","out"}; the (n, 2) float32 map in --out
// bench tsne [--rows 10000 --dim 100 --clusters 10 --iterations 1000 --perplexity 30 --theta 0.5]
//      [--save-table T.npy]
//   -> the timing JSON of maps/tsne/tsne_bench.hpp; --save-table writes the synthetic table (for peers)
#include <cfloat>
#include <climits>
#include <ostream>

#include "maps/tsne/tsne_bench.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "io/table_files.hpp"
#include "io/npy.hpp"
#include "maps/tsne/tsne.hpp"

namespace embedlab::cli {

namespace {

int cmd_tsne(Args& a, std::ostream& out) {
  const double t0 = now_ms();
  const std::string out_path = a.text("out");
  check_output_file("--out", out_path);
  const ImportedTable t = load_table_arg(a.text("table"));
  TsneOptions o;
  o.perplexity = a.number_or("perplexity", o.perplexity, -DBL_MAX, DBL_MAX);  // TsneRun names the range
  o.iterations = a.integer_or("iterations", o.iterations, INT32_MIN, INT32_MAX);
  o.seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  o.theta = a.number_or("theta", o.theta, -DBL_MAX, DBL_MAX);
  o.early_exaggeration = a.number_or("early-exaggeration", o.early_exaggeration, -DBL_MAX, DBL_MAX);
  o.metric = parse_metric(a.text_or("metric", "euclidean"));
  const std::string lr = a.text_or("learning-rate", "200");
  o.learning_rate_auto = lr == "auto";
  if (!o.learning_rate_auto) o.learning_rate = parse_number("--learning-rate", lr, -DBL_MAX, DBL_MAX);
  const std::string init = a.text_or("init", "random");
  ImportedTable layout;
  if (init == "random" || init == "pca") {
    o.init = parse_tsne_init(init);
  } else {  // a file: the (n, 2) layout to start from
    const TableArg file = split_table_arg(init);
    layout = read_table("--init", file.path, "", file.tensor);
    if (layout.cols != 2 || layout.rows != t.rows) {
      fail("tsne", "--init " + init + " has shape (" + std::to_string(layout.rows) + ", " + std::to_string(layout.cols) +
                       "), expected (" + std::to_string(t.rows) + ", 2)");
    }
    o.init = TsneInit::Given;
    o.initial = layout.data;
  }
  a.finish();
  TsneRun run(t.data, t.rows, t.cols, o);
  run.step(o.iterations);
  const double kl = run.kl();
  write_output_file("--out", out_path, npy_bytes(run.coordinates(), t.rows, 2));
  out << "{\"n\":" << t.rows << ",\"dim\":" << t.cols << ",\"perplexity\":" << json_number(o.perplexity)
      << ",\"iterations\":" << run.iteration() << ",\"theta\":" << json_number(o.theta)
      << ",\"exact\":" << (run.exact() ? "true" : "false") << ",\"learning_rate\":" << json_number(run.learning_rate())
      << ",\"metric\":" << json_string(metric_name(o.metric)) << ",\"init\":" << json_string(init)
      << ",\"seed\":" << o.seed << ",\"seconds\":{\"neighbours\":" << json_number(run.neighbours_seconds())
      << ",\"affinities\":" << json_number(run.affinities_seconds()) << ",\"layout\":" << json_number(run.layout_seconds())
      << ",\"total\":" << json_number((now_ms() - t0) / 1000) << "},\"kl\":" << json_number(kl)
      << ",\"out\":" << json_string(out_path) << "}\n";
  return 0;
}

int cmd_bench_tsne(Args& a, std::ostream& out) {
  const int64_t rows = a.integer_or("rows", 10000, 5, kTsneMaxRows);
  const int64_t dim = a.integer_or("dim", 100, 1, 65536);
  const int64_t clusters = a.integer_or("clusters", 10, 1, 1000);
  const int64_t iterations = a.integer_or("iterations", 1000, 1, 100000);
  const double perplexity = a.number_or("perplexity", 30, 1, 1e6);
  const double theta = a.number_or("theta", 0.5, 0, 1);
  std::string save;
  if (a.has("save-table")) {
    save = a.text("save-table");
    check_output_file("--save-table", save);
  }
  a.finish();
  if (!save.empty()) write_output_file("--save-table", save, npy_bytes(tsne_bench_table(rows, dim, clusters), rows, dim));
  out << to_json(bench_tsne(rows, dim, clusters, iterations, perplexity, theta)) << "\n";
  return 0;
}

}  // namespace

const CommandSpec kTsne{
    "tsne",
    "Barnes-Hut t-SNE of a table's rows to 2-D: the (n, 2) float32 map in --out, JSON {n, dim, seconds, kl, ...}.",
    {{"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
     {"out", "coords.npy", "where to write the (n, 2) float32 map", true},
     {"perplexity", "30", "effective neighbours per row, below (n - 1) / 3"},
     {"iterations", "1000", "gradient-descent iterations (the first 250 exaggerated)"},
     {"seed", "0", "the random initial layout"},
     {"theta", "0.5", "Barnes-Hut accuracy in [0, 1]; 0: exact gradients (also at n <= 1000)"},
     {"metric", "euclidean|cosine", "the input distance (default euclidean)"},
     {"learning-rate", "200|auto", "the step size (auto: max(n / early_exaggeration / 4, 50))"},
     {"early-exaggeration", "12", "P's factor during the first 250 iterations"},
     {"init", "random|pca|LAYOUT.npy", "the initial layout (default random; a file: an (n, 2) table)"}},
    {},
    cmd_tsne};

const CommandSpec kBenchTsne{
    "bench tsne",
    "Times t-SNE of a synthetic table of Gaussian clusters (neighbours, affinities, layout) and reports its KL: JSON.",
    {{"rows", "10000", "rows"},
     {"dim", "100", "columns"},
     {"clusters", "10", "Gaussian clusters (row i in cluster i % clusters)"},
     {"iterations", "1000", "gradient-descent iterations"},
     {"perplexity", "30", "perplexity"},
     {"theta", "0.5", "Barnes-Hut accuracy"},
     {"save-table", "T.npy", "also write the synthetic table (for the scikit-learn peer)"}},
    {},
    cmd_bench_tsne};

// the CLI's list (commands.hpp all_commands): after the built-in commands, in the map registry's order
const CommandRegistration kTsneRegistered(kTsne, 20), kBenchTsneRegistered(kBenchTsne, 21);

}  // namespace embedlab::cli
