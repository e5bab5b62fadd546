// Command-line parsing for the embedlab CLI: "--name value" flags, "--flag" switches and
// positional arguments, with typed getters that fail with clear messages.
//
// Intended usage:
//   Args a(argc, argv, 2);                  // skip "embedlab init"
//   int64_t V = a.integer("num-embeddings", 1, INT32_MAX);
//   a.finish();                              // rejects unknown flags
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace embedlab::cli {

class Args {
 public:
  Args(int argc, char** argv, int first);

  bool has(const std::string& name);
  bool flag(const std::string& name);  // a switch without a value
  std::string text(const std::string& name);
  std::string text_or(const std::string& name, const std::string& fallback);
  int64_t integer(const std::string& name, int64_t lo, int64_t hi);
  int64_t integer_or(const std::string& name, int64_t fallback, int64_t lo, int64_t hi);
  double number_or(const std::string& name, double fallback, double lo, double hi);
  std::vector<int32_t> int_list(const std::string& name);
  const std::vector<std::string>& positional() const { return positional_; }
  // Fails on any flag that no getter asked for.
  void finish();

 private:
  std::optional<std::string> raw(const std::string& name);
  std::map<std::string, std::optional<std::string>> values_;  // name -> value (nullopt: switch)
  std::set<std::string> used_;
  std::vector<std::string> positional_;
};

// Parses a whole decimal integer in [lo, hi] or fails naming `what`.
int64_t parse_integer(const std::string& what, const std::string& s, int64_t lo, int64_t hi);

}  // namespace embedlab::cli
