#include "io/coordinates_csv.hpp"

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/text_rows.hpp"

namespace embedlab {

std::string csv_quote(const std::string& field) {
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string coordinates_csv(std::span<const float> points, int64_t rows, int64_t k, const std::vector<std::string>& labels) {
  const char* where = "coordinates_csv";
  check_at_least(where, "rows", rows, 0);
  if (k != 2 && k != 3) fail(where, "k is " + std::to_string(k) + ", expected 2 or 3 coordinates a row");
  uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(k), &want) || want != points.size()) {
    fail(where, "points hold " + std::to_string(points.size()) + " values, expected " + std::to_string(rows) + " x " +
                    std::to_string(k));
  }
  if (!labels.empty() && static_cast<int64_t>(labels.size()) != rows) {
    fail(where, "got " + std::to_string(labels.size()) + " labels for " + std::to_string(rows) + " rows");
  }
  // a row: its number (<= 11 bytes), k values (<= 15 bytes each) and separators, the label at
  // most doubled and its quotes
  int64_t label_bytes = 0;
  for (const std::string& l : labels) label_bytes += 2 * static_cast<int64_t>(l.size()) + 2;
  MemoryPlan p(where);
  p.add("csv numbers", {rows, 16 + 16 * k}, kBytes);
  p.add("csv labels", {label_bytes + 2 * rows}, kBytes);
  p.check();
  std::string out = k == 2 ? "row,label,x,y\r\n" : "row,label,x,y,z\r\n";
  out.reserve(static_cast<size_t>(p.bytes()) + out.size());
  for (int64_t r = 0; r < rows; ++r) {
    out += std::to_string(r);
    out.push_back(',');
    out += labels.empty() ? std::string("\"\"") : csv_quote(labels[static_cast<size_t>(r)]);
    for (int64_t c = 0; c < k; ++c) {
      out.push_back(',');
      out += float_repr(points[static_cast<size_t>(r * k + c)]);
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace embedlab
