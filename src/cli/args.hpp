// Strict command-line parsing for the embedlab CLI.
//
// Each command declares its flags up front (CommandSpec): a switch takes no value, a valued flag
// takes exactly one ("--seed 1" or "--seed=1"). Knowing which is which, the parser accepts flags
// before or after FILE (`train --model next-token --scale FILE`: FILE stays FILE) and fails, with
// one message naming the word, on:
//   an unknown flag           "--foo: is not an option of tokenize"
//   a value on a switch       "--scale: is a switch and takes no value, got 'false'"
//   a valued flag at the end  "--seed: needs a value"   (a word starting with "--" is not a value)
//   a flag given twice        "--seed: given twice"
//   a missing required flag   "--seed: is required"
//   a stray word              "init: unexpected argument 'extra' (init takes no FILE)"
// "--" ends the flags: every word after it is an operand. "-o" is an alias where a flag declares it.
// The typed getters fail naming the flag and printing numbers as written:
//   "--valid-fraction 2 out of range [0, 0.9]".
// It does not run commands or print anything (see main.cpp); the help text is generated here
// from the declarations, so it cannot drift from what the parser accepts.
//
// Intended usage:
//   const CommandSpec kInit{"init", "...", {{"seed", "S", "..."}, ...}, {}, cmd_init};
//   Args a(kInit, {"--seed", "1", ...});       // throws Error on the mistakes above
//   int64_t V = a.integer("num-embeddings", 1, INT32_MAX);
//   a.finish();                                 // rejects declared flags this run did not use
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace embedlab::cli {

class Args;

// One flag: --name (a switch when value is nullptr) or --name VALUE.
struct FlagSpec {
  const char* name;   // "seed" for --seed
  const char* value;  // the placeholder in the help ("S", "cosine|euclidean"); nullptr: a switch
  const char* help;   // one line
  bool required = false;
  char alias = 0;  // 'o': "-o OUT" means "--out OUT"
};

// The command's entry point: parsed arguments in, JSON out (written to stdout by main only when
// the command returns 0).
using Command = int (*)(Args&, std::ostream& out);

struct CommandSpec {
  const char* name;     // "init", "bench lookup"
  const char* summary;  // one line
  std::vector<FlagSpec> flags;
  std::vector<const char*> operands;  // "FILE" or "[FILE]" (optional); at most this many words
  Command run;
};

// Flags every command takes (applied by main): --memory-limit SIZE.
const std::vector<FlagSpec>& global_flags();

// "embedlab init --seed S --num-embeddings V [--padding-idx P]": the usage line.
std::string usage_line(const CommandSpec& c);
// The usage line and one line per flag, for `embedlab <command> --help`.
std::string command_help(const CommandSpec& c);

class Args {
 public:
  // Parses the words after the command name against spec (see the file comment).
  Args(const CommandSpec& spec, const std::vector<std::string>& words);

  const CommandSpec& spec() const { return *spec_; }
  // True when `--help` or `-h` was given (nothing else is checked then).
  bool help() const { return help_; }

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  bool flag(const std::string& name);  // a switch
  std::string text(const std::string& name);
  std::string text_or(const std::string& name, const std::string& fallback);
  int64_t integer(const std::string& name, int64_t lo, int64_t hi);
  int64_t integer_or(const std::string& name, int64_t fallback, int64_t lo, int64_t hi);
  double number_or(const std::string& name, double fallback, double lo, double hi);
  std::vector<int32_t> int_list(const std::string& name);
  const std::vector<std::string>& operands() const { return operands_; }

  // Fails on a flag that was given but that no getter asked for, e.g. a next-token flag in a
  // word2vec run: "--context: is not an option of train --model skipgram" (context names the
  // mode; empty: the command's name).
  void finish(const std::string& context = "");

 private:
  const FlagSpec& declared(const std::string& name, bool valued) const;
  const std::string* raw(const std::string& name, bool valued);

  const CommandSpec* spec_;
  bool help_ = false;
  std::map<std::string, std::string> values_;  // name -> value ("" for a switch)
  std::set<std::string> used_;
  std::vector<std::string> operands_;
};

// A whole decimal integer in [lo, hi], or fails naming `what`:
//   "--seed: expected an integer, got '1.5'", "--k 0 out of range [1, 2147483647]".
int64_t parse_integer(const std::string& what, const std::string& s, int64_t lo, int64_t hi);
// A finite decimal number in [lo, hi], or fails naming `what` ("--lr: expected a finite number,
// got 'nan'", "--valid-fraction 2 out of range [0, 0.9]").
double parse_number(const std::string& what, const std::string& s, double lo, double hi);

}  // namespace embedlab::cli
