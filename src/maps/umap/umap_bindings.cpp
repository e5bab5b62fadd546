// Bindings for maps/umap/umap.hpp: a UMAP run held in the engine and stepped from JS, and the
// UMAP benchmark's data, run and scoring (maps/umap/umap_bench.hpp). The JS API is maps/umap/umap.post.js
// (M.umap, M.Umap, M.benchUmap, M.umapBenchData, M.umapQuality).
//
//   _Umap: init(Float32Array table, rows, dim, opts, Float32Array initCoords, prepareNow) |
//          initTable(_Table, opts, initCoords, prepareNow)   (prepareNow false: UmapRun::start,
//          the construction waits for prepare)
//          prepare(maxMs) -> prepared: slices of the construction until maxMs have passed (at
//          least one), phase() -> 'knn' | 'graph' | 'init' | 'layout', progress() -> [0, 1],
//          step(n) -> epoch, coordinates() -> Float32Array (n * 2; empty before init), epoch(), totalEpochs(),
//          info() -> {a, b, nEpochs, knn, knnRounds, knnDistances, init, initNote, components, edges,
//                     seconds: {knn, graph, init, layout, total}},
//          transform(Float32Array rows (m * dim), m) -> Float32Array (m * 2)
//   opts (checked here; the JS wrapper checks the keys): nNeighbors, minDist, spread, nEpochs
//   (null: the default), metric, seed, init ('spectral' | 'pca' | 'given' with initCoords),
//   learningRate, negativeSampleRate, repulsionStrength, localConnectivity, setOpMixRatio, knn.
// The run keeps its own prepared copy of the rows, so a resident table may be deleted after init.
#include "bindings/common.hpp"

#include <memory>

#include "maps/umap/umap_bench.hpp"
#include "core/clock.hpp"
#include "maps/umap/umap.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

KnnMethod knn_method(const char* where, const std::string& s) {
  if (s == "auto") return KnnMethod::Auto;
  if (s == "exact") return KnnMethod::Exact;
  if (s == "nn-descent") return KnnMethod::Descent;
  fail(where, "knn '" + s + "' is not a method, expected auto, exact or nn-descent");
}

// opts (a plain object) + initCoords (Float32Array, used when init is 'given') -> UmapOptions.
// coords receives the copy that o.init_coords points into.
UmapOptions umap_options(const char* where, val opts, val init_coords, std::vector<float>& coords) {
  const Options o(where, std::move(opts));
  UmapOptions u;
  u.n_neighbors = o.int32("nNeighbors", 15);
  u.min_dist = o.number("minDist", 0.1);
  u.spread = o.number("spread", 1.0);
  u.n_epochs = o.int32("nEpochs", -1);
  u.metric = parse_metric(o.name("metric", "euclidean"));
  u.seed = o.seed(0);
  u.learning_rate = o.number("learningRate", 1.0);
  u.negative_sample_rate = o.int32("negativeSampleRate", 5);
  u.repulsion_strength = o.number("repulsionStrength", 1.0);
  u.local_connectivity = o.number("localConnectivity", 1.0);
  u.set_op_mix_ratio = o.number("setOpMixRatio", 1.0);
  u.knn = knn_method(where, o.name("knn", "auto"));
  const std::string init = o.name("init", "spectral");
  if (init == "given") {
    coords = copy_in<float>(where, "init", init_coords);
    u.init = UmapInit::Given;
    u.init_coords = coords;
  } else {
    u.init = parse_umap_init(init);
  }
  return u;
}

val seconds_js(const UmapSeconds& s) {
  val out = val::object();
  out.set("knn", s.knn);
  out.set("graph", s.graph);
  out.set("init", s.init);
  out.set("layout", s.layout);
  out.set("total", s.total());
  return out;
}

class UmapHandle {
 public:
  bool init(val table, double rows, double dim, val opts, val init_coords, bool prepare_now) {
    const char* where = "Umap";
    return guard(where, [&] {
      const int64_t r = size_arg(where, "rows", rows, 0), d = size_arg(where, "dim", dim, 0);
      std::vector<float> coords;
      const UmapOptions o = umap_options(where, opts, init_coords, coords);
      const std::vector<float> t = copy_in<float>(where, "table", table);
      run_ = std::make_unique<UmapRun>(prepare_now ? UmapRun(t, r, d, o) : UmapRun::start(t, r, d, o));
      dim_ = d;
      return true;
    });
  }
  bool init_table(val handle, val opts, val init_coords, bool prepare_now) {
    const char* where = "Umap";
    return guard(where, [&] {
      std::vector<float> coords;
      const UmapOptions o = umap_options(where, opts, init_coords, coords);
      const ResidentTable t = resident_table(where, handle);
      run_ = std::make_unique<UmapRun>(prepare_now ? UmapRun(t.data, t.rows, t.dim, o)
                                                   : UmapRun::start(t.data, t.rows, t.dim, o));
      dim_ = t.dim;
      return true;
    });
  }
  bool prepare(double max_ms) {
    const char* where = "Umap.prepare";
    return guard(where, [&] {
      if (!(max_ms >= 0)) fail(where, "maxMs " + format_number(max_ms) + " must be a number >= 0");
      UmapRun& r = live(where);
      const double t0 = now_ms();
      while (!r.prepare(1) && now_ms() - t0 < max_ms) {}
      return r.prepared();
    });
  }
  std::string phase() { return guard("Umap.phase", [&] { return std::string(live("Umap.phase").phase()); }); }
  double progress() { return guard("Umap.progress", [&] { return live("Umap.progress").progress(); }); }
  double step(double n) {
    return guard("Umap.step", [&] { return static_cast<double>(live("Umap.step").step(size_arg("Umap.step", "n", n, 0))); });
  }
  val coordinates() {
    return guard("Umap.coordinates", [&] { 
      const std::span<const float> xy = live("Umap.coordinates").coordinates();  // empty before the init
      return copy_out(xy.data(), xy.size());
    });
  }
  double epoch() { return guard("Umap.epoch", [&] { return static_cast<double>(live("Umap.epoch").epoch()); }); }
  double total_epochs() { return guard("Umap.totalEpochs", [&] { return static_cast<double>(live("Umap.totalEpochs").total_epochs()); }); }
  val info() {
    return guard("Umap.info", [&] {
      const UmapInfo& i = live("Umap.info").info();
      val out = val::object();
      out.set("rows", static_cast<double>(run_->rows()));
      out.set("dim", static_cast<double>(dim_));
      out.set("a", i.a);
      out.set("b", i.b);
      out.set("nEpochs", static_cast<double>(i.n_epochs));
      out.set("knn", std::string(knn_method_name(i.knn.method)));
      out.set("knnRounds", i.knn.rounds);
      out.set("knnDistances", static_cast<double>(i.knn.distances));
      out.set("init", std::string(umap_init_name(i.init)));
      out.set("initNote", std::string(i.init_note));
      out.set("components", static_cast<double>(i.components));
      out.set("edges", static_cast<double>(i.edges));
      out.set("seconds", seconds_js(run_->seconds()));
      return out;
    });
  }
  val transform(val rows, double m) {
    const char* where = "Umap.transform";
    return guard(where, [&] {
      const int64_t count = size_arg(where, "m", m, 0);
      const std::vector<float> in = copy_in<float>(where, "rows", rows);  // arguments first, then the run
      return copy_out(live(where).transform(in, count));
    });
  }

 private:
  UmapRun& live(const char* where) {
    if (!run_) fail(where, "this Umap was not created (its constructor failed)");
    return *run_;
  }
  std::unique_ptr<UmapRun> run_;
  int64_t dim_ = 0;
};

// M.umapBenchData: the benchmark's table -> {table: Float32Array (rows * dim), labels: Int32Array}
val bench_data_js(double rows, double dim, double clusters, double seed) {
  const char* where = "umapBenchData";
  return guard(where, [&] {
    const UmapBenchData d = umap_bench_data(size_arg(where, "rows", rows), size_arg(where, "dim", dim),
                                            size_arg(where, "clusters", clusters), seed_arg(where, seed));
    val out = val::object();
    out.set("table", copy_out(d.table));
    out.set("labels", copy_out(d.labels));
    return out;
  });
}

// M.umapQuality: the benchmark's scores of any map -> JSON bytes of bench_umap.hpp's to_json
val quality_js(val table, double rows, double dim, val labels, val coords, double sample, val metric) {
  const char* where = "umapQuality";
  return guard(where, [&] {
    const int64_t r = size_arg(where, "rows", rows), d = size_arg(where, "dim", dim);
    const std::vector<float> t = copy_in<float>(where, "table", table);
    if (static_cast<uint64_t>(t.size()) != static_cast<uint64_t>(r) * static_cast<uint64_t>(d)) {
      fail(where, "table has " + std::to_string(t.size()) + " values, expected " + std::to_string(r) + " x " + std::to_string(d));
    }
    const UmapQuality q = umap_quality(t, r, d, copy_in<int32_t>(where, "labels", labels), copy_in<float>(where, "coords", coords),
                                       size_arg(where, "sample", sample), parse_metric(name_arg(where, "metric", metric)));
    return bytes_out(to_json(q));
  });
}

// M.benchUmap: `embedlab bench umap` in wasm -> its JSON as bytes
val bench_umap_js(double rows, double dim, double clusters, val opts, double sample) {
  const char* where = "benchUmap";
  return guard(where, [&] {
    std::vector<float> coords;
    const UmapOptions o = umap_options(where, opts, val::undefined(), coords);
    return bytes_out(to_json(bench_umap(size_arg(where, "rows", rows), size_arg(where, "dim", dim),
                                        size_arg(where, "clusters", clusters), o, size_arg(where, "sample", sample))));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(umap) {
  using namespace emscripten;
  class_<UmapHandle>("_Umap")
      .constructor<>()
      .function("init", &UmapHandle::init)
      .function("initTable", &UmapHandle::init_table)
      .function("prepare", &UmapHandle::prepare)
      .function("phase", &UmapHandle::phase)
      .function("progress", &UmapHandle::progress)
      .function("step", &UmapHandle::step)
      .function("coordinates", &UmapHandle::coordinates)
      .function("epoch", &UmapHandle::epoch)
      .function("totalEpochs", &UmapHandle::total_epochs)
      .function("info", &UmapHandle::info)
      .function("transform", &UmapHandle::transform);
  function("_umapBenchData", &bench_data_js);
  function("_umapQuality", &quality_js);
  function("_benchUmap", &bench_umap_js);
}
