// Fuzz target: the CLI argument parser (src/cli/args.hpp), against the real command declarations
// (cmd_*.cpp and src/maps/*/*_cli.cpp; this target links those and every src/cli/*.cpp but main.cpp, and
// runs no command).
// Input: byte 0 picks the command, the rest are its words, one per line (dictionary: cli_args.dict).
// Properties: a bad command line fails with an Error (never a crash or another exception); a
// parsed one has at most the declared operands and only declared flags; finish() before any getter
// rejects a given flag, after every getter accepts; switches read as given; a present valued flag
// reads back through each typed getter or fails with an Error; integers and numbers are in range;
// --memory-limit goes through core/memory's parse_bytes as main.cpp does;
// and writing the result back canonically (--name=value for each flag, "--", the operands) parses
// to the same flags, values and operands. usage_line and command_help never fail.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "fuzz_common.hpp"

using namespace embedlab;
using namespace embedlab::cli;

namespace {

std::vector<const FlagSpec*> all_flags(const CommandSpec& spec) {
  std::vector<const FlagSpec*> out;
  for (const FlagSpec& f : spec.flags) out.push_back(&f);
  for (const FlagSpec& f : global_flags()) out.push_back(&f);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  if (size < 1) return 0;
  const std::vector<const CommandSpec*>& commands = all_commands();  // every command, the map algorithms' too
  const CommandSpec& spec = *commands[data[0] % commands.size()];
  std::vector<std::string> words;
  if (size > 1) {
    words.emplace_back();
    for (size_t i = 1; i < size; ++i) {
      if (data[i] == '\n') words.emplace_back();
      else words.back().push_back(static_cast<char>(data[i]));
    }
  }
  fuzz::require(!usage_line(spec).empty() && !command_help(spec).empty(), "usage_line and command_help");

  fuzz::expect_errors([&] {
    Args a(spec, words);
    if (a.help()) return;
    fuzz::require(a.operands().size() <= spec.operands.size(), "at most the declared operands");
    const std::vector<const FlagSpec*> flags = all_flags(spec);
    size_t given = 0;
    for (const FlagSpec* f : flags) given += a.has(f->name);
    {
      Args untouched(spec, words);
      bool refused = false;
      try {
        untouched.finish();
      } catch (const Error&) {
        refused = true;
      }
      fuzz::require(refused == (given > 0), "finish() before any getter rejects exactly the given flags");
    }

    // Every declared flag through its getters; values for the canonical command line.
    std::vector<std::string> canonical;
    for (const FlagSpec* f : flags) {
      const std::string name = f->name;
      if (!f->value) {
        fuzz::require(a.flag(name) == a.has(name), "a switch reads as given");
        if (a.has(name)) canonical.push_back("--" + name);
        continue;
      }
      const std::string value = a.text_or(name, "x");  // two fallbacks: only an absent flag differs
      fuzz::require(a.has(name) == (value == a.text_or(name, "y")), "text_or returns the value of a given flag");
      if (!a.has(name)) continue;
      fuzz::require(a.text(name) == value, "text == text_or for a given flag");
      canonical.push_back("--" + name + "=" + value);
      fuzz::expect_errors([&] {
        const int64_t v = a.integer_or(name, 0, -1000, 1000);
        fuzz::require(v >= -1000 && v <= 1000, "integer_or is in [lo, hi]");
        fuzz::require(parse_integer("v", std::to_string(v), -1000, 1000) == v, "parse_integer(to_string(v)) == v");
      });
      fuzz::expect_errors([&] {
        const int64_t v = a.integer(name, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
        fuzz::require(parse_integer("v", std::to_string(v), v, v) == v, "integers round-trip through to_string");
      });
      fuzz::expect_errors([&] {
        const double d = a.number_or(name, 0.5, -1e6, 0.9);
        fuzz::require(std::isfinite(d) && d >= -1e6 && d <= 0.9, "number_or is finite and in [lo, hi]");
      });
      fuzz::expect_errors([&] { (void)a.int_list(name); });
      if (name == "memory-limit") {  // main.cpp parses it with core/memory's parse_bytes
        fuzz::expect_errors([&] {
          const uint64_t bytes = parse_bytes("--memory-limit", value);
          fuzz::require(!format_bytes(bytes).empty(), "format_bytes(parse_bytes(v))");
          fuzz::require(parse_bytes("v", std::to_string(bytes)) == bytes, "parse_bytes(to_string(n)) == n");
        });
      }
    }
    a.finish();  // every given flag was read

    canonical.push_back("--");
    for (const std::string& o : a.operands()) canonical.push_back(o);
    Args b(spec, canonical);
    fuzz::require(!b.help() && b.operands() == a.operands(), "the canonical command line has the same operands");
    for (const FlagSpec* f : flags) {
      fuzz::require(b.has(f->name) == a.has(f->name), "the canonical command line has the same flags");
      if (f->value && a.has(f->name)) {
        fuzz::require(b.text(f->name) == a.text(f->name), "the canonical command line has the same values");
      }
    }
  });
  return 0;
}
