#include "io/table_import.hpp"

#include <algorithm>

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

std::string check_format(const std::string& format, const std::vector<std::string>& known, const char* where) {
  if (std::find(known.begin(), known.end(), format) != known.end()) return format;
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  fail(where, "unknown format '" + format + "', expected " + list);
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
  static const std::vector<std::string> k{"npy", "safetensors", "tsv", "word2vec-text", "word2vec-binary", "glove"};
  return k;
}

const std::vector<std::string>& export_formats() {
  static const std::vector<std::string> k{"npy", "tsv", "word2vec-text", "word2vec-binary"};
  return k;
}

std::string detect_format(std::string_view bytes) {
  if (bytes.size() >= 6 && bytes.substr(0, 6) == std::string_view("\x93NUMPY", 6)) return "npy";
  if (looks_like_safetensors(bytes)) return "safetensors";
  if (has_word2vec_header(bytes)) return word2vec_is_text(bytes) ? "word2vec-text" : "word2vec-binary";
  const size_t e = bytes.find('\n');
  const std::string_view first = bytes.substr(0, e);
  if (first.find('\t') != std::string_view::npos) return "tsv";
  if (bytes.empty()) fail("import", "the file is empty");
  // one row of numbers: a one-column vectors.tsv; a word then numbers: GloVe
  const size_t space = first.find(' ');
  std::string_view rest = space == std::string_view::npos ? std::string_view() : first.substr(space + 1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  if (space == std::string_view::npos) return "tsv";
  const size_t last = rest.rfind(' ');
  const std::string_view tail = last == std::string_view::npos ? rest : rest.substr(last + 1);
  if (!tail.empty() && tail.find_first_not_of("0123456789.eE+-") == std::string_view::npos &&
      tail.find_first_of("0123456789") != std::string_view::npos) {
    return "glove";
  }
  fail("import", "cannot tell the format: not .npy (no \\x93NUMPY magic), not safetensors (no header length "
                 "and '{'), and line 1 is not a word2vec header 'N D', a GloVe row 'word numbers' or a "
                 "vectors.tsv row (formats read: npy, safetensors, tsv, word2vec-text, word2vec-binary, glove)");
}

ImportedTable import_table(std::string_view bytes, const std::string& format, const std::string& tensor) {
  const std::string f = format.empty() ? detect_format(bytes) : check_format(format, import_formats(), "import");
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
  } else if (f == "word2vec-text") {
    t = parse_word2vec_text(bytes);
  } else if (f == "word2vec-binary") {
    t = parse_word2vec_binary(bytes);
  } else {
    t = parse_glove(bytes);
  }
  t.format = f;
  return t;
}

std::vector<TensorInfo> list_tensors(std::string_view bytes, const std::string& format) {
  const std::string f = format.empty() ? detect_format(bytes) : check_format(format, import_formats(), "import");
  if (f == "safetensors") {
    std::vector<TensorInfo> all = safetensors_header(bytes.substr(0, std::min<uint64_t>(bytes.size(), safetensors_header_size(bytes))));
    for (const TensorInfo& t : all) {
      if (t.end > bytes.size()) {
        fail("read safetensors", "tensor '" + t.name + "': its data [" + std::to_string(t.begin) + ", " +
                                     std::to_string(t.end) + ") runs past the end of the file (" +
                                     std::to_string(bytes.size()) + " bytes)");
      }
    }
    return all;
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
  const std::vector<std::string_view> lines = split_lines(where, metadata_tsv);
  plan_labels(where, static_cast<int64_t>(lines.size()), metadata_tsv.size() * 2);
  const bool columns = !lines.empty() && lines[0].find('\t') != std::string_view::npos;
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
