// Minimal JSON output for the CLI: tables as {"shape":[...],"data":[...]} with floats
// printed to 9 significant digits (enough to round-trip float32).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <map>
#include <string>
#include <vector>

namespace embedlab::cli {

std::string json_number(double v);  // 9 significant digits; non-finite -> null
// A JSON string of bytes: quotes, backslashes and control characters escaped, invalid UTF-8
// replaced by U+FFFD (each maximal invalid subpart). Example: "a\xFFb" -> "\"a\uFFFDb\"" (U+FFFD as UTF-8).
std::string json_string(const std::string& bytes);
// {"a":1,"b":0.5}: numbers by name, in name order
std::string json_object(const std::map<std::string, double>& values);
void write_floats(std::ostream& os, std::span<const float> v);
void write_ints(std::ostream& os, std::span<const int32_t> v);
// {"shape":[...],"data":[...]} without the closing brace, so callers can add keys.
void write_table_open(std::ostream& os, const std::vector<int64_t>& shape, std::span<const float> data);

}  // namespace embedlab::cli
