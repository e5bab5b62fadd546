#include "io/table_writers.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {

void check_shape(const char* where, std::span<const float> data, int64_t rows, int64_t cols) {
  check_at_least(where, "rows", rows, 0);
  check_at_least(where, "cols", cols, 1);
  uint64_t want = 0;  // rows x cols in 64 bits: a 32-bit size_t product could wrap to data.size()
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), &want) ||
      want != data.size()) {
    fail(where, "table of " + std::to_string(data.size()) + " values is not " +
                    std::to_string(rows) + " x " + std::to_string(cols));
  }
}

// Bytes per value in vectors.tsv at most: "%.9g" of a float is <= 15 bytes, and a tab or '\n'.
constexpr int64_t kTsvValueBytes = 16;

// One row of vectors.tsv, '\n' included, appended to out.
void append_vector_row(std::string& out, const float* row, int64_t cols) {
  char buf[32];
  for (int64_t c = 0; c < cols; ++c) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(row[c]));
    if (c) out.push_back('\t');
    out += buf;
  }
  out.push_back('\n');
}

// One line of metadata.tsv, '\n' included, appended to out.
void append_label_line(std::string& out, const std::string& label) {
  out += tsv_escape(label);
  out.push_back('\n');
}

// A metadata.tsv reader drops one UTF-8 byte order mark before the first label
// (parse_labels), so a first label that starts with one is written after a mark of its own.
std::string_view label_file_lead(const std::vector<std::string>& labels) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return !labels.empty() && labels.front().starts_with(kBom) ? kBom : std::string_view();
}

void check_labels(const char* where, const std::vector<std::string>& labels, int64_t rows) {
  if (static_cast<int64_t>(labels.size()) != rows) {
    fail(where, "got " + std::to_string(labels.size()) + " labels for " + std::to_string(rows) + " rows");
  }
}

void put_le32(std::string& out, float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((u >> (8 * b)) & 0xff));
}

}  // namespace

std::string npy_bytes(std::span<const float> data, int64_t rows, int64_t cols) {
  check_shape("write_npy", data, rows, cols);
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

std::string tsv_escape(const std::string& label) {
  std::string out;
  for (char c : label) {
    switch (c) {
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string projector_vectors_tsv(std::span<const float> data, int64_t rows, int64_t cols) {
  check_shape("projector_vectors_tsv", data, rows, cols);
  std::string out;
  out.reserve(plan("projector_vectors_tsv", "vectors.tsv text", {rows, cols, kTsvValueBytes}, kBytes));
  for (int64_t r = 0; r < rows; ++r) append_vector_row(out, data.data() + r * cols, cols);
  return out;
}

std::string projector_metadata_tsv(const std::vector<std::string>& labels) {
  const std::string_view lead = label_file_lead(labels);
  int64_t total = static_cast<int64_t>(lead.size());  // the escaped bytes and a '\n' per label, exactly
  for (const std::string& l : labels) {
    total += static_cast<int64_t>(l.size()) + 1;
    for (const char c : l) total += c == '\t' || c == '\n' || c == '\r' || c == '\\';
  }
  std::string out;
  out.reserve(plan("projector_metadata_tsv", "metadata.tsv text", total, kBytes));
  out += lead;
  for (const std::string& l : labels) append_label_line(out, l);
  return out;
}

void write_projector_tsv(const std::string& dir, std::span<const float> data, int64_t rows,
                         int64_t cols, const std::vector<std::string>& labels) {
  check_shape("write_projector_tsv", data, rows, cols);
  check_labels("write_projector_tsv", labels, rows);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail("write_projector_tsv", "cannot create directory '" + dir + "': " + ec.message());
  std::ofstream v(dir + "/vectors.tsv"), m(dir + "/metadata.tsv");
  if (!v || !m) fail("write_projector_tsv", "cannot open files in '" + dir + "' for writing");
  // one row at a time (the whole text of a big table need not fit), formatted as
  // projector_vectors_tsv and projector_metadata_tsv do
  plan("write_projector_tsv", "line", {cols, kTsvValueBytes}, kBytes);
  std::string line, label;
  m << label_file_lead(labels);
  for (int64_t r = 0; r < rows; ++r) {
    line.clear();
    label.clear();
    append_vector_row(line, data.data() + r * cols, cols);
    append_label_line(label, labels[static_cast<size_t>(r)]);
    v << line;
    m << label;
  }
  if (!v || !m) fail("write_projector_tsv", "writing into '" + dir + "' failed");
}

}  // namespace embedlab
