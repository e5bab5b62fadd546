// The registry of io/formats.hpp and the steps every format shares: choosing the format (by
// name, extension or bytes), reading and checking a table, listing tensors, writing. Each
// format's own layout is in its file; nothing here names one.
#include "io/formats.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/text_rows.hpp"

namespace embedlab {

#define X(name) const TableFormat& name##_format();
#include "io/format_list.inc"
#undef X

namespace {

std::string format_list(const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return list;
}

std::string check_format(const std::string& format, const std::vector<std::string>& known, const char* where) {
  if (std::find(known.begin(), known.end(), format) != known.end()) return format;
  fail(where, "unknown format '" + format + "', expected " + format_list(known));
}

// The formats in ascending detect_rank.
std::vector<const TableFormat*> by_rank() {
  std::vector<const TableFormat*> out = table_formats();
  std::stable_sort(out.begin(), out.end(), [](const TableFormat* a, const TableFormat* b) { return a->detect_rank < b->detect_rank; });
  return out;
}

// The first format (by rank) whose detect says yes at this stage, or nullptr; only the members of `family` when given.
const TableFormat* detect_at(std::string_view bytes, std::string_view text, DetectStage stage,
                             const std::string& family = "") {
  static const std::vector<const TableFormat*> ranked = by_rank();
  for (const TableFormat* f : ranked) {
    if (!family.empty() && f->family != family) continue;
    if (f->detect && f->detect({bytes, text, stage})) return f;
  }
  return nullptr;
}

std::string message_name(const TableFormat& f) { return f.family.empty() ? f.name : f.family; }

}  // namespace

const std::vector<const TableFormat*>& table_formats() {
  static const std::vector<const TableFormat*> k{
#define X(name) &name##_format(),
#include "io/format_list.inc"
#undef X
  };
  return k;
}

const TableFormat* find_format(const std::string& name) {
  for (const TableFormat* f : table_formats()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

const std::vector<std::string>& import_formats() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> out;
    for (const TableFormat* f : table_formats()) {
      if (f->read) out.push_back(f->name);
    }
    return out;
  }();
  return k;
}

const std::vector<std::string>& export_formats() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> out;
    for (const TableFormat* f : table_formats()) {
      if (f->write) out.push_back(f->name);
    }
    return out;
  }();
  return k;
}

void check_table_not_empty(const std::string& where, int64_t rows, int64_t cols) {
  if (rows > 0 && cols > 0) return;
  fail(where, "the table is " + std::to_string(rows) + " x " + std::to_string(cols) + ": " +
                  (rows == 0 ? "it has no rows" : "its rows have no values") +
                  "; a table needs at least one row and one column");
}

void check_table_shape(const char* where, std::span<const float> data, int64_t rows, int64_t cols) {
  check_at_least(where, "rows", rows, 0);
  check_at_least(where, "cols", cols, 1);
  uint64_t want = 0;  // rows x cols in 64 bits: a 32-bit size_t product could wrap to data.size()
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), &want) ||
      want != data.size()) {
    fail(where, "table of " + std::to_string(data.size()) + " values is not " +
                    std::to_string(rows) + " x " + std::to_string(cols));
  }
}

std::string format_for_name(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = name.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const TableFormat* f : table_formats()) {
    if (std::find(f->extensions.begin(), f->extensions.end(), ext) != f->extensions.end()) return f->name;
  }
  return "";
}

std::string detect_format(std::string_view bytes) {
  if (bytes.empty()) fail("import", "the file is empty");
  const std::string_view text = bytes.substr(starts_with_bom(bytes) ? 3 : 0);
  if (const TableFormat* f = detect_at(bytes, text, DetectStage::kSignature)) return f->name;
  // every other format is text: a control byte near the start is no table this reads
  const std::string_view head = text.substr(0, 4096);
  for (size_t i = 0; i < head.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      fail("import", "cannot tell the format: not .npy (no \\x93NUMPY magic), not safetensors (no header length "
                     "and '{'), not word2vec (line 1 is not 'N D'), and byte " + std::to_string(i + bytes.size() - text.size()) +
                     " is " + hex + ", which no text table holds (formats read: " + format_list(import_formats()) + ")");
    }
  }
  if (const TableFormat* f = detect_at(bytes, text, DetectStage::kLayout)) return f->name;
  fail("import", "cannot tell the format: not .npy (no \\x93NUMPY magic), not safetensors (no header length "
                 "and '{'), and line 1 is not a word2vec header 'N D', a GloVe row 'word numbers', a savetxt "
                 "row of numbers or a vectors.tsv row (formats read: " + format_list(import_formats()) + ")");
}

std::string resolve_format(std::string_view bytes, const std::string& format, const std::string& name) {
  if (!format.empty()) return check_format(format, import_formats(), "import");
  const std::string named = format_for_name(name);
  if (named.empty()) return detect_format(bytes);
  // .bin and .vec name word2vec; the bytes say which of its two layouts
  const TableFormat& f = *find_format(named);
  if (!f.family.empty()) {
    if (const TableFormat* member = detect_at(bytes, bytes, DetectStage::kSignature, f.family)) return member->name;
  }
  return named;
}

ImportedTable import_table(std::string_view bytes, const std::string& format, const std::string& tensor,
                           const std::string& name) {
  const TableFormat& f = *find_format(resolve_format(bytes, format, name));
  if (!tensor.empty() && !f.tensors) {
    std::string with;
    for (const TableFormat* g : table_formats()) {
      if (g->tensors) with += (with.empty() ? "" : ", ") + g->name;
    }
    fail("import", "a tensor name ('" + tensor + "') only applies to " + with + " files, this is " + f.name);
  }
  ImportedTable t = f.read(bytes, tensor);
  check_table_not_empty("read " + message_name(f), t.rows, t.cols);
  t.format = f.name;
  return t;
}

std::vector<TensorInfo> list_tensors(std::string_view bytes, const std::string& format, const std::string& name) {
  const TableFormat& f = *find_format(resolve_format(bytes, format, name));
  if (f.list) return f.list(bytes);
  const ImportedTable t = import_table(bytes, f.name);
  return {TensorInfo{"", "text", {t.rows, t.cols}, 0, bytes.size()}};
}

std::string export_table(const ImportedTable& t, const std::string& format) {
  return find_format(check_format(format, export_formats(), "export"))->write(t);
}

}  // namespace embedlab
