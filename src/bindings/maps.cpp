// Bindings for maps/registry.hpp: the list of map algorithms and a generic run of any of them.
// The JS API is api/maps.post.js (M.mapAlgorithms, M.MapRun).
//
//   _mapAlgorithms() -> [{name, label, description, components, stepName, needs: {minRows, cosine,
//                         givenInit, stepName}, params: [{name, option, flag, type, default, min,
//                         max, minExclusive, choices, word, help}]}]   (a fresh copy per call)
//   _MapRun: init(name, Float32Array table, rows, dim, values, Float32Array initCoords, prepareNow) |
//            initTable(name, _Table, values, initCoords, prepareNow)
//            (values: a plain object {snake_name: number | string}, only declared names; the
//            registry checks them; prepareNow: the whole construction now, else start only)
//            prepare(maxMs) -> prepared, phase(), progress(), step(n) -> step reached, steps(),
//            total(), done(), rows(), components(), coordinates() -> Float32Array (rows *
//            components; empty before the init), info() -> JSON bytes
#include "bindings/common.hpp"

#include <memory>

#include "maps/registry.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

val param_js(const MapParam& p) {
  val out = val::object();
  out.set("name", std::string(p.name));
  out.set("option", map_option_name(p.name));
  out.set("flag", map_flag_name(p.name));
  out.set("type", std::string(map_param_type_name(p.type)));
  if (p.type == MapParamType::Choice) {
    val choices = val::array();
    for (const std::string& c : p.choices) choices.call<void>("push", c);
    out.set("default", p.choices.front());
    out.set("min", val::null());
    out.set("max", val::null());
    out.set("minExclusive", false);
    out.set("choices", choices);
  } else {
    if (p.def_word) {
      out.set("default", std::string(p.word));
    } else {
      out.set("default", p.def);
    }
    out.set("min", p.min);
    out.set("max", p.max);
    out.set("minExclusive", p.min_exclusive);
    out.set("choices", val::null());
  }
  out.set("word", p.word ? val(std::string(p.word)) : val::null());
  out.set("help", std::string(p.help));
  return out;
}

val algorithms_js() {
  return guard("mapAlgorithms", [&] {
    val list = val::array();
    for (const MapAlgorithm* a : map_algorithms()) {
      val needs = val::object();
      needs.set("minRows", static_cast<double>(a->needs.min_rows));
      needs.set("cosine", a->needs.cosine);
      needs.set("givenInit", a->needs.given_init);
      needs.set("stepName", std::string(a->needs.step_name));
      val params = val::array();
      for (const MapParam& p : a->params) params.call<void>("push", param_js(p));
      val out = val::object();
      out.set("name", std::string(a->name));
      out.set("label", std::string(a->label));
      out.set("description", std::string(a->description));
      out.set("components", static_cast<double>(a->components));
      out.set("stepName", std::string(a->needs.step_name));
      out.set("needs", needs);
      out.set("params", params);
      list.call<void>("push", out);
    }
    return list;
  });
}

// values (a plain object of declared snake_case names) -> resolved values of a
MapValues map_values(const char* where, const MapAlgorithm& a, const val& values) {
  if (values.typeOf().as<std::string>() != "object" || values.isNull()) fail(where, "options must be an object");
  MapValues given;
  for (const MapParam& p : a.params) {
    const val v = values[p.name];
    if (v.isUndefined() || v.isNull()) continue;
    if (v.isNumber()) {
      given[p.name] = MapValue::of(v.as<double>());
    } else if (v.isString()) {
      given[p.name] = MapValue::of(name_arg(where, p.name, v));
    } else {
      fail(where, std::string(p.name) + " must be a number or a string");
    }
  }
  return a.resolve(a.name, given);
}

class MapRunHandle {
 public:
  bool init(val name, val table, double rows, double dim, val values, val init_coords, bool prepare_now) {
    const char* where = "MapRun";
    return guard(where, [&] {
      const MapAlgorithm& a = find_map_algorithm(name_arg(where, "name", name));
      const int64_t r = size_arg(where, "rows", rows, 0), d = size_arg(where, "dim", dim, 0);
      const MapValues v = map_values(where, a, values);
      const std::vector<float> coords = copy_in<float>(where, "init", init_coords);
      const std::vector<float> t = copy_in<float>(where, "table", table);
      open(a, t, r, d, v, coords, prepare_now);
      return true;
    });
  }
  bool init_table(val name, val handle, val values, val init_coords, bool prepare_now) {
    const char* where = "MapRun";
    return guard(where, [&] {
      const MapAlgorithm& a = find_map_algorithm(name_arg(where, "name", name));
      const MapValues v = map_values(where, a, values);  // arguments first, then the table
      const std::vector<float> coords = copy_in<float>(where, "init", init_coords);
      const ResidentTable t = resident_table(where, handle);
      open(a, t.data, t.rows, t.dim, v, coords, prepare_now);
      return true;
    });
  }
  bool prepare(double max_ms) {
    const char* where = "MapRun.prepare";
    return guard(where, [&] {
      if (!(max_ms >= 0)) fail(where, "maxMs " + format_number(max_ms) + " must be a number >= 0");
      return live(where).prepare(max_ms);
    });
  }
  std::string phase() { return guard("MapRun.phase", [&] { return std::string(live("MapRun.phase").phase()); }); }
  double progress() { return guard("MapRun.progress", [&] { return live("MapRun.progress").progress(); }); }
  double step(double n) {
    const char* where = "MapRun.step";
    return guard(where, [&] { return static_cast<double>(live(where).step(int_arg(where, "n", n, 0, kInt32Max))); });
  }
  double steps() { return guard("MapRun.steps", [&] { return static_cast<double>(live("MapRun.steps").steps()); }); }
  double total() { return guard("MapRun.total", [&] { return static_cast<double>(live("MapRun.total").total()); }); }
  bool done() { return guard("MapRun.done", [&] { return live("MapRun.done").done(); }); }
  double rows() { return guard("MapRun.rows", [&] { return static_cast<double>(live("MapRun.rows").rows()); }); }
  double components() {
    return guard("MapRun.components", [&] { return static_cast<double>(live("MapRun.components").components()); });
  }
  val coordinates() {
    return guard("MapRun.coordinates", [&] {
      const std::span<const float> xy = live("MapRun.coordinates").coordinates();
      return copy_out(xy.data(), xy.size());
    });
  }
  val info() { return guard("MapRun.info", [&] { return bytes_out(live("MapRun.info").info().json()); }); }

 private:
  void open(const MapAlgorithm& a, std::span<const float> t, int64_t r, int64_t d, const MapValues& v,
            std::span<const float> coords, bool prepare_now) {
    std::unique_ptr<MapRun> run = a.start(t, r, d, v, coords);
    if (prepare_now) {
      while (!run->prepare(1e300)) {}
    }
    run_ = std::move(run);
  }
  MapRun& live(const char* where) {
    if (!run_) fail(where, "this MapRun was not created (its constructor failed)");
    return *run_;
  }
  std::unique_ptr<MapRun> run_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(maps) {
  using namespace emscripten;
  class_<MapRunHandle>("_MapRun")
      .constructor<>()
      .function("init", &MapRunHandle::init)
      .function("initTable", &MapRunHandle::init_table)
      .function("prepare", &MapRunHandle::prepare)
      .function("phase", &MapRunHandle::phase)
      .function("progress", &MapRunHandle::progress)
      .function("step", &MapRunHandle::step)
      .function("steps", &MapRunHandle::steps)
      .function("total", &MapRunHandle::total)
      .function("done", &MapRunHandle::done)
      .function("rows", &MapRunHandle::rows)
      .function("components", &MapRunHandle::components)
      .function("coordinates", &MapRunHandle::coordinates)
      .function("info", &MapRunHandle::info);
  function("_mapAlgorithms", &algorithms_js);
}
