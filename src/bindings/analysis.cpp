// Bindings for analysis/: PCA, nearest neighbours and analogies. Stateless calls: each takes the
// table (Float32Array, rows * dim) and copies it in. The JS API is api/analysis.post.js.
#include "bindings/common.hpp"

#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace embedlab::bindings {

val pca_result_js(const PcaResult& r) {
  val out = val::object();
  out.set("n", static_cast<double>(r.n));
  out.set("k", static_cast<double>(r.k));
  out.set("dim", static_cast<double>(r.dim));
  out.set("points", copy_out(r.points));
  out.set("components", copy_out(r.components));
  out.set("explained", copy_out(r.explained));
  out.set("variance", copy_out(r.variance));
  out.set("solver", std::string(pca_solver_name(r.solver)));
  return out;
}

val neighbours_js(const Neighbours& n) {
  val out = val::object();
  out.set("ids", copy_out(n.ids));
  out.set("scores", copy_out(n.scores));
  return out;
}

}  // namespace embedlab::bindings

// Stateless calls: each takes the table (Float32Array, rows * dim) and copies it in.

namespace {

// table (V*D), ids (n, or empty: all rows), previous (k*D, or empty)
// -> {n, k, dim, points: Float32Array (n*k), components: Float32Array (k*D),
//     explained: Float64Array (k), variance: Float64Array (k), solver: 'exact' | 'krylov' | 'randomized'}
val pca_js(val table, double rows, double dim, double k, val ids, val previous) {
  return guard("pca", [&] {
    const int64_t r_ = size_arg("pca", "rows", rows, 0), d_ = size_arg("pca", "dim", dim, 0);
    PcaOptions o;
    o.k = int32_arg("pca", "k", k);
    const std::vector<float> t = copy_in<float>("pca", "table", table);
    const std::vector<int32_t> rows_ids = copy_in<int32_t>("pca", "ids", ids);
    const std::vector<float> prev = copy_in<float>("pca", "previous", previous);
    o.ids = rows_ids;  // subtle: spans, so the vectors must outlive the call
    o.previous = prev;
    return pca_result_js(pca(t, r_, d_, o));
  });
}

// id >= 0: the rows nearest row id (itself left out); id = -1: the rows nearest vector (D).
// -> {ids: Int32Array, scores: Float32Array}
val nearest_js(val table, double rows, double dim, double id, val vector, double k, val metric) {
  return guard("nearest", [&] {
    const int64_t r = size_arg("nearest", "rows", rows, 0), d = size_arg("nearest", "dim", dim, 0);
    const int64_t row = int_arg("nearest", "id", id, -1, kInt32Max);
    const int64_t kk = int32_arg("nearest", "k", k);
    const Metric m = parse_metric(name_arg("nearest", "metric", metric));
    const std::vector<float> t = copy_in<float>("nearest", "table", table);
    const NeighbourIndex index(t, r, d);
    if (row >= 0) return neighbours_js(index.nearest(static_cast<int32_t>(row), kk, m));
    return neighbours_js(index.nearest_to(copy_in<float>("nearest", "vector", vector), kk, m));
  });
}

// gensim's most_similar(positive, negative): -> {ids: Int32Array, scores: Float32Array}
val analogy_js(val table, double rows, double dim, val positive, val negative, double k) {
  return guard("analogy", [&] {
    const int64_t r = size_arg("analogy", "rows", rows, 0), d = size_arg("analogy", "dim", dim, 0);
    const int64_t kk = int32_arg("analogy", "k", k);
    const std::vector<float> t = copy_in<float>("analogy", "table", table);
    const NeighbourIndex index(t, r, d);
    return neighbours_js(index.analogy(copy_in<int32_t>("analogy", "positive", positive),
                                       copy_in<int32_t>("analogy", "negative", negative), kk));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(project) {
  using namespace emscripten;
  function("_pca", &pca_js);
  function("_nearest", &nearest_js);
  function("_analogy", &analogy_js);
}
