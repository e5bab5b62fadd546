// embedlab map: any algorithm of the map registry (maps/registry.hpp) by name, its flags
// generated from the registry's parameters (--<name with '-'>), as the page and M.MapRun run it.
//
// map --algorithm NAME --table T --out coords.npy [--<param> V ...]
//   -> {"algorithm","n","dim","components","steps","step_name","values":{param: value},"info":{...}}
//   and the (n, components) float32 map in --out (.npy). The same values give the same bits as
//   an algorithm's own command, where it has one (src/maps/NAME/NAME_cli.cpp: their flags share
//   these names), and `pca` (its points).
// A flag of another algorithm fails naming the algorithms it applies to. It does not replace the
// algorithms' own commands (their JSON keys and extra inputs, such as an --init file, stay theirs).
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"
#include "maps/registry.hpp"

namespace embedlab::cli {

namespace {

// Flag names and help texts live as long as the program (FlagSpec holds const char*).
const char* keep(std::string s) {
  static std::deque<std::string> strings;
  return strings.emplace_back(std::move(s)).c_str();
}

std::string algorithm_names(const char* sep) {
  std::string s;
  for (const MapAlgorithm* a : map_algorithms()) {
    if (!s.empty()) s += sep;
    s += a->name;
  }
  return s;
}

std::string placeholder(const MapParam& p) {
  if (p.type == MapParamType::Choice) {
    std::string s;
    for (const std::string& c : p.choices) {
      if (!s.empty()) s += '|';
      s += c;
    }
    return s;
  }
  const std::string def = p.def_word ? std::string(p.word) : format_number(p.def);
  return p.word && !p.def_word ? def + "|" + p.word : def;
}

// "spectral|pca" + "random|pca" -> "spectral|pca|random": the words of both, once each
std::string merged(std::string a, const std::string& b) {
  size_t start = 0;
  while (start <= b.size()) {
    const size_t end = std::min(b.find('|', start), b.size());
    const std::string w = b.substr(start, end - start);
    if (("|" + a + "|").find("|" + w + "|") == std::string::npos) a += "|" + w;
    start = end + 1;
  }
  return a;
}

// One flag per parameter name; a name several algorithms share is listed once, its help
// prefixed by each algorithm ("NAME: ...; OTHER: ...").
std::vector<FlagSpec> map_flags() {
  std::vector<FlagSpec> f = {
      {"algorithm", keep(algorithm_names("|")), "the map algorithm", true},
      {"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
      {"out", "coords.npy", "where to write the (n, components) float32 map", true, 'o'},
  };
  std::vector<std::string> names, helps, values;
  for (const MapAlgorithm* a : map_algorithms()) {
    for (const MapParam& p : a->params) {
      const std::string flag = map_flag_name(p.name).substr(2);
      const std::string def = p.type == MapParamType::Choice ? p.choices.front()
                              : p.def_word                   ? std::string(p.word)
                                                             : format_number(p.def);
      const std::string help = std::string(a->name) + ": " + p.help + " (default " + def + ")";
      size_t i = 0;
      while (i < names.size() && names[i] != flag) ++i;
      if (i == names.size()) {
        names.push_back(flag);
        helps.push_back(help);
        values.push_back(placeholder(p));
      } else {
        helps[i] += "; " + help;
        values[i] = merged(values[i], placeholder(p));
      }
    }
  }
  for (size_t i = 0; i < names.size(); ++i) f.push_back({keep(names[i]), keep(values[i]), keep(helps[i])});
  return f;
}

// The given flags of algorithm a -> its resolved values; a flag of another algorithm fails.
MapValues map_values(Args& a, const MapAlgorithm& alg) {
  MapValues given;
  for (const MapAlgorithm* other : map_algorithms()) {
    for (const MapParam& p : other->params) {
      const std::string flag = map_flag_name(p.name).substr(2);
      if (!a.has(flag) || given.count(p.name)) continue;
      if (!alg.param(p.name)) {
        std::string owners;
        for (const MapAlgorithm* o : map_algorithms()) {
          if (!o->param(p.name)) continue;
          if (!owners.empty()) owners += " or ";
          owners += o->name;
        }
        fail("--" + flag, "applies to --algorithm " + owners + ", not --algorithm " + alg.name);
      }
      const MapParam& q = *alg.param(p.name);
      const std::string v = a.text(flag);
      if (q.type == MapParamType::Choice || (q.word && v == q.word)) {
        given[p.name] = MapValue::of(v);
      } else {
        given[p.name] = MapValue::of(parse_number("--" + flag, v, -1e308, 1e308));
      }
    }
  }
  return alg.resolve("map", given);
}

int cmd_map(Args& a, std::ostream& out) {
  const MapAlgorithm& alg = find_map_algorithm(a.text("algorithm"));
  const MapValues values = map_values(a, alg);
  const std::string path = a.text("out");
  const ImportedTable t = load_table_arg(a.text("table"));
  a.finish();
  check_output_file("--out", path);
  std::unique_ptr<MapRun> run = alg.start(t.data, t.rows, t.cols, values);
  run->step(run->total());
  write_output_file("--out", path, npy_bytes(run->coordinates(), t.rows, run->components()));
  out << "{\"algorithm\":" << json_string(alg.name) << ",\"n\":" << t.rows << ",\"dim\":" << t.cols
      << ",\"components\":" << run->components() << ",\"steps\":" << run->steps()
      << ",\"step_name\":" << json_string(alg.needs.step_name) << ",\"values\":{";
  bool first = true;
  for (const MapParam& p : alg.params) {
    const MapValue& v = values.at(p.name);
    if (!first) out << ",";
    out << json_string(p.name) << ":" << (v.is_word() ? json_string(v.word) : json_number(v.number));
    first = false;
  }
  out << "},\"info\":" << run->info().json() << "}\n";
  return 0;
}

}  // namespace

const CommandSpec kMap{
    "map",
    "Any algorithm of the map registry by name (--algorithm lists them): the (n, components) map in --out, JSON figures.",
    map_flags(),
    {},
    cmd_map};

}  // namespace embedlab::cli
