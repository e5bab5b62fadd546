#include "core/error.hpp"

#include <cstdio>

namespace embedlab {

void fail(const std::string& where, const std::string& what) { throw Error(where + ": " + what); }

std::string format_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

void check_index(const char* where, const char* name, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value >= hi) {
    fail(where, std::string(name) + " " + std::to_string(value) + " out of range [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + ")");
  }
}

void check_at_least(const char* where, const char* name, int64_t value, int64_t min) {
  if (value < min) {
    fail(where, std::string(name) + " must be >= " + std::to_string(min) + ", got " +
                    std::to_string(value));
  }
}

}  // namespace embedlab
