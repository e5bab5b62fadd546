// Bindings for maps/tsne/tsne.hpp: a stepped t-SNE run. The JS API is maps/tsne/tsne.post.js (M.Tsne,
// M.tsne, M.benchTsne).
//
//   _Tsne: initArray(Float32Array table, rows, dim, opts, prepareNow) | initTable(_Table, opts,
//          prepareNow)   (prepareNow false: TsneRun::start, the construction waits for prepare)
//          prepare(maxMs) -> prepared: slices of the construction until maxMs have passed (at
//          least one), phase() -> 'neighbours' | 'affinities' | 'init' | 'iteration',
//          progress() -> [0, 1],
//          step(n) -> iteration, coordinates() -> Float32Array (rows * 2; empty before init), iteration(),
//          totalIterations(), kl(), info() -> {rows, exact, learningRate, seconds: {neighbours,
//          affinities, layout}}
//   opts (checked by the wrapper for unknown keys): perplexity, iterations, theta, learningRate
//   (number | 'auto'), earlyExaggeration, seed, metric ('euclidean' | 'cosine'), init ('random' |
//   'pca' | Float32Array (rows * 2))
//   _benchTsne(rows, dim, clusters, iterations, perplexity, theta) -> the JSON of `bench tsne` (bytes)
#include "bindings/common.hpp"

#include <memory>

#include "maps/tsne/tsne_bench.hpp"
#include "core/clock.hpp"
#include "io/table.hpp"
#include "maps/tsne/tsne.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// opts -> TsneOptions; init_layout receives a given layout (TsneOptions keeps a span of it).
TsneOptions tsne_options(const char* where, val opts, std::vector<float>& init_layout) {
  const Options o(where, std::move(opts));
  TsneOptions t;
  t.perplexity = o.number("perplexity", t.perplexity);
  t.iterations = o.int32("iterations", static_cast<double>(t.iterations));
  t.theta = o.number("theta", t.theta);
  t.early_exaggeration = o.number("earlyExaggeration", t.early_exaggeration);
  t.seed = o.seed(0);
  t.metric = parse_metric(o.name("metric", "euclidean"));
  const val lr = o.get("learningRate");
  if (lr.isString()) {
    const std::string s = name_arg(where, "learningRate", lr);
    if (s != "auto") fail(where, "learningRate '" + s + "' must be a number or 'auto'");
    t.learning_rate_auto = true;
  } else {
    t.learning_rate = o.number("learningRate", t.learning_rate);
  }
  const val init = o.get("init");
  if (init.isUndefined() || init.isNull() || init.isString()) {
    t.init = parse_tsne_init(o.name("init", "random"));
  } else {
    init_layout = copy_in<float>(where, "init", init);
    t.init = TsneInit::Given;
    t.initial = init_layout;
  }
  return t;
}

class TsneHandle {
 public:
  bool init_array(val table, double rows, double dim, val opts, bool prepare_now) {
    const char* where = "Tsne";
    return guard(where, [&] {
      const int64_t r = size_arg(where, "rows", rows, 0), d = size_arg(where, "dim", dim, 0);
      std::vector<float> layout;
      const TsneOptions o = tsne_options(where, opts, layout);
      const std::vector<float> t = copy_in<float>(where, "table", table);
      run_ = std::make_unique<TsneRun>(prepare_now ? TsneRun(t, r, d, o) : TsneRun::start(t, r, d, o));
      return true;
    });
  }
  // prepare_now: the table is read in place; else start copies it (the table may go meanwhile)
  bool init_table(val handle, val opts, bool prepare_now) {
    const char* where = "Tsne";
    return guard(where, [&] {
      std::vector<float> layout;
      const TsneOptions o = tsne_options(where, opts, layout);  // arguments first, then the table
      const ResidentTable t = resident_table(where, handle);
      run_ = std::make_unique<TsneRun>(prepare_now ? TsneRun(t.data, t.rows, t.dim, o)
                                                   : TsneRun::start(t.data, t.rows, t.dim, o));
      return true;
    });
  }
  bool prepare(double max_ms) {
    const char* where = "Tsne.prepare";
    return guard(where, [&] {
      if (!(max_ms >= 0)) fail(where, "maxMs " + format_number(max_ms) + " must be a number >= 0");
      TsneRun& r = live();
      const double t0 = now_ms();
      while (!r.prepare(1) && now_ms() - t0 < max_ms) {}
      return r.prepared();
    });
  }
  std::string phase() { return guard("Tsne.phase", [&] { return std::string(live().phase()); }); }
  double progress() { return guard("Tsne.progress", [&] { return live().progress(); }); }
  double step(double n) {
    return guard("Tsne.step", [&] {
      return static_cast<double>(live().step(int_arg("Tsne.step", "n", n, 0, kInt32Max)));
    });
  }
  val coordinates() {
    return guard("Tsne.coordinates", [&] { return copy_out(live().coordinates()); });
  }
  double iteration() { return run_ ? static_cast<double>(run_->iteration()) : 0; }
  double total_iterations() { return run_ ? static_cast<double>(run_->total_iterations()) : 0; }
  double kl() {
    return guard("Tsne.kl", [&] { return live().kl(); });
  }
  val info() {
    return guard("Tsne.info", [&] {
      const TsneRun& r = live();
      val seconds = val::object();
      seconds.set("neighbours", r.neighbours_seconds());
      seconds.set("affinities", r.affinities_seconds());
      seconds.set("layout", r.layout_seconds());
      val out = val::object();
      out.set("rows", static_cast<double>(r.rows()));
      out.set("exact", r.exact());
      out.set("learningRate", r.learning_rate());
      out.set("seconds", seconds);
      return out;
    });
  }

 private:
  TsneRun& live() {
    if (!run_) fail("Tsne", "the run was not initialised");
    return *run_;
  }
  std::unique_ptr<TsneRun> run_;
};

val bench_tsne_js(double rows, double dim, double clusters, double iterations, double perplexity, double theta) {
  const char* where = "benchTsne";
  return guard(where, [&] {
    return bytes_out(to_json(bench_tsne(int_arg(where, "rows", rows, 5, kTsneMaxRows), size_arg(where, "dim", dim),
                                        int_arg(where, "clusters", clusters, 1, 1000),
                                        int_arg(where, "iterations", iterations, 1, 100000), perplexity, theta)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tsne) {
  using namespace emscripten;
  class_<TsneHandle>("_Tsne")
      .constructor<>()
      .function("initArray", &TsneHandle::init_array)
      .function("initTable", &TsneHandle::init_table)
      .function("prepare", &TsneHandle::prepare)
      .function("phase", &TsneHandle::phase)
      .function("progress", &TsneHandle::progress)
      .function("step", &TsneHandle::step)
      .function("coordinates", &TsneHandle::coordinates)
      .function("iteration", &TsneHandle::iteration)
      .function("totalIterations", &TsneHandle::total_iterations)
      .function("kl", &TsneHandle::kl)
      .function("info", &TsneHandle::info);
  function("_benchTsne", &bench_tsne_js);
}
