#include "io/table_readers.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/memory.hpp"
#include "io/half.hpp"

namespace embedlab {

namespace {

// The value text after "'key':" in the header dict, up to the next ',' outside brackets.
std::string header_value(const std::string& header, const std::string& key, const std::string& where) {
  const size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) fail(where, "the .npy header has no '" + key + "': " + header);
  size_t p = header.find(':', k);
  if (p == std::string::npos) fail(where, "the .npy header is malformed: " + header);
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  int depth = 0;
  size_t e = p;
  for (; e < header.size(); ++e) {
    const char c = header[e];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((c == ',' || c == '}') && depth == 0) break;
  }
  return header.substr(p, e - p);
}

// "(3, 2)" -> {3, 2}; "(4,)" -> {4}
std::vector<int64_t> parse_shape(const std::string& s, const std::string& where) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') fail(where, "cannot read the .npy shape " + s);
  std::vector<int64_t> dims;
  const std::string inner = s.substr(1, s.size() - 2) + ",";
  std::string item;
  for (const char c : inner) {
    if (c == ' ') continue;
    if (c != ',') {
      item.push_back(c);
      continue;
    }
    if (item.empty()) continue;
    try {
      dims.push_back(std::stoll(item));
    } catch (const std::exception&) {
      fail(where, "cannot read the .npy shape " + s);
    }
    item.clear();
  }
  return dims;
}

// Bytes as a person can read them: printable ASCII as is, others as \xNN, in quotes.
// Example: "\x89PNG\r\n" -> "'\x89PNG\x0D\x0A'".
std::string escaped(std::string_view b) {
  std::string out = "'";
  for (const char c : b) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F && c != '\\' && c != '\'') {
      out.push_back(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", u);
      out += hex;
    }
  }
  return out + "'";
}

}  // namespace

NpyHeader parse_npy_header(std::string_view bytes, const std::string& where) {
  if (bytes.substr(0, 6) != std::string_view("\x93NUMPY", 6)) {
    fail(where, "byte 0: expected the magic \\x93NUMPY of a .npy file, got " + escaped(bytes.substr(0, 6)));
  }
  if (bytes.size() < 10) {
    fail(where, "the file has " + std::to_string(bytes.size()) + " bytes, fewer than the 10 that start a .npy header: it is cut short");
  }
  const unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, start = 0;
  auto byte = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(bytes[i])); };
  if (major == 1) {
    header_len = byte(8) | byte(9) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      fail(where, "the file has " + std::to_string(bytes.size()) + " bytes, fewer than the 12 that start a version " +
                      std::to_string(major) + " .npy header: it is cut short");
    }
    header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    start = 12;
  } else {
    fail(where, ".npy format version " + std::to_string(major) + " is not supported (expected 1, 2 or 3)");
  }
  // subtle: not start + header_len > size, which wraps in a 32-bit size_t for a 4 GiB header length
  if (header_len > bytes.size() - start) {
    fail(where, "the header needs " + std::to_string(static_cast<uint64_t>(start) + header_len) + " bytes (" +
                    std::to_string(start) + " + its length " + std::to_string(header_len) + "), the file has " +
                    std::to_string(bytes.size()) + ": it is cut short");
  }
  const std::string header(bytes.substr(start, header_len));
  NpyHeader h;
  h.descr = header_value(header, "descr", where);
  std::string order = header_value(header, "fortran_order", where);
  while (!order.empty() && order.back() == ' ') order.pop_back();
  if (order != "False" && order != "True") fail(where, "the .npy header's fortran_order is " + order + ", expected True or False");
  h.fortran_order = order == "True";
  h.shape_text = header_value(header, "shape", where);
  h.shape = parse_shape(h.shape_text, where);
  h.data_offset = start + header_len;
  return h;
}

NpyTable parse_npy(std::string_view bytes, const std::string& where) {
  const NpyHeader h = parse_npy_header(bytes, where);
  size_t width;
  if (h.descr == "'<f4'") {
    width = 4;
  } else if (h.descr == "'<f8'") {
    width = 8;
  } else if (h.descr == "'<f2'") {
    width = 2;
  } else {
    fail(where, "dtype " + h.descr + " is not supported (expected '<f4', '<f8' or '<f2')");
  }
  if (h.shape.empty() || h.shape.size() > 2) {
    fail(where, "expected a 1-D or 2-D array, got " + std::to_string(h.shape.size()) + " dimensions");
  }
  NpyTable t;
  t.rows = h.shape[0];
  t.cols = h.shape.size() == 2 ? h.shape[1] : 1;
  if (t.rows < 0 || t.cols < 0) fail(where, "the .npy shape " + h.shape_text + " has a negative dimension");
  // The declared shape x width against the bytes that are there, in 64 bits, before anything is
  // allocated: a 16-byte file declaring (1000000000, 1000000000) is refused here.
  const size_t body = h.data_offset;
  uint64_t want = 0;
  const bool overflow =
      __builtin_mul_overflow(static_cast<uint64_t>(t.rows), static_cast<uint64_t>(t.cols), &want) ||
      __builtin_mul_overflow(want, static_cast<uint64_t>(width), &want);
  if (overflow || bytes.size() - body != want) {
    const uint64_t got = bytes.size() - body;
    fail(where, "the data has " + std::to_string(got) + " bytes, expected " + std::to_string(t.rows) + " x " +
                    std::to_string(t.cols) + " x " + std::to_string(width) +
                    (overflow ? ", more than 2^64" : " = " + std::to_string(want)) +
                    (overflow || got < want ? ": the file is cut short"
                                            : ": " + std::to_string(got - want) + " bytes more than the shape " + h.shape_text + " holds"));
  }
  const size_t count = plan(where.c_str(), "table", {t.rows, t.cols}, kFloat32);
  t.data.resize(count);
  // subtle: little-endian is assumed for the host too (x86-64 and wasm are).
  const char* src = bytes.data() + body;
  auto value = [&](size_t i) -> float {
    if (width == 4) {
      float v;
      std::memcpy(&v, src + i * 4, 4);
      return v;
    }
    if (width == 8) {
      double v;
      std::memcpy(&v, src + i * 8, 8);
      return static_cast<float>(v);
    }
    uint16_t u;
    std::memcpy(&u, src + i * 2, 2);
    return half_to_float(u);
  };
  if (count == 0) {
    // subtle: a (0, 10^8) shape is empty; walking its columns would take seconds (fuzz_npy)
  } else if (h.fortran_order) {
    // column-major on disk: value (r, c) is at c * rows + r; the table is row-major
    const size_t rows = static_cast<size_t>(t.rows), cols = static_cast<size_t>(t.cols);
    for (size_t c = 0; c < cols; ++c) {
      for (size_t r = 0; r < rows; ++r) t.data[r * cols + c] = value(c * rows + r);
    }
  } else if (width == 4) {
    if (count) std::memcpy(t.data.data(), src, count * 4);
  } else {
    for (size_t i = 0; i < count; ++i) t.data[i] = value(i);
  }
  return t;
}

NpyTable read_npy(const std::string& path) { return parse_npy(read_file("read_npy", path), "read_npy: " + path); }

std::string tsv_unescape(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 == field.size()) {
      out.push_back(field[i]);
      continue;
    }
    const char c = field[++i];
    switch (c) {
      case 't': out.push_back('\t'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case '\\': out.push_back('\\'); break;
      default: out.push_back('\\'), out.push_back(c);
    }
  }
  return out;
}

// The lines of a text without their '\n' and trailing '\r'; a last line without '\n' counts.
std::vector<std::string_view> split_lines(const char* where, std::string_view text) {
  const int64_t lines = static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) +
                        (!text.empty() && text.back() != '\n' ? 1 : 0);
  plan(where, "lines", {lines, static_cast<int64_t>(sizeof(std::string_view))}, kBytes);
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(lines));
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(p, e - p);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    p = e + 1;
  }
  return out;
}

std::vector<std::string> parse_labels(const std::string& file) {
  // one label per line; a last line without '\n' counts, an empty text has no labels; a UTF-8
  // byte order mark before the first is no part of it
  // the labels are planned (and refused) before the lines are split
  const std::string_view text = std::string_view(file).substr(file.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0);
  const int64_t n = static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) +
                    (!text.empty() && text.back() != '\n' ? 1 : 0);
  MemoryPlan plan_labels("read_labels");
  plan_labels.add("labels", {n, static_cast<int64_t>(sizeof(std::string))}, kBytes);
  plan_labels.add("label text", {static_cast<int64_t>(text.size())}, kBytes);
  plan_labels.check();
  const std::vector<std::string_view> lines = split_lines("read_labels", text);
  std::vector<std::string> labels;
  labels.reserve(lines.size());
  for (const std::string_view line : lines) labels.push_back(tsv_unescape(std::string(line)));
  return labels;
}

std::vector<std::string> read_labels(const std::string& path) {
  return parse_labels(read_file("read_labels", path));
}

}  // namespace embedlab
