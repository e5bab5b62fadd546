// The CLI's list of commands: the ones declared in src/cli (commands.hpp) and the ones a map
// algorithm adds from its own folder (CommandRegistration), in the order `embedlab --help`
// prints them. main.cpp and the fuzz target of the argument parser read this list; it runs no
// command.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"

namespace embedlab::cli {
namespace {

// (order, command) as registered; function-local so that registrations from other files'
// static initialisers find it constructed.
std::vector<std::pair<int, const CommandSpec*>>& added() {
  static std::vector<std::pair<int, const CommandSpec*>> list;
  return list;
}

}  // namespace

CommandRegistration::CommandRegistration(const CommandSpec& spec, int order) { added().emplace_back(order, &spec); }

const std::vector<const CommandSpec*>& all_commands() {
  static const std::vector<const CommandSpec*> list = [] {
    std::vector<const CommandSpec*> out = {
        &kInit,       &kLookup,     &kPosenc,        &kKinds,     &kTokenize, &kDecode,     &kBpeTrain,
        &kWindows,    &kBenchLookup, &kBenchTable,   &kBenchTokenize, &kBenchTrain, &kTrain, &kGenerate,
        &kNeighbours, &kAnalogy,    &kPca,           &kInspect,   &kConvert,
    };
    auto more = added();
    std::stable_sort(more.begin(), more.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, spec] : more) out.push_back(spec);
    out.push_back(&kMap);
    return out;
  }();
  return list;
}

std::string bench_names() {
  std::vector<std::string> names;
  for (const CommandSpec* c : all_commands()) {
    const std::string n = c->name;
    if (n.rfind("bench ", 0) == 0) names.push_back(n.substr(6));
  }
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    s += names[i];
    if (i + 2 < names.size()) s += ", ";
    else if (i + 2 == names.size()) s += " or ";
  }
  return s;
}

}  // namespace embedlab::cli
