// embedlab: the command-line interface. JSON on stdout, written only once the command has
// succeeded; on bad input one line on stderr ("embedlab: lookup: token id 10 out of range [0, 10)"),
// nothing on stdout, and exit code 2. Exit codes:
//   0  success
//   2  bad input: a usage mistake, a bad value, an unreadable input or unwritable output file,
//      a size over the memory limit (or an allocation that failed anyway)
//   3  the JSON could not be written to stdout (a full disk: `embedlab ... > /dev/full`)
// Commands and their flags are declared in the cmd_*.cpp files and in the map algorithms' own
// *_cli.cpp files (see args.hpp, commands.hpp all_commands); the help text is generated from them.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"

namespace {

using embedlab::cli::CommandSpec;

constexpr int kBadInput = 2;
constexpr int kCannotWrite = 3;

std::string help_text() {
  std::string s = "usage: embedlab <command> [flags] [FILE]   (embedlab <command> --help describes its flags)\n";
  for (const CommandSpec* c : embedlab::cli::all_commands()) s += "  " + embedlab::cli::usage_line(*c) + "\n";
  s += "Every command also takes:\n";
  for (const auto& f : embedlab::cli::global_flags()) {
    s += std::string("  --") + f.name + " " + f.value + "  " + f.help + "\n";
  }
  s += "Flags may come before or after FILE; --name=value works like --name value; a switch takes no\n"
       "value; \"--\" ends the flags. JSON goes to stdout, only when the command succeeded.\n"
       "Exit codes: 0 success; 2 bad input (a flag, a value, a file, a size over the memory limit),\n"
       "with one line \"embedlab: ...\" on stderr and nothing on stdout; 3 stdout could not be written.\n";
  return s;
}

// Writes all of s to stdout and flushes; on failure says why on stderr.
int write_stdout(const std::string& s) {
  errno = 0;
  const bool ok = std::fwrite(s.data(), 1, s.size(), stdout) == s.size() && std::fflush(stdout) == 0;
  if (ok) return 0;
  std::fprintf(stderr, "embedlab: cannot write the output: %s\n", errno ? std::strerror(errno) : "write failed");
  return kCannotWrite;
}

// One line on stderr, whatever the message holds (a .npy header ends with '\n').
int report(const std::string& message) {
  std::string line = "embedlab: ";
  for (const char c : message) {
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else line += c;
  }
  std::cerr << line << "\n";
  return kBadInput;
}

int report_out_of_memory(const std::string& where) {
  try {
    return report(embedlab::out_of_memory_message(where));
  } catch (const std::exception&) {
    return report(where + ": out of memory");
  }
}

int run(const CommandSpec& spec, const std::vector<std::string>& words) {
  embedlab::cli::Args args(spec, words);
  if (args.help()) return write_stdout(embedlab::cli::command_help(spec));
  if (args.has("memory-limit")) {
    const uint64_t bytes = embedlab::parse_bytes("--memory-limit", args.text("memory-limit"));
    embedlab::set_memory_limit_override(embedlab::MemoryLimits{bytes, bytes});
  }
  // --threads N, else EMBEDLAB_THREADS, else the cores available (src/core/parallel.hpp)
  if (args.has("threads")) {
    embedlab::set_threads(static_cast<int>(embedlab::cli::parse_integer("--threads", args.text("threads"), 1, embedlab::kMaxThreads)));
  } else {
    const char* env = std::getenv("EMBEDLAB_THREADS");
    embedlab::set_threads(embedlab::default_threads(env ? std::optional<std::string>(env) : std::nullopt));
  }
  std::ostringstream out;
  const int rc = spec.run(args, out);
  if (rc != 0) return rc;
  return write_stdout(std::move(out).str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << help_text();
    return kBadInput;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") return write_stdout(help_text());
  int first = 2;
  if (name == "bench") {
    if (argc < 3) return report("bench: expected " + embedlab::cli::bench_names());
    name += std::string(" ") + argv[2];
    first = 3;
  }
  const CommandSpec* spec = nullptr;
  for (const CommandSpec* c : embedlab::cli::all_commands()) {
    if (name == c->name) spec = c;
  }
  if (!spec) {
    if (first == 3 && (std::strcmp(argv[2], "--help") == 0 || std::strcmp(argv[2], "-h") == 0)) {
      std::string text;
      for (const CommandSpec* c : embedlab::cli::all_commands()) {
        if (std::string(c->name).rfind("bench ", 0) == 0) text += embedlab::cli::command_help(*c);
      }
      return write_stdout(text);
    }
    if (first == 3) return report("bench: unknown benchmark '" + std::string(argv[2]) + "', expected " + embedlab::cli::bench_names());
    report("unknown command '" + name + "'");
    std::cerr << help_text();
    return kBadInput;
  }
  try {
    return run(*spec, std::vector<std::string>(argv + first, argv + argc));
  } catch (const std::bad_alloc&) {
    return report_out_of_memory(name);
  } catch (const std::length_error&) {
    return report_out_of_memory(name);
  } catch (const std::exception& ex) {
    return report(ex.what());
  }
}
