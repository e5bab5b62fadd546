// The .npy reader and writer of io/npy.hpp, and the registry entry "npy" (io/formats.hpp).
#include "io/npy.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/memory.hpp"
#include "io/formats.hpp"
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

// "F32" for '<f4', "F64" for '<f8', "F16" for '<f2', else the descr as written.
std::string npy_dtype(const std::string& descr) {
  if (descr == "'<f4'") return "F32";
  if (descr == "'<f8'") return "F64";
  if (descr == "'<f2'") return "F16";
  return descr;
}

void put_le32(std::string& out, float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((u >> (8 * b)) & 0xff));
}

ImportedTable read_table(std::string_view bytes, const std::string&) {
  NpyTable n = parse_npy(bytes, "read npy");
  ImportedTable t;
  t.data = std::move(n.data);
  t.rows = n.rows;
  t.cols = n.cols;
  return t;
}

std::vector<TensorInfo> list(std::string_view bytes) {
  const NpyHeader h = parse_npy_header(bytes, "read npy");
  return {TensorInfo{"", npy_dtype(h.descr), h.shape, h.data_offset, bytes.size()}};
}

bool detect(const DetectInput& in) {
  return in.stage == DetectStage::kSignature && in.bytes.size() >= 6 &&
         in.bytes.substr(0, 6) == std::string_view("\x93NUMPY", 6);
}

std::string write(const ImportedTable& t) { return npy_bytes(t.data, t.rows, t.cols); }

}  // namespace

const TableFormat& npy_format() {
  static const TableFormat f{.name = "npy", .label = "NumPy .npy", .extensions = {"npy"}, .out_extension = "npy",
                             .detect_rank = 1, .detect = detect, .read = read_table, .write = write, .list = list};
  return f;
}

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

std::string npy_bytes(std::span<const float> data, int64_t rows, int64_t cols) {
  check_table_shape("write_npy", data, rows, cols);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  // magic(6) + version(2) + header length(2) + header + '\n' is a multiple of 64
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  // the body, 4 bytes a value, planned before it is formed in size_t
  const size_t body = plan("write_npy", ".npy file", {rows, cols, 4}, kBytes);
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  out.reserve(out.size() + body);
  for (float v : data) put_le32(out, v);
  return out;
}

void write_npy(const std::string& path, std::span<const float> data, int64_t rows, int64_t cols) {
  const std::string bytes = npy_bytes(data, rows, cols);
  std::ofstream f(path, std::ios::binary);
  if (!f) fail("write_npy", "cannot open '" + path + "' for writing");
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) fail("write_npy", "writing '" + path + "' failed");
}

}  // namespace embedlab
