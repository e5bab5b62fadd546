#include "cli/args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "core/error.hpp"

namespace embedlab::cli {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "[0, 0.9]" with the bounds as a person writes them.
std::string range(double lo, double hi) { return "[" + format_number(lo) + ", " + format_number(hi) + "]"; }

[[noreturn]] void out_of_range(const std::string& what, const std::string& s, const std::string& expected) {
  throw Error(what + " " + s + " out of range " + expected);
}

// Digits, signs, '.', 'e': what a decimal number is written with (strtod also takes "0x1p3",
// "inf", "nan" and leading spaces, none of which is a decimal number here).
bool decimal_chars(const std::string& s, bool fraction) {
  for (const char c : s) {
    const bool ok = (c >= '0' && c <= '9') || c == '-' || c == '+' || (fraction && (c == '.' || c == 'e' || c == 'E'));
    if (!ok) return false;
  }
  return !s.empty();
}

const FlagSpec* find(const std::vector<FlagSpec>& flags, const std::string& name) {
  for (const FlagSpec& f : flags) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

const FlagSpec* find_alias(const std::vector<FlagSpec>& flags, char alias) {
  for (const FlagSpec& f : flags) {
    if (f.alias && f.alias == alias) return &f;
  }
  return nullptr;
}

std::string operand_list(const CommandSpec& c) {
  if (c.operands.empty()) return "no FILE";
  std::string s;
  for (const char* o : c.operands) s += (s.empty() ? "" : " ") + std::string(o);
  return s;
}

std::string flag_usage(const FlagSpec& f) {
  std::string s = std::string("--") + f.name;
  if (f.value) s += std::string(" ") + f.value;
  return f.required ? s : "[" + s + "]";
}

}  // namespace

const std::vector<FlagSpec>& global_flags() {
  static const std::vector<FlagSpec> flags{
      {"memory-limit", "SIZE",
       "the most memory the run may plan (512MiB, 8GiB; default: EMBEDLAB_MEMORY_LIMIT, else the available memory)"},
      {"threads", "N",
       "threads the run may use, 1 to 64, at most the cores available; the output is the same bytes for every N (default: EMBEDLAB_THREADS, else the cores available)"},
  };
  return flags;
}

std::string usage_line(const CommandSpec& c) {
  std::string s = std::string("embedlab ") + c.name;
  for (const FlagSpec& f : c.flags) s.append(" ").append(flag_usage(f));
  for (const char* o : c.operands) s.append(" ").append(o);
  return s;
}

std::string command_help(const CommandSpec& c) {
  std::string s = "usage: " + usage_line(c) + "\n" + c.summary + "\n";
  auto add = [&](const FlagSpec& f) {
    std::string left = std::string("  ") + (f.alias ? std::string("-") + f.alias + ", " : "") + "--" + f.name;
    if (f.value) left += std::string(" ") + f.value;
    // the help in a column; after a long placeholder, on the next line
    left = left.size() < 30 ? left + std::string(30 - left.size(), ' ') : left + "\n" + std::string(30, ' ');
    s += left + " " + f.help + (f.required ? " (required)" : "") + "\n";
  };
  for (const FlagSpec& f : c.flags) add(f);
  for (const FlagSpec& f : global_flags()) add(f);
  s += "Flags may come before or after the operands; --name=value works like --name value;\n"
       "a switch takes no value; \"--\" ends the flags.\n";
  return s;
}

int64_t parse_integer(const std::string& what, const std::string& s, int64_t lo, int64_t hi) {
  // an integer is written -?[0-9]+ ('+5', '5-' and '' are not)
  const size_t digits = s.find_first_not_of('-') == 1 ? 1 : 0;
  if (s.size() == digits || s.find_first_not_of("0123456789", digits) != std::string::npos) {
    fail(what, "expected an integer, got '" + s + "'");
  }
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0') fail(what, "expected an integer, got '" + s + "'");
  if (errno == ERANGE || v < lo || v > hi) {
    out_of_range(what, s, std::string("[").append(std::to_string(lo)).append(", ").append(std::to_string(hi)).append("]"));
  }
  return v;
}

double parse_number(const std::string& what, const std::string& s, double lo, double hi) {
  char* end = nullptr;
  const double d = decimal_chars(s, true) ? std::strtod(s.c_str(), &end) : NAN;
  if (!end || *end != '\0' || !std::isfinite(d)) fail(what, "expected a finite number, got '" + s + "'");
  if (d < lo || d > hi) out_of_range(what, s, range(lo, hi));
  return d;
}

Args::Args(const CommandSpec& spec, const std::vector<std::string>& words) : spec_(&spec) {
  bool flags_ended = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (flags_ended || w == "-" || w.empty() || w[0] != '-') {
      if (operands_.size() >= spec.operands.size()) {
        fail(spec.name, "unexpected argument '" + w + "' (" + spec.name + " takes " + operand_list(spec) + ")");
      }
      operands_.push_back(w);
      continue;
    }
    if (w == "--") {
      flags_ended = true;
      continue;
    }
    if (w == "--help" || w == "-h") {
      help_ = true;
      return;
    }
    std::string name;
    const std::string* inline_value = nullptr;
    std::string after_eq;
    const FlagSpec* f = nullptr;
    if (starts_with(w, "--")) {
      name = w.substr(2);
      const size_t eq = name.find('=');
      if (eq != std::string::npos) {
        after_eq = name.substr(eq + 1);
        inline_value = &after_eq;
        name.resize(eq);
      }
      f = find(spec.flags, name);
      if (!f) f = find(global_flags(), name);
      if (!f) fail("--" + name, std::string("is not an option of ") + spec.name);
    } else {
      f = w.size() == 2 ? find_alias(spec.flags, w[1]) : nullptr;
      if (!f) fail(w, std::string("is not an option of ") + spec.name);
      name = f->name;
    }
    const std::string shown = "--" + name;
    if (values_.count(name)) fail(shown, "given twice");
    if (!f->value) {
      if (inline_value) fail(shown, "is a switch and takes no value, got '" + *inline_value + "'");
      values_[name] = "";
      continue;
    }
    if (inline_value) {
      values_[name] = *inline_value;
    } else if (i + 1 < words.size() && !starts_with(words[i + 1], "--")) {
      values_[name] = words[++i];
    } else {
      fail(shown, std::string("needs a value (") + f->value + ")");
    }
  }
  for (const FlagSpec& f : spec.flags) {
    if (f.required && !values_.count(f.name)) fail(std::string("--") + f.name, "is required");
  }
  for (size_t k = 0; k < spec.operands.size(); ++k) {
    const char* o = spec.operands[k];  // "FILE" is required, "[FILE]" is not
    if (o[0] != '[' && operands_.size() <= k) fail(spec.name, std::string("missing the input ") + o);
  }
}

const FlagSpec& Args::declared(const std::string& name, bool valued) const {
  const FlagSpec* f = find(spec_->flags, name);
  if (!f) f = find(global_flags(), name);
  if (!f || (f->value != nullptr) != valued) {
    throw std::logic_error(std::string("internal: ") + spec_->name + " reads --" + name + " as " +
                           (valued ? "a valued flag" : "a switch") + ", which it does not declare");
  }
  return *f;
}

const std::string* Args::raw(const std::string& name, bool valued) {
  declared(name, valued);
  used_.insert(name);
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

bool Args::flag(const std::string& name) { return raw(name, false) != nullptr; }

std::string Args::text(const std::string& name) {
  const std::string* v = raw(name, true);
  if (!v) fail("--" + name, "is required");
  return *v;
}

std::string Args::text_or(const std::string& name, const std::string& fallback) {
  const std::string* v = raw(name, true);
  return v ? *v : fallback;
}

int64_t Args::integer(const std::string& name, int64_t lo, int64_t hi) {
  return parse_integer("--" + name, text(name), lo, hi);
}

int64_t Args::integer_or(const std::string& name, int64_t fallback, int64_t lo, int64_t hi) {
  const std::string* v = raw(name, true);
  return v ? parse_integer("--" + name, *v, lo, hi) : fallback;
}

double Args::number_or(const std::string& name, double fallback, double lo, double hi) {
  const std::string* v = raw(name, true);
  return v ? parse_number("--" + name, *v, lo, hi) : fallback;
}

// "2,3,1" -> {2, 3, 1}: at least one integer, every item one integer ('', '1,2,' and '1,,2' are
// refused, naming the empty item).
std::vector<int32_t> Args::int_list(const std::string& name) {
  const std::string s = text(name);
  std::vector<int32_t> out;
  size_t start = 0, index = 0;
  while (true) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    const std::string item = s.substr(start, comma - start);
    if (item.empty()) {
      fail("--" + name, "expected comma-separated integers, got '" + s + "' (item " + std::to_string(index + 1) + " is empty)");
    }
    out.push_back(static_cast<int32_t>(parse_integer("--" + name, item, INT32_MIN, INT32_MAX)));
    if (comma == s.size()) break;
    start = comma + 1;
    ++index;
  }
  return out;
}

void Args::finish(const std::string& context) {
  for (const auto& [name, value] : values_) {
    if (!used_.count(name)) fail("--" + name, "is not an option of " + (context.empty() ? spec_->name : context));
  }
}

}  // namespace embedlab::cli
