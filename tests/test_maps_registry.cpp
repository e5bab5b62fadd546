// The map registry (maps/registry.hpp): every algorithm listed once with well-formed
// parameters; resolve fills defaults and refuses unknown names, values out of range (naming
// the value and the range), fractions for integers and unknown words; an unknown algorithm
// lists the known ones; a MapRun gives the same coordinates as UmapRun, TsneRun and pca() for
// the same values, whatever the prepare budgets; MapInfo writes JSON.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "analysis/pca.hpp"
#include "maps/registry.hpp"
#include "maps/tsne/tsne.hpp"
#include "maps/umap/umap.hpp"

using namespace embedlab;

namespace {

// rows in `clusters` clusters, deterministic (an LCG)
std::vector<float> cluster_table(int64_t rows, int64_t dim, int64_t clusters) {
  uint32_t s = 11;
  auto next = [&] {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<int32_t>(s >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
  };
  std::vector<float> centres(static_cast<size_t>(clusters * dim));
  for (float& c : centres) c = 2 * next();
  std::vector<float> t(static_cast<size_t>(rows * dim));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t d = 0; d < dim; ++d) t[i * dim + d] = centres[(i % clusters) * dim + d] + next();
  }
  return t;
}

bool same_bits(std::span<const float> a, std::span<const float> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// the run prepared in budgets of 0 ms (one slice each), then stepped 7 at a time
std::vector<float> sliced(MapRun& run) {
  while (!run.prepare(0)) {}
  while (!run.done()) run.step(7);
  const std::span<const float> c = run.coordinates();
  return {c.begin(), c.end()};
}

}  // namespace

TEST_CASE("map registry: every algorithm once, parameters well formed", "[maps]") {
  std::set<std::string> names;
  for (const MapAlgorithm* a : map_algorithms()) {
    INFO(a->name);
    CHECK(names.insert(a->name).second);
    CHECK(&find_map_algorithm(a->name) == a);
    CHECK(std::strlen(a->label) > 0);
    CHECK(std::strlen(a->description) > 0);
    CHECK(std::strlen(a->needs.step_name) > 0);
    CHECK(a->components == 2);
    std::set<std::string> params;
    for (const MapParam& p : a->params) {
      INFO(p.name);
      CHECK(params.insert(p.name).second);
      CHECK(std::strlen(p.help) > 0);
      if (p.type == MapParamType::Choice) {
        CHECK(!p.choices.empty());
      } else {
        CHECK(p.min <= p.max);
        if (!p.def_word) CHECK((p.def >= p.min && p.def <= p.max));
        CHECK((!p.def_word || p.word));
      }
    }
    // the defaults resolve and are accepted back
    const MapValues v = a->resolve("test", {});
    CHECK(v.size() == a->params.size());
    CHECK(a->resolve("test", v).size() == v.size());
  }
  CHECK(names == std::set<std::string>{"umap", "tsne", "pca"});
}

TEST_CASE("map registry: names and values refused with the value and the range", "[maps]") {
  REQUIRE_THROWS_WITH(find_map_algorithm("isomap"), "map: unknown algorithm 'isomap', expected umap, tsne, pca");
  const MapAlgorithm& umap = find_map_algorithm("umap");
  const MapAlgorithm& tsne = find_map_algorithm("tsne");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"perplexity", MapValue::of(5)}}),
                      Catch::StartsWith("map: umap has no parameter 'perplexity', expected n_neighbors, min_dist"));
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"min_dist", MapValue::of(-1)}}), "umap: min_dist -1 out of range [0, 1000000]");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"n_neighbors", MapValue::of(1)}}),
                      "umap: n_neighbors 1 out of range [2, 2147483647]");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"n_neighbors", MapValue::of(4.5)}}), "umap: n_neighbors 4.5 must be an integer");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"knn", MapValue::of(std::string("fast"))}}),
                      "umap: knn 'fast' is not one of auto, exact or nn-descent");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"spread", MapValue::of(0)}}), "umap: spread 0 out of range (0, 1000000]");
  REQUIRE_THROWS_WITH(umap.resolve("map", {{"seed", MapValue::of(std::string("auto"))}}),
                      "umap: seed 'auto' must be a number");
  REQUIRE_THROWS_WITH(tsne.resolve("map", {{"learning_rate", MapValue::of(std::string("fast"))}}),
                      "tsne: learning_rate 'fast' must be a number or 'auto'");
  REQUIRE_THROWS_WITH(tsne.resolve("map", {{"theta", MapValue::of(NAN)}}), "tsne: theta nan out of range [0, 1]");
  // words where declared
  CHECK(tsne.resolve("map", {{"learning_rate", MapValue::of(std::string("auto"))}}).at("learning_rate").word == "auto");
  CHECK(umap.resolve("map", {}).at("n_epochs").word == "auto");
  CHECK(umap.resolve("map", {{"n_epochs", MapValue::of(30)}}).at("n_epochs").number == 30);
}

TEST_CASE("map registry: option and flag names", "[maps]") {
  CHECK(map_option_name("n_neighbors") == "nNeighbors");
  CHECK(map_option_name("set_op_mix_ratio") == "setOpMixRatio");
  CHECK(map_option_name("seed") == "seed");
  CHECK(map_flag_name("early_exaggeration") == "--early-exaggeration");
}

TEST_CASE("map registry: a MapRun gives the direct run's bits", "[maps]") {
  const int64_t n = 150, d = 11;
  const std::vector<float> t = cluster_table(n, d, 4);
  SECTION("umap") {
    const MapAlgorithm& a = find_map_algorithm("umap");
    const MapValues v = a.resolve("test", {{"n_neighbors", MapValue::of(9)}, {"n_epochs", MapValue::of(50)},
                                           {"seed", MapValue::of(5)}, {"metric", MapValue::of(std::string("cosine"))}});
    UmapOptions o;
    o.n_neighbors = 9;
    o.n_epochs = 50;
    o.seed = 5;
    o.metric = Metric::Cosine;
    const std::vector<float> direct = umap(t, n, d, o);
    std::unique_ptr<MapRun> run = a.start(t, n, d, v);
    CHECK(std::string(run->phase()) == "knn");
    CHECK(same_bits(sliced(*run), direct));
    CHECK(run->steps() == 50);
    CHECK(run->total() == 50);
    CHECK(run->info().json().find("\"nEpochs\":50") != std::string::npos);
  }
  SECTION("tsne, learning rate auto") {
    const MapAlgorithm& a = find_map_algorithm("tsne");
    const MapValues v = a.resolve("test", {{"perplexity", MapValue::of(12)}, {"iterations", MapValue::of(40)},
                                           {"learning_rate", MapValue::of(std::string("auto"))}, {"seed", MapValue::of(3)}});
    TsneOptions o;
    o.perplexity = 12;
    o.iterations = 40;
    o.learning_rate_auto = true;
    o.seed = 3;
    TsneRun direct(t, n, d, o);
    direct.step(40);
    std::unique_ptr<MapRun> run = a.start(t, n, d, v);
    CHECK(same_bits(sliced(*run), direct.coordinates()));
    CHECK(std::string(run->phase()) == "iteration");
  }
  SECTION("pca, one step") {
    const MapAlgorithm& a = find_map_algorithm("pca");
    PcaOptions o;
    o.k = 2;
    const PcaResult direct = pca(t, n, d, o);
    std::unique_ptr<MapRun> run = a.start(t, n, d, a.resolve("test", {}));
    CHECK(run->total() == 1);
    CHECK(!run->done());
    CHECK(std::string(run->phase()) == "pca");
    CHECK(run->step(3) == 1);
    CHECK(std::string(run->phase()) == "done");
    CHECK(same_bits(run->coordinates(), direct.points));
    REQUIRE_THROWS_WITH(a.start(t, n, d, {}, direct.points), "pca: PCA cannot start from given coordinates");
  }
}

TEST_CASE("MapInfo writes JSON", "[maps]") {
  MapInfo inner;
  inner.number("x", 0.5);
  MapInfo i;
  i.number("n", 3);
  i.number("bad", NAN);
  i.text("note", "a \"b\"\n");
  i.flag("exact", true);
  i.numbers("v", {1, 2.5});
  i.object("in", inner);
  CHECK(i.json() == R"({"n":3,"bad":null,"note":"a \"b\"\u000a","exact":true,"v":[1,2.5],"in":{"x":0.5}})");
}
