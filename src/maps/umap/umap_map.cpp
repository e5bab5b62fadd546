// UMAP in the map registry (maps/registry.hpp): its parameters as umap-learn names them, and
// MapRun over UmapRun. The same values give the same bits as UmapRun itself (and M.Umap, and
// `embedlab umap`): this file only translates. It does not check what depends on the table
// (n_neighbors against the rows, min_dist against spread): UmapRun does, naming the limit.
#include <cfloat>

#include "core/error.hpp"
#include "maps/registry.hpp"
#include "maps/umap/umap.hpp"

namespace embedlab {

namespace {

using P = MapParamType;

KnnMethod knn_of(const std::string& s) {
  if (s == "exact") return KnnMethod::Exact;
  if (s == "nn-descent") return KnnMethod::Descent;
  return KnnMethod::Auto;
}

UmapOptions umap_values(const MapValues& v, std::span<const float> init_coords) {
  UmapOptions o;
  o.n_neighbors = static_cast<int64_t>(v.at("n_neighbors").number);
  o.min_dist = v.at("min_dist").number;
  o.spread = v.at("spread").number;
  const MapValue& e = v.at("n_epochs");
  o.n_epochs = e.is_word() ? -1 : static_cast<int64_t>(e.number);
  o.metric = parse_metric(v.at("metric").word);
  o.seed = static_cast<uint64_t>(v.at("seed").number);
  o.learning_rate = v.at("learning_rate").number;
  o.negative_sample_rate = static_cast<int64_t>(v.at("negative_sample_rate").number);
  o.repulsion_strength = v.at("repulsion_strength").number;
  o.local_connectivity = v.at("local_connectivity").number;
  o.set_op_mix_ratio = v.at("set_op_mix_ratio").number;
  o.knn = knn_of(v.at("knn").word);
  if (!init_coords.empty()) {
    o.init = UmapInit::Given;
    o.init_coords = init_coords;
  } else {
    o.init = parse_umap_init(v.at("init").word);
  }
  return o;
}

class UmapMapRun final : public MapRun {
 public:
  UmapMapRun(UmapRun run, int64_t dim) : run_(std::move(run)), dim_(dim) {}
  bool prepare(double budget_ms) override { return prepare_for(budget_ms, [&] { return run_.prepare(1); }); }
  bool prepared() const override { return run_.prepared(); }
  const char* phase() const override { return run_.phase(); }
  double progress() const override { return run_.progress(); }
  int64_t step(int64_t n) override { return run_.step(n); }
  int64_t steps() const override { return run_.epoch(); }
  int64_t total() const override { return run_.total_epochs(); }
  int64_t rows() const override { return run_.rows(); }
  int64_t components() const override { return 2; }
  std::span<const float> coordinates() const override { return run_.coordinates(); }
  // the keys of M.Umap's info()
  MapInfo info() override {
    const UmapInfo& i = run_.info();
    const UmapSeconds& s = run_.seconds();
    MapInfo seconds;
    seconds.number("knn", s.knn);
    seconds.number("graph", s.graph);
    seconds.number("init", s.init);
    seconds.number("layout", s.layout);
    seconds.number("total", s.total());
    MapInfo out;
    out.number("rows", static_cast<double>(run_.rows()));
    out.number("dim", static_cast<double>(dim_));
    out.number("a", i.a);
    out.number("b", i.b);
    out.number("nEpochs", static_cast<double>(i.n_epochs));
    out.text("knn", knn_method_name(i.knn.method));
    out.number("knnRounds", static_cast<double>(i.knn.rounds));
    out.number("knnDistances", static_cast<double>(i.knn.distances));
    out.text("init", umap_init_name(i.init));
    out.text("initNote", i.init_note);
    out.number("components", static_cast<double>(i.components));
    out.number("edges", static_cast<double>(i.edges));
    out.object("seconds", seconds);
    return out;
  }

 private:
  UmapRun run_;
  int64_t dim_;
};

std::unique_ptr<MapRun> start_umap(std::span<const float> table, int64_t rows, int64_t dim, const MapValues& v,
                                   std::span<const float> init_coords) {
  return std::make_unique<UmapMapRun>(UmapRun::start(table, rows, dim, umap_values(v, init_coords)), dim);
}

}  // namespace

const MapAlgorithm& umap_map() {
  static const MapAlgorithm a{
      "umap",
      "UMAP",
      "Uniform Manifold Approximation and Projection (umap-learn 0.5): a kNN graph laid out by attraction and "
      "repulsion",
      2,
      {
          {"n_neighbors", P::Integer, 15, 2, 2147483647, false, {}, nullptr, false,
           "neighbours per row, the row itself included, in [2, n - 1]"},
          {"min_dist", P::Number, 0.1, 0, 1e6, false, {}, nullptr, false,
           "the smallest distance between map points, in [0, spread]"},
          {"spread", P::Number, 1, 0, 1e6, true, {}, nullptr, false, "the scale of the map's clusters"},
          {"n_epochs", P::Integer, 0, 0, 100000, false, {}, "auto", true,
           "layout epochs (auto: 500 for n <= 10000, else 200)"},
          {"metric", P::Choice, 0, 0, 0, false, {"euclidean", "cosine"}, nullptr, false, "the input distance"},
          {"seed", P::Integer, 0, 0, 9007199254740991.0, false, {}, nullptr, false,
           "random_state: the same seed gives the same map, bit for bit"},
          {"init", P::Choice, 0, 0, 0, false, {"spectral", "pca"}, nullptr, false,
           "the initial layout (or given coordinates)"},
          {"learning_rate", P::Number, 1, 0, 1e6, true, {}, nullptr, false, "the layout's initial step size"},
          {"negative_sample_rate", P::Integer, 5, 0, 1000, false, {}, nullptr, false,
           "rows pushed away per attraction"},
          {"repulsion_strength", P::Number, 1, 0, 1e6, false, {}, nullptr, false, "gamma, the weight of the pushes"},
          {"local_connectivity", P::Number, 1, 0, 2147483646, false, {}, nullptr, false,
           "neighbours assumed connected, at most n_neighbors - 1"},
          {"set_op_mix_ratio", P::Number, 1, 0, 1, false, {}, nullptr, false,
           "1: fuzzy union of the kNN graph, 0: fuzzy intersection"},
          {"knn", P::Choice, 0, 0, 0, false, {"auto", "exact", "nn-descent"}, nullptr, false,
           "the neighbour search (auto: exact below 4096 rows)"},
      },
      MapNeeds{3, true, true, "epoch"},
      start_umap,
  };
  return a;
}

}  // namespace embedlab
