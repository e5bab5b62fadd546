// t-SNE in the map registry (maps/registry.hpp): its parameters as sklearn names them, and
// MapRun over TsneRun. The same values give the same bits as TsneRun itself (and M.Tsne, and
// `embedlab tsne`): this file only translates. It does not check what depends on the table
// (perplexity against the rows): TsneRun does, naming the limit.
#include "maps/registry.hpp"
#include "maps/tsne/tsne.hpp"

namespace embedlab {

namespace {

using P = MapParamType;

TsneOptions tsne_values(const MapValues& v, std::span<const float> init_coords) {
  TsneOptions o;
  o.perplexity = v.at("perplexity").number;
  o.iterations = static_cast<int64_t>(v.at("iterations").number);
  o.theta = v.at("theta").number;
  const MapValue& lr = v.at("learning_rate");
  o.learning_rate_auto = lr.is_word();
  if (!lr.is_word()) o.learning_rate = lr.number;
  o.early_exaggeration = v.at("early_exaggeration").number;
  o.seed = static_cast<uint64_t>(v.at("seed").number);
  o.metric = parse_metric(v.at("metric").word);
  if (!init_coords.empty()) {
    o.init = TsneInit::Given;
    o.initial = init_coords;
  } else {
    o.init = parse_tsne_init(v.at("init").word);
  }
  return o;
}

class TsneMapRun final : public MapRun {
 public:
  TsneMapRun(TsneRun run, int64_t dim) : run_(std::move(run)), dim_(dim) {}
  bool prepare(double budget_ms) override { return prepare_for(budget_ms, [&] { return run_.prepare(1); }); }
  bool prepared() const override { return run_.prepared(); }
  const char* phase() const override { return run_.phase(); }
  double progress() const override { return run_.progress(); }
  int64_t step(int64_t n) override { return run_.step(n); }
  int64_t steps() const override { return run_.iteration(); }
  int64_t total() const override { return run_.total_iterations(); }
  int64_t rows() const override { return run_.rows(); }
  int64_t components() const override { return 2; }
  std::span<const float> coordinates() const override { return run_.coordinates(); }
  // the keys of M.Tsne's info(), and kl once prepared (computed once per iteration, then kept)
  MapInfo info() override {
    MapInfo seconds;
    seconds.number("neighbours", run_.neighbours_seconds());
    seconds.number("affinities", run_.affinities_seconds());
    seconds.number("layout", run_.layout_seconds());
    MapInfo out;
    out.number("rows", static_cast<double>(run_.rows()));
    out.number("dim", static_cast<double>(dim_));
    out.flag("exact", run_.exact());
    out.number("learningRate", run_.learning_rate());
    if (run_.prepared()) out.number("kl", run_.kl());
    out.object("seconds", seconds);
    return out;
  }

 private:
  TsneRun run_;
  int64_t dim_;
};

std::unique_ptr<MapRun> start_tsne(std::span<const float> table, int64_t rows, int64_t dim, const MapValues& v,
                                   std::span<const float> init_coords) {
  return std::make_unique<TsneMapRun>(TsneRun::start(table, rows, dim, tsne_values(v, init_coords)), dim);
}

}  // namespace

const MapAlgorithm& tsne_map() {
  static const MapAlgorithm a{
      "tsne",
      "t-SNE",
      "Barnes-Hut t-SNE (van der Maaten 2014, as sklearn): neighbour affinities matched by gradient descent",
      2,
      {
          {"perplexity", P::Number, 30, 1, 1e6, false, {}, nullptr, false,
           "effective neighbours per row, below (n - 1) / 3"},
          {"iterations", P::Integer, 1000, 1, 1000000000, false, {}, nullptr, false,
           "gradient-descent iterations (the first 250 exaggerated)"},
          {"theta", P::Number, 0.5, 0, 1, false, {}, nullptr, false,
           "Barnes-Hut accuracy in [0, 1]; 0: exact gradients (also at n <= 1000)"},
          {"learning_rate", P::Number, 200, 0, 1e6, true, {}, "auto", false,
           "the step size (auto: max(n / early_exaggeration / 4, 50))"},
          {"early_exaggeration", P::Number, 12, 1, 1e6, false, {}, nullptr, false,
           "P's factor during the first 250 iterations"},
          {"seed", P::Integer, 0, 0, 9007199254740991.0, false, {}, nullptr, false, "the random initial layout"},
          {"metric", P::Choice, 0, 0, 0, false, {"euclidean", "cosine"}, nullptr, false, "the input distance"},
          {"init", P::Choice, 0, 0, 0, false, {"random", "pca"}, nullptr, false,
           "the initial layout (or given coordinates)"},
      },
      MapNeeds{5, true, true, "iteration"},
      start_tsne,
  };
  return a;
}

}  // namespace embedlab
