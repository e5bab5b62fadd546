// The map registry: every algorithm that lays a table's rows out in 2-D, listed once
// (registry.cpp), each adapted in its own folder (maps/umap/, maps/tsne/, maps/pca/). The
// bindings (`M.mapAlgorithms()`, `M.MapRun`), and through them the page, iterate over this list.
//
// An algorithm declares its name, label, a one-line description, its parameters (name, type,
// default, range or choices, help, and a word such as "auto" that stands for a computed value),
// what it needs (MapNeeds), and a factory that starts a run. Every run has the same lifecycle
// (MapRun): start (checks, memory plan and a copy of the rows: cheap), prepare in slices with a
// phase and a progress, step(n) to the step reached of total(), coordinates (rows, components),
// info() as a JSON object, and stop (the destructor).
//
// Shapes: table (rows, dim) float32 row-major; coordinates (rows, components) float32;
// init_coords (rows, components) when the algorithm can start from given coordinates.
//
// Intended usage:
//   const MapAlgorithm& a = find_map_algorithm("umap");          // fails listing the known names
//   MapValues v = a.resolve("map", {{"n_neighbors", MapValue::of(10)}});  // defaults filled, ranges checked
//   std::unique_ptr<MapRun> run = a.start(table, rows, dim, v, {});
//   while (!run->prepare(35)) show(run->phase(), run->progress());
//   while (!run->done()) { run->step(10); draw(run->coordinates()); }
//
// To add an algorithm: a folder maps/<name>/ with a file that defines
// `const MapAlgorithm& <name>_map()`, one line in registry.cpp, its tests and its docs.
//
// It does not: parse JS or CLI arguments (the bindings and the CLI do, from these declarations),
// or know any algorithm's options beyond its MapParam list.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace embedlab {

enum class MapParamType { Number, Integer, Choice };
// "number" | "integer" | "choice"
const char* map_param_type_name(MapParamType t);

// One parameter. Its JS option is the camelCase of name (n_neighbors -> nNeighbors), its CLI flag
// --<name with '_' as '-'> (--n-neighbors).
struct MapParam {
  const char* name;  // snake_case
  MapParamType type;
  double def = 0;              // Number / Integer (unused when def_word is set)
  double min = 0, max = 0;     // the accepted range, inclusive (min_exclusive: min itself refused)
  bool min_exclusive = false;
  std::vector<std::string> choices;  // Choice: the accepted words, the first the default
  const char* word = nullptr;        // Number / Integer: a word also accepted ("auto"), or nullptr
  bool def_word = false;             // the default is `word` (umap n_epochs "auto")
  const char* help = "";             // one line
};

// A parameter's value: a number, or a word (a choice, or MapParam::word).
struct MapValue {
  double number = 0;
  std::string word;  // non-empty: this value is a word
  static MapValue of(double v) { return MapValue{v, {}}; }
  static MapValue of(std::string w) { return MapValue{0, std::move(w)}; }
  bool is_word() const { return !word.empty(); }
};
using MapValues = std::map<std::string, MapValue>;

struct MapNeeds {
  int64_t min_rows = 2;        // fewer rows fail (the run names the exact limit)
  bool cosine = true;          // takes metric 'cosine' besides 'euclidean'
  bool given_init = false;     // can start from given coordinates (init_coords)
  const char* step_name = "";  // the unit of step(): "epoch" | "iteration" | "step"
};

// JSON-able figures of a run, in insertion order.
class MapInfo {
 public:
  void number(const std::string& key, double v);  // NaN and infinities as null
  void text(const std::string& key, const std::string& v);
  void flag(const std::string& key, bool v);  // true | false
  void numbers(const std::string& key, const std::vector<double>& v);  // an array
  void object(const std::string& key, const MapInfo& v);
  std::string json() const;  // {"key":value,...}

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, JSON text of the value
};

class MapRun {
 public:
  virtual ~MapRun() = default;  // stop: the run and its buffers go
  // Runs slices of the construction until budget_ms have passed (at least one slice);
  // -> prepared(). Every slicing gives the same bits.
  virtual bool prepare(double budget_ms) = 0;
  virtual bool prepared() const = 0;
  virtual const char* phase() const = 0;   // the algorithm's phase names; the last is its step phase
  virtual double progress() const = 0;     // share of the phase done, in [0, 1]
  // Runs up to n more steps (after the rest of the construction if needed); -> step reached.
  virtual int64_t step(int64_t n) = 0;
  virtual int64_t steps() const = 0;  // the step reached
  virtual int64_t total() const = 0;  // the steps of the whole run
  bool done() const { return prepared() && steps() >= total(); }
  virtual int64_t rows() const = 0;
  virtual int64_t components() const = 0;
  virtual std::span<const float> coordinates() const = 0;  // (rows, components); empty before the init
  virtual MapInfo info() = 0;
};

struct MapAlgorithm {
  const char* name;         // "umap"
  const char* label;        // "UMAP"
  const char* description;  // one line
  int64_t components = 2;
  std::vector<MapParam> params;
  MapNeeds needs;
  // Starts a run from values resolved by resolve(); init_coords (rows, components) or empty.
  // The run keeps no reference to table or init_coords.
  std::unique_ptr<MapRun> (*start_run)(std::span<const float> table, int64_t rows, int64_t dim,
                                        const MapValues& values, std::span<const float> init_coords);

  // given values by parameter name -> every parameter's value, defaults filled in. Fails naming
  // an unknown parameter (and the known ones), a value out of range ("umap: min_dist -1 out of
  // range [0, 1e+06]"), a fraction for an integer, or a word that is not a choice.
  MapValues resolve(const char* where, const MapValues& given) const;
  std::unique_ptr<MapRun> start(std::span<const float> table, int64_t rows, int64_t dim, const MapValues& values,
                                std::span<const float> init_coords = {}) const {
    return start_run(table, rows, dim, values, init_coords);
  }
  const MapParam* param(const std::string& name) const;  // nullptr if it has none of that name
};

const std::vector<const MapAlgorithm*>& map_algorithms();
// Fails for an unknown name: "map: unknown algorithm 'x', expected umap, tsne, pca".
const MapAlgorithm& find_map_algorithm(const std::string& name);

// snake_case -> camelCase: "n_neighbors" -> "nNeighbors" (the JS option of a parameter).
std::string map_option_name(const std::string& snake);
// snake_case -> --kebab-case: "n_neighbors" -> "--n-neighbors" (the CLI flag of a parameter).
std::string map_flag_name(const std::string& snake);

// Runs prepare_slice() until it returns true or budget_ms have passed since the call (at least
// once); -> whether it returned true. For adapters over a run with prepare(slices).
template <class F>
bool prepare_for(double budget_ms, F&& prepare_slice);

}  // namespace embedlab

#include "core/clock.hpp"

template <class F>
bool embedlab::prepare_for(double budget_ms, F&& prepare_slice) {
  const double t0 = now_ms();
  bool ready = prepare_slice();
  while (!ready && now_ms() - t0 < budget_ms) ready = prepare_slice();
  return ready;
}
