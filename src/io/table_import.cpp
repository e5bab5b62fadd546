#include "io/table_import.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/known_tables.hpp"
#include "io/safetensors.hpp"
#include "io/table_readers.hpp"
#include "io/table_writers.hpp"
#include "io/text_tables.hpp"

namespace embedlab {

namespace {

bool looks_like_safetensors(std::string_view bytes) {
  if (bytes.size() < 9) return false;
  uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(bytes[static_cast<size_t>(b)]);
  return n >= 2 && n <= bytes.size() - 8 && bytes[8] == '{';
}

// "F32" for '<f4', "F64" for '<f8', "F16" for '<f2', else the descr as written.
std::string npy_dtype(const std::string& descr) {
  if (descr == "'<f4'") return "F32";
  if (descr == "'<f8'") return "F64";
  if (descr == "'<f2'") return "F16";
  return descr;
}

std::string format_list(const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return list;
}

std::string check_format(const std::string& format, const std::vector<std::string>& known, const char* where) {
  if (std::find(known.begin(), known.end(), format) != known.end()) return format;
  fail(where, "unknown format '" + format + "', expected " + format_list(known));
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

void check_rows(const char* where, int64_t got, const ImportedTable& t) {
  if (got != t.rows) {
    fail(where, std::to_string(got) + " rows for a table of " + std::to_string(t.rows) + " rows");
  }
}

void plan_labels(const char* where, int64_t rows, size_t text_bytes) {
  MemoryPlan p(where);
  p.add("labels", {rows, static_cast<int64_t>(sizeof(std::string))}, kBytes);
  p.add("label text", {static_cast<int64_t>(text_bytes)}, kBytes);
  p.check();
}

}  // namespace

const std::vector<std::string>& import_formats() {
  static const std::vector<std::string> k{"npy", "safetensors", "tsv", "word2vec-text", "word2vec-binary", "glove", "savetxt"};
  return k;
}

const std::vector<std::string>& export_formats() {
  static const std::vector<std::string> k{"npy", "tsv", "word2vec-text", "word2vec-binary"};
  return k;
}

void check_table_not_empty(const std::string& where, int64_t rows, int64_t cols) {
  if (rows > 0 && cols > 0) return;
  fail(where, "the table is " + std::to_string(rows) + " x " + std::to_string(cols) + ": " +
                  (rows == 0 ? "it has no rows" : "its rows have no values") +
                  "; a table needs at least one row and one column");
}

std::string format_for_name(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = name.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (ext == "npy") return "npy";
  if (ext == "safetensors") return "safetensors";
  if (ext == "tsv") return "tsv";
  if (ext == "bin") return "word2vec-binary";
  if (ext == "vec") return "word2vec-text";
  return "";
}

std::string detect_format(std::string_view bytes) {
  if (bytes.empty()) fail("import", "the file is empty");
  if (bytes.size() >= 6 && bytes.substr(0, 6) == std::string_view("\x93NUMPY", 6)) return "npy";
  if (looks_like_safetensors(bytes)) return "safetensors";
  const std::string_view text = bytes.substr(starts_with_bom(bytes) ? 3 : 0);
  if (has_word2vec_header(text)) {
    // integers from numpy.savetxt(fmt='%d') in two columns look like a word2vec header: numbers
    // throughout whose line 2 is not a word and D numbers are savetxt
    if (numbers_only(text) && !word2vec_row_fits(text)) return "savetxt";
    return word2vec_is_text(text) ? "word2vec-text" : "word2vec-binary";
  }
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
  const size_t e = text.find('\n');
  const std::string_view first = text.substr(0, e);
  if (first.find('\t') != std::string_view::npos) return "tsv";
  // one row of numbers: a one-column vectors.tsv; numbers on every line: savetxt; a word then
  // numbers: GloVe
  const size_t space = first.find(' ');
  if (space == std::string_view::npos) return "tsv";
  if (numbers_only(text)) return "savetxt";
  std::string_view rest = first.substr(space + 1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  const size_t last = rest.rfind(' ');
  const std::string_view tail = last == std::string_view::npos ? rest : rest.substr(last + 1);
  if (!tail.empty() && tail.find_first_not_of("0123456789.eE+-") == std::string_view::npos &&
      tail.find_first_of("0123456789") != std::string_view::npos) {
    return "glove";
  }
  fail("import", "cannot tell the format: not .npy (no \\x93NUMPY magic), not safetensors (no header length "
                 "and '{'), and line 1 is not a word2vec header 'N D', a GloVe row 'word numbers', a savetxt "
                 "row of numbers or a vectors.tsv row (formats read: " + format_list(import_formats()) + ")");
}

std::string resolve_format(std::string_view bytes, const std::string& format, const std::string& name) {
  if (!format.empty()) return check_format(format, import_formats(), "import");
  const std::string named = format_for_name(name);
  // .bin and .vec name word2vec; the bytes say which of its two layouts
  if (named.rfind("word2vec", 0) == 0 && has_word2vec_header(bytes)) {
    return word2vec_is_text(bytes) ? "word2vec-text" : "word2vec-binary";
  }
  return named.empty() ? detect_format(bytes) : named;
}

ImportedTable import_table(std::string_view bytes, const std::string& format, const std::string& tensor,
                           const std::string& name) {
  const std::string f = resolve_format(bytes, format, name);
  if (!tensor.empty() && f != "safetensors") {
    fail("import", "a tensor name ('" + tensor + "') only applies to safetensors files, this is " + f);
  }
  ImportedTable t;
  if (f == "npy") {
    NpyTable n = parse_npy(bytes, "read npy");
    t.data = std::move(n.data);
    t.rows = n.rows;
    t.cols = n.cols;
  } else if (f == "safetensors") {
    const std::vector<TensorInfo> all = list_tensors(bytes, "safetensors");
    const TensorInfo& pick = safetensors_pick(all, tensor);
    t = decode_tensor_at("read safetensors: tensor '" + pick.name + "'",
                         bytes.substr(static_cast<size_t>(pick.begin), static_cast<size_t>(pick.end - pick.begin)),
                         pick.dtype, pick.shape);
    t.tensor = pick.name;
    recognise_known_table(t);
  } else if (f == "tsv") {
    t = parse_vectors_tsv(bytes);
  } else if (f == "savetxt") {
    t = parse_savetxt(bytes);
  } else if (f == "word2vec-text") {
    t = parse_word2vec_text(bytes);
  } else if (f == "word2vec-binary") {
    t = parse_word2vec_binary(bytes);
  } else {
    t = parse_glove(bytes);
  }
  check_table_not_empty("read " + (f.rfind("word2vec", 0) == 0 ? std::string("word2vec") : f), t.rows, t.cols);
  t.format = f;
  return t;
}

std::vector<TensorInfo> list_tensors(std::string_view bytes, const std::string& format, const std::string& name) {
  const std::string f = resolve_format(bytes, format, name);
  if (f == "safetensors") {
    return safetensors_header(bytes.substr(0, std::min<uint64_t>(bytes.size(), safetensors_header_size(bytes))), bytes.size());
  }
  if (f == "npy") {
    const NpyHeader h = parse_npy_header(bytes, "read npy");
    return {TensorInfo{"", npy_dtype(h.descr), h.shape, h.data_offset, bytes.size()}};
  }
  const ImportedTable t = import_table(bytes, f);
  return {TensorInfo{"", "text", {t.rows, t.cols}, 0, bytes.size()}};
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

void attach_vocab(ImportedTable& t, std::string_view vocab_text) {
  const char* where = "read vocab";
  if (starts_with_bom(vocab_text)) vocab_text.remove_prefix(3);
  const std::vector<std::string_view> lines = split_lines(where, vocab_text);
  check_rows(where, static_cast<int64_t>(lines.size()), t);
  plan_labels(where, static_cast<int64_t>(lines.size()), vocab_text.size());
  std::vector<std::string> labels(lines.begin(), lines.end());
  t.labels = std::move(labels);
  t.metadata_header.clear();
  t.metadata.clear();
}

std::string export_table(const ImportedTable& t, const std::string& format) {
  const std::string f = check_format(format, export_formats(), "export");
  if (f == "npy") return npy_bytes(t.data, t.rows, t.cols);
  if (f == "tsv") return projector_vectors_tsv(t.data, t.rows, t.cols);
  if (f == "word2vec-text") return word2vec_text(t);
  return word2vec_binary(t);
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
