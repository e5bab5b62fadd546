#include "cli/args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace embedlab::cli {

int64_t parse_integer(const std::string& what, const std::string& s, int64_t lo, int64_t hi) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE) {
    fail(what, "expected an integer, got '" + s + "'");
  }
  if (v < lo || v > hi) {
    fail(what, std::to_string(v) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return v;
}

Args::Args(int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0 && a.size() > 2) {
      std::string name = a.substr(2);
      const auto eq = name.find('=');
      if (eq != std::string::npos) {
        values_[name.substr(0, eq)] = name.substr(eq + 1);
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        values_[name] = std::string(argv[++i]);
      } else {
        values_[name] = std::nullopt;
      }
    } else if (a == "-o" && i + 1 < argc) {
      values_["out"] = std::string(argv[++i]);
    } else {
      positional_.push_back(a);
    }
  }
}

std::optional<std::string> Args::raw(const std::string& name) {
  used_.insert(name);
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  if (!it->second) fail("--" + name, "needs a value");
  return it->second;
}

bool Args::has(const std::string& name) { return values_.count(name) > 0; }

bool Args::flag(const std::string& name) {
  used_.insert(name);
  auto it = values_.find(name);
  if (it == values_.end()) return false;
  if (it->second) {
    // "--scale FILE": the switch took the next word; give it back as a positional argument.
    positional_.push_back(*it->second);
    it->second.reset();
  }
  return true;
}

std::string Args::text(const std::string& name) {
  auto v = raw(name);
  if (!v) fail("--" + name, "is required");
  return *v;
}

std::string Args::text_or(const std::string& name, const std::string& fallback) {
  auto v = raw(name);
  return v ? *v : fallback;
}

int64_t Args::integer(const std::string& name, int64_t lo, int64_t hi) {
  return parse_integer("--" + name, text(name), lo, hi);
}

int64_t Args::integer_or(const std::string& name, int64_t fallback, int64_t lo, int64_t hi) {
  auto v = raw(name);
  return v ? parse_integer("--" + name, *v, lo, hi) : fallback;
}

double Args::number_or(const std::string& name, double fallback, double lo, double hi) {
  auto v = raw(name);
  if (!v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || !std::isfinite(d)) {
    fail("--" + name, "expected a finite number, got '" + *v + "'");
  }
  if (d < lo || d > hi) {
    fail("--" + name, *v + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return d;
}

std::vector<int32_t> Args::int_list(const std::string& name) {
  const std::string s = text(name);
  std::vector<int32_t> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    const std::string item = s.substr(start, comma - start);
    if (!item.empty() || comma < s.size()) {
      out.push_back(static_cast<int32_t>(parse_integer("--" + name, item, INT32_MIN, INT32_MAX)));
    }
    start = comma + 1;
  }
  return out;
}

void Args::finish() {
  for (const auto& [name, value] : values_) {
    if (!used_.count(name)) fail("--" + name, "is not an option of this command");
  }
}

}  // namespace embedlab::cli
