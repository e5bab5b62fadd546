// The Projector TSV pair of io/projector_tsv.hpp, and the registry entry "tsv" (io/formats.hpp).
#include "io/projector_tsv.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/memory.hpp"
#include "io/formats.hpp"
#include "io/text_rows.hpp"

namespace embedlab {

namespace {

using namespace text;

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

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    const size_t e = line.find('\t', p);
    out.push_back(tsv_unescape(std::string(line.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p))));
    if (e == std::string_view::npos) return out;
    p = e + 1;
  }
}

ImportedTable read_table(std::string_view bytes, const std::string&) { return parse_vectors_tsv(bytes); }

// A first line of tab-separated fields, or of one field (a one-column vectors.tsv).
bool detect(const DetectInput& in) {
  if (in.stage != DetectStage::kLayout) return false;
  const std::string_view first = in.text.substr(0, in.text.find('\n'));
  return first.find('\t') != std::string_view::npos || first.find(' ') == std::string_view::npos;
}

std::string write(const ImportedTable& t) { return projector_vectors_tsv(t.data, t.rows, t.cols); }

}  // namespace

const TableFormat& projector_tsv_format() {
  static const TableFormat f{.name = "tsv", .label = "Projector vectors.tsv", .extensions = {"tsv"}, .out_extension = "tsv",
                             .detect_rank = 3, .detect = detect, .read = read_table, .write = write};
  return f;
}

ImportedTable parse_vectors_tsv(std::string_view bytes) { return text::parse_number_rows(bytes, "read tsv", "tsv", true); }

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
  check_table_shape("projector_vectors_tsv", data, rows, cols);
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
  check_table_shape("write_projector_tsv", data, rows, cols);
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

void attach_metadata(ImportedTable& t, std::string_view metadata_tsv) {
  const char* where = "read metadata";
  if (starts_with_bom(metadata_tsv)) metadata_tsv.remove_prefix(3);
  const std::vector<std::string_view> lines = split_lines(where, metadata_tsv);
  const bool columns = !lines.empty() && lines[0].find('\t') != std::string_view::npos;
  {
    // labels, and (columns) one string per field: a tab or a line ends each
    MemoryPlan p(where);
    p.add("labels", {static_cast<int64_t>(lines.size()), static_cast<int64_t>(sizeof(std::string))}, kBytes);
    p.add("label text", {static_cast<int64_t>(metadata_tsv.size()) * 2}, kBytes);
    if (columns) {
      const int64_t fields = static_cast<int64_t>(std::count(metadata_tsv.begin(), metadata_tsv.end(), '\t') + lines.size());
      p.add("metadata fields", {fields, static_cast<int64_t>(sizeof(std::string))}, kBytes);
      p.add("metadata rows", {static_cast<int64_t>(lines.size()), static_cast<int64_t>(sizeof(std::vector<std::string>))}, kBytes);
    }
    p.check();
  }
  if (!columns) {
    // one label a line, no header (as projector.tensorflow.org reads a single column)
    check_rows(where, static_cast<int64_t>(lines.size()), t);
    std::vector<std::string> labels;
    labels.reserve(lines.size());
    for (const std::string_view l : lines) labels.push_back(tsv_unescape(std::string(l)));
    t.labels = std::move(labels);
    t.metadata_header.clear();
    t.metadata.clear();
    return;
  }
  std::vector<std::string> header = split_tabs(lines[0]);
  check_rows(where, static_cast<int64_t>(lines.size()) - 1, t);
  size_t label_column = 0;
  for (const char* name : {"token", "word", "label"}) {
    for (size_t c = 0; c < header.size(); ++c) {
      if (header[c] == name) label_column = c;
    }
  }
  std::vector<std::vector<std::string>> rows;
  rows.reserve(lines.size() - 1);
  std::vector<std::string> labels;
  labels.reserve(lines.size() - 1);
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> row = split_tabs(lines[i]);
    if (row.size() != header.size()) {
      fail(where, "line " + std::to_string(i + 1) + ": expected " + std::to_string(header.size()) +
                      " columns (as the header), got " + std::to_string(row.size()));
    }
    labels.push_back(row[label_column]);
    rows.push_back(std::move(row));
  }
  t.labels = std::move(labels);
  t.metadata_header = std::move(header);
  t.metadata = std::move(rows);
}

std::string metadata_tsv(const ImportedTable& t) {
  if (t.metadata_header.empty()) return t.labels.empty() ? "" : projector_metadata_tsv(t.labels);
  int64_t total = 0;
  for (const std::string& h : t.metadata_header) total += static_cast<int64_t>(h.size()) * 2 + 1;
  for (const auto& row : t.metadata) {
    for (const std::string& v : row) total += static_cast<int64_t>(v.size()) * 2 + 1;
  }
  std::string out;
  out.reserve(plan("metadata_tsv", "metadata.tsv text", total, kBytes));
  auto line = [&](const std::vector<std::string>& fields) {
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c) out.push_back('\t');
      out += tsv_escape(fields[c]);
    }
    out.push_back('\n');
  };
  line(t.metadata_header);
  for (const auto& row : t.metadata) line(row);
  return out;
}

}  // namespace embedlab
