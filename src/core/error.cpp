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

size_t checked_elements(const char* where, const char* what, int64_t a, int64_t b,
                        size_t elem_bytes) {
  if (a < 0 || b < 0) {
    fail(where, std::string(what) + " has a negative size " + std::to_string(a) + " x " +
                    std::to_string(b));
  }
  const long double bytes = static_cast<long double>(a) * static_cast<long double>(b) *
                            static_cast<long double>(elem_bytes);
  if (bytes > static_cast<long double>(kMaxTableBytes)) {
    fail(where, std::string(what) + " of " + std::to_string(a) + " x " + std::to_string(b) +
                    " values needs " + std::to_string(static_cast<unsigned long long>(bytes)) +
                    " bytes, more than the limit of " + std::to_string(kMaxTableBytes) + " bytes");
  }
  return static_cast<size_t>(a) * static_cast<size_t>(b);
}

}  // namespace embedlab
