#include "cli/json.hpp"

#include <cmath>
#include <cstdio>

#include "tokenizer/unicode.hpp"

namespace embedlab::cli {

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string json_string(const std::string& bytes) {
  // subtle: JSON text is UTF-8 (RFC 8259); labels and tensor names from files may not be, so
  // each invalid sequence becomes U+FFFD, as a browser's TextDecoder shows it
  const std::string s = unicode::replace_invalid_utf8(bytes);
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void write_floats(std::ostream& os, std::span<const float> v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << json_number(v[i]);
  os << ']';
}

void write_ints(std::ostream& os, std::span<const int32_t> v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  os << ']';
}

void write_table_open(std::ostream& os, const std::vector<int64_t>& shape, std::span<const float> data) {
  os << "{\"shape\":[";
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? "," : "") << shape[i];
  os << "],\"data\":";
  write_floats(os, data);
}

std::string json_object(const std::map<std::string, double>& values) {
  std::string s = "{";
  for (const auto& [name, v] : values) {
    if (s.size() > 1) s += ',';
    s += json_string(name);
    s += ':';
    s += json_number(v);
  }
  return s + "}";
}

}  // namespace embedlab::cli
