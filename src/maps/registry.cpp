// The map registry's list (one line per algorithm) and what is common to all of them: resolving
// parameter values against their declarations, the JSON of MapInfo, and the option and flag
// names derived from a parameter's name. See registry.hpp.
#include "maps/registry.hpp"

#include <cmath>
#include <cstdio>

#include "core/error.hpp"

namespace embedlab {

const MapAlgorithm& umap_map();  // maps/umap/umap_map.cpp
const MapAlgorithm& tsne_map();  // maps/tsne/tsne_map.cpp
const MapAlgorithm& pca_map();   // maps/pca/pca_map.cpp

const std::vector<const MapAlgorithm*>& map_algorithms() {
  static const std::vector<const MapAlgorithm*> list = {
      &umap_map(),
      &tsne_map(),
      &pca_map(),
  };
  return list;
}

const MapAlgorithm& find_map_algorithm(const std::string& name) {
  std::string known;
  for (const MapAlgorithm* a : map_algorithms()) {
    if (name == a->name) return *a;
    if (!known.empty()) known += ", ";
    known += a->name;
  }
  fail("map", "unknown algorithm '" + name + "', expected " + known);
}

const char* map_param_type_name(MapParamType t) {
  switch (t) {
    case MapParamType::Number: return "number";
    case MapParamType::Integer: return "integer";
    case MapParamType::Choice: return "choice";
  }
  return "number";
}

const MapParam* MapAlgorithm::param(const std::string& n) const {
  for (const MapParam& p : params) {
    if (n == p.name) return &p;
  }
  return nullptr;
}

namespace {

std::string joined(const std::vector<std::string>& words, const char* last) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) s += i + 1 == words.size() ? last : ", ";
    s += words[i];
  }
  return s;
}

// value checked against p; fails naming the algorithm, the parameter, the value and the range
MapValue checked(const MapAlgorithm& a, const MapParam& p, const MapValue& v) {
  if (p.type == MapParamType::Choice) {
    for (const std::string& c : p.choices) {
      if (v.word == c) return v;
    }
    fail(a.name, std::string(p.name) + " '" + (v.is_word() ? v.word : format_number(v.number)) + "' is not one of " +
                     joined(p.choices, " or "));
  }
  if (v.is_word()) {
    if (p.word && v.word == p.word) return v;
    fail(a.name, std::string(p.name) + " '" + v.word + "' must be a number" + (p.word ? std::string(" or '") + p.word + "'" : ""));
  }
  const double x = v.number;
  const bool below = p.min_exclusive ? !(x > p.min) : !(x >= p.min);
  if (below || !(x <= p.max)) {
    fail(a.name, std::string(p.name) + " " + format_number(x) + " out of range " + (p.min_exclusive ? "(" : "[") +
                     format_number(p.min) + ", " + format_number(p.max) + "]");
  }
  if (p.type == MapParamType::Integer && std::floor(x) != x) {
    fail(a.name, std::string(p.name) + " " + format_number(x) + " must be an integer");
  }
  return v;
}

}  // namespace

MapValues MapAlgorithm::resolve(const char* where, const MapValues& given) const {
  for (const auto& [k, v] : given) {
    if (!param(k)) {
      std::vector<std::string> names;
      for (const MapParam& p : params) names.emplace_back(p.name);
      fail(where, std::string(name) + " has no parameter '" + k + "', expected " + joined(names, " or "));
    }
  }
  MapValues out;
  for (const MapParam& p : params) {
    const auto it = given.find(p.name);
    if (it != given.end()) {
      out[p.name] = checked(*this, p, it->second);
    } else if (p.type == MapParamType::Choice) {
      out[p.name] = MapValue::of(p.choices.front());
    } else if (p.def_word) {
      out[p.name] = MapValue::of(std::string(p.word));
    } else {
      out[p.name] = MapValue::of(p.def);
    }
  }
  return out;
}

std::string map_option_name(const std::string& snake) {
  std::string out;
  bool up = false;
  for (const char c : snake) {
    if (c == '_') {
      up = true;
    } else {
      out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
      up = false;
    }
  }
  return out;
}

std::string map_flag_name(const std::string& snake) {
  std::string out = "--";
  for (const char c : snake) out += c == '_' ? '-' : c;
  return out;
}

// ---- MapInfo ----------------------------------------------------------------------------------
namespace {

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

namespace {
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
}  // namespace

void MapInfo::number(const std::string& key, double v) { fields_.emplace_back(key, json_number(v)); }

void MapInfo::numbers(const std::string& key, const std::vector<double>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += json_number(v[i]);
  }
  fields_.emplace_back(key, s + "]");
}

void MapInfo::text(const std::string& key, const std::string& v) { fields_.emplace_back(key, json_text(v)); }

void MapInfo::flag(const std::string& key, bool v) { fields_.emplace_back(key, v ? "true" : "false"); }

void MapInfo::object(const std::string& key, const MapInfo& v) { fields_.emplace_back(key, v.json()); }

std::string MapInfo::json() const {
  std::string out = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) out += ',';
    out += json_text(fields_[i].first);
    out += ':';
    out += fields_[i].second;
  }
  return out + "}";
}

}  // namespace embedlab
