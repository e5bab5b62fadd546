#include "cli/positions.hpp"

#include <deque>
#include <limits>

#include "core/error.hpp"

namespace embedlab::cli {

namespace {

// Flag names and help texts live as long as the program (FlagSpec holds const char*).
const char* keep(std::string s) {
  static std::deque<std::string> strings;
  return strings.emplace_back(std::move(s)).c_str();
}

std::string flag_name(const PositionKind& k, const PositionParam& p) {
  std::string n = std::string(k.name) + "-" + p.name;
  for (char& c : n) c = c == '_' ? '-' : c;
  return n;
}

}  // namespace

FlagSpec position_kind_flag(const char* name, const char* help, bool required) {
  static const char* const choices = keep(position_kind_names("|"));
  return {name, choices, help, required};
}

std::vector<FlagSpec> position_param_flags(const char* prefix) {
  std::vector<FlagSpec> f;
  for (const PositionKind* k : position_kinds()) {
    for (const PositionParam& p : k->params) {
      f.push_back({keep(flag_name(*k, p)), keep(format_number(p.def)),
                   keep(std::string(prefix) + k->name + ": " + p.help + " (default " + format_number(p.def) +
                        ", in [" + format_number(p.min) + ", " + format_number(p.max) + "])")});
    }
  }
  return f;
}

PositionValues position_values(Args& a, const PositionKind& kind, const char* kind_flag) {
  constexpr double lo = std::numeric_limits<double>::lowest(), hi = std::numeric_limits<double>::max();
  PositionValues v;
  for (const PositionKind* k : position_kinds()) {
    for (const PositionParam& p : k->params) {
      const std::string flag = flag_name(*k, p);
      if (!a.has(flag)) continue;
      if (k != &kind) {
        fail("--" + flag, std::string("applies to --") + kind_flag + " " + k->name + ", not --" + kind_flag + " " +
                              kind.name);
      }
      v[p.name] = a.number_or(flag, p.def, lo, hi);
    }
  }
  return v;
}

}  // namespace embedlab::cli
