// embedlab umap | bench umap: a UMAP map of a table's rows (maps/umap/umap.hpp).
//
// umap --table T [--n-neighbors 15] [--min-dist 0.1] [--spread 1] [--n-epochs N]
//      [--metric euclidean|cosine] [--seed 0] [--init spectral|pca] [--knn auto|exact|nn-descent] --out coords.npy
//   -> {"n","dim","n_neighbors","min_dist","spread","n_epochs","metric","seed","a","b","knn","knn_rounds",
//       "init","init_note","components","edges","seconds":{"knn","graph","init","layout","total"}}
//   and the (n, 2) float32 map in --out (.npy). The same options and seed give the same bits as M.umap.
// bench umap [--rows 10000] [--dim 768] [--clusters 50] [...the umap options] [--sample 1000]
//   -> the timing and quality JSON of maps/umap/umap_bench.hpp on a synthetic table.
// It does not draw the map or project new rows (the JS API's Umap.transform does).
#include <climits>
#include <ostream>

#include "maps/umap/umap_bench.hpp"
#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"
#include "maps/umap/umap.hpp"

namespace embedlab::cli {

namespace {

KnnMethod parse_knn(const std::string& s) {
  if (s == "auto") return KnnMethod::Auto;
  if (s == "exact") return KnnMethod::Exact;
  if (s == "nn-descent") return KnnMethod::Descent;
  fail("--knn", "unknown method '" + s + "', expected auto, exact or nn-descent");
}

// The options every UMAP command shares; rows bounds --n-neighbors ([2, rows - 1]).
UmapOptions umap_options(Args& a, int64_t rows, Metric fallback_metric) {
  UmapOptions o;
  o.n_neighbors = a.integer_or("n-neighbors", 15, 2, rows - 1 < 2 ? 2 : rows - 1);
  o.spread = a.number_or("spread", 1.0, 1e-6, 1e6);
  o.min_dist = a.number_or("min-dist", 0.1, 0.0, o.spread);
  o.n_epochs = a.integer_or("n-epochs", -1, -1, 100000);
  o.metric = parse_metric(a.text_or("metric", metric_name(fallback_metric)));
  o.seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  const std::string init = a.text_or("init", "spectral");
  if (init != "spectral" && init != "pca") fail("--init", "unknown init '" + init + "', expected spectral or pca");
  o.init = parse_umap_init(init);
  o.knn = parse_knn(a.text_or("knn", "auto"));
  return o;
}

void write_seconds(std::ostream& out, const UmapSeconds& s) {
  out << "\"seconds\":{\"knn\":" << json_number(s.knn) << ",\"graph\":" << json_number(s.graph)
      << ",\"init\":" << json_number(s.init) << ",\"layout\":" << json_number(s.layout)
      << ",\"total\":" << json_number(s.total()) << "}";
}

int cmd_umap(Args& a, std::ostream& out) {
  const ImportedTable t = load_table_arg(a.text("table"));
  const UmapOptions o = umap_options(a, t.rows, Metric::Euclidean);
  const std::string path = a.text("out");
  a.finish();
  check_output_file("--out", path);
  UmapRun run(t.data, t.rows, t.cols, o);
  run.run();
  write_output_file("--out", path, npy_bytes(run.coordinates(), t.rows, 2));
  const UmapInfo& i = run.info();
  out << "{\"n\":" << t.rows << ",\"dim\":" << t.cols << ",\"n_neighbors\":" << o.n_neighbors
      << ",\"min_dist\":" << json_number(o.min_dist) << ",\"spread\":" << json_number(o.spread)
      << ",\"n_epochs\":" << i.n_epochs << ",\"metric\":" << json_string(metric_name(o.metric)) << ",\"seed\":" << o.seed
      << ",\"a\":" << json_number(i.a) << ",\"b\":" << json_number(i.b)
      << ",\"knn\":" << json_string(knn_method_name(i.knn.method)) << ",\"knn_rounds\":" << i.knn.rounds
      << ",\"init\":" << json_string(umap_init_name(i.init)) << ",\"init_note\":" << json_string(i.init_note)
      << ",\"components\":" << i.components << ",\"edges\":" << i.edges << ",";
  write_seconds(out, run.seconds());
  out << "}\n";
  return 0;
}

int cmd_bench_umap(Args& a, std::ostream& out) {
  const int64_t rows = a.integer_or("rows", 10000, 16, INT32_MAX);
  const int64_t dim = a.integer_or("dim", 768, 1, 65536);
  const int64_t clusters = a.integer_or("clusters", 50, 1, rows);
  const int64_t sample = a.integer_or("sample", 1000, 1, rows);
  const UmapOptions o = umap_options(a, rows, Metric::Cosine);
  a.finish();
  out << to_json(bench_umap(rows, dim, clusters, o, sample)) << "\n";
  return 0;
}

#define EMBEDLAB_UMAP_FLAGS                                                                                  \
  {"n-neighbors", "15", "neighbours per row, the row itself included, in [2, n - 1]"},                    \
      {"min-dist", "0.1", "the smallest distance between map points, in [0, spread]"},                     \
      {"spread", "1", "the scale of the map's clusters"},                                                  \
      {"n-epochs", "N", "layout epochs (default 500 for n <= 10000, else 200)"},                           \
      {"seed", "0", "random_state: the same seed gives the same map, bit for bit"},                        \
      {"init", "spectral|pca", "the initial layout (default spectral)"},                                   \
      {"knn", "auto|exact|nn-descent", "the neighbour search (default auto: exact below 4096 rows)"}

}  // namespace

const CommandSpec kUmap{
    "umap",
    "A UMAP map of a table's rows (umap-learn's algorithm): the (n, 2) map in --out, phase timings as JSON.",
    {{"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
     {"out", "coords.npy", "where to write the (n, 2) float32 map", true, 'o'},
     {"metric", "euclidean|cosine", "the input distance (default euclidean, as umap-learn)"},
     EMBEDLAB_UMAP_FLAGS},
    {},
    cmd_umap};

const CommandSpec kBenchUmap{
    "bench umap",
    "Times UMAP of a synthetic table of Gaussian clusters and scores the map: JSON figures.",
    {{"rows", "10000", "rows"},
     {"dim", "768", "columns"},
     {"clusters", "50", "Gaussian clusters"},
     {"sample", "1000", "rows scored for neighbour and label agreement"},
     {"metric", "cosine|euclidean", "the input distance (default cosine)"},
     EMBEDLAB_UMAP_FLAGS},
    {},
    cmd_bench_umap};

// the CLI's list (commands.hpp all_commands): after the built-in commands, in the map registry's order
const CommandRegistration kUmapRegistered(kUmap, 10), kBenchUmapRegistered(kBenchUmap, 11);

}  // namespace embedlab::cli
