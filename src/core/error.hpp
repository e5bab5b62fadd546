// The project's one error type and the helpers that format its messages.
//
// Every public function validates its inputs and throws embedlab::Error with a
// message that names where, what, the value received and what was expected:
//   "lookup: token id 10 out of range [0, 10)"
// Messages are built here so that their format stays uniform. The CLI prints
// them on stderr; the wasm bindings turn them into JS Errors. Sizes are checked by the planner
// in core/memory.hpp, which throws this type too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace embedlab {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Throws Error("<where>: <what>").
[[noreturn]] void fail(const std::string& where, const std::string& what);

// Throws unless lo <= value < hi:  "<where>: <name> <value> out of range [lo, hi)".
void check_index(const char* where, const char* name, int64_t value, int64_t lo, int64_t hi);

// Throws unless value >= min: "<where>: <name> must be >= <min>, got <value>".
void check_at_least(const char* where, const char* name, int64_t value, int64_t min);

// A number as a person would write it: 0, 1.5, 1e+30, nan (printf %.15g).
std::string format_number(double v);

}  // namespace embedlab
