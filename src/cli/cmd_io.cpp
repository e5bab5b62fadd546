// embedlab inspect | convert: tables in every format io/formats.hpp reads, and the
// `--table PATH[:TENSOR]` argument that pca, neighbours and analogy share.
//
// inspect --table PATH
//   -> {"path","format","bytes","tensors":[{"name","dtype","shape":[...],"begin","end"}],"metadata":{...}}
//      (safetensors: every tensor and the __metadata__ map, read from the header only)
// convert --table IN[:TENSOR] [--metadata M | --vocab V] --out OUT [--format F]
//   F: a format io/formats.hpp can write (npy | tsv | word2vec-text | word2vec-binary), else the one
//   whose out_extension OUT has (.npy, .tsv, .txt, .bin). A .tsv also gets metadata.tsv beside it (OUT's folder; NAME-metadata.tsv unless OUT is
//   vectors.tsv) when the table has labels.
//   -> {"in","format_in","tensor","out","format","rows","cols","labels","files":[...]}
// It does not look at values (pca, neighbours, analogy do: cmd_analysis.cpp).
#include <climits>
#include <filesystem>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/file.hpp"
#include "io/formats.hpp"
#include "io/projector_tsv.hpp"
#include "io/table_files.hpp"
#include "io/vocab.hpp"

namespace embedlab::cli {

TableArg split_table_arg(const std::string& spec) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const size_t colon = spec.rfind(':');
  // subtle: a path may hold ':'; split only when the whole is not a file and the part before the
  // last ':' is one
  if (colon != std::string::npos && !fs::exists(spec, ec) && fs::is_regular_file(spec.substr(0, colon), ec)) {
    return {spec.substr(0, colon), spec.substr(colon + 1)};
  }
  return {spec, ""};
}

ImportedTable load_table_arg(const std::string& spec) {
  const TableArg a = split_table_arg(spec);
  return read_table("--table", a.path, "", a.tensor);
}

namespace {

// The writable formats' names (extensions: their out extensions, with the dot) joined by sep,
// the last two by last: "npy, tsv, word2vec-text or word2vec-binary".
std::string writable_list(bool extensions, const char* sep = ", ", const char* last = " or ") {
  std::vector<std::string> items;
  for (const TableFormat* f : table_formats()) {
    if (f->write && (!extensions || !f->out_extension.empty())) items.push_back(extensions ? "." + f->out_extension : f->name);
  }
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? last : sep) + items[i];
  return out;
}

// "npy|tsv|word2vec-text|word2vec-binary": convert's --format placeholder, made once.
const char* format_choices() {
  static const std::string choices = writable_list(false, "|", "|");
  return choices.c_str();
}

std::string format_from_extension(const std::string& out) {
  const std::string ext = std::filesystem::path(out).extension().string();
  for (const TableFormat* f : table_formats()) {
    if (f->write && !f->out_extension.empty() && ext == "." + f->out_extension) return f->name;
  }
  fail("convert", "cannot tell the format from '" + out + "' (expected " + writable_list(true) + "); give --format");
}

std::string metadata_path(const std::string& out) {
  const std::filesystem::path p(out);
  const std::string stem = p.stem().string();
  return (p.parent_path() / (stem == "vectors" ? "metadata.tsv" : stem + "-metadata.tsv")).string();
}

int cmd_inspect(Args& a, std::ostream& out) {
  const std::string path = a.text("table");
  a.finish();
  TableFileInfo info;
  const std::vector<TensorInfo> tensors = read_tensor_list("--table", path, &info);
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  out << "{\"path\":" << json_string(path) << ",\"format\":" << json_string(info.format);
  out << ",\"bytes\":" << (ec ? 0 : bytes) << ",\"tensors\":[";
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorInfo& t = tensors[i];
    out << (i ? "," : "") << "{\"name\":" << json_string(t.name) << ",\"dtype\":" << json_string(t.dtype) << ",\"shape\":[";
    for (size_t d = 0; d < t.shape.size(); ++d) out << (d ? "," : "") << t.shape[d];
    out << "],\"begin\":" << t.begin << ",\"end\":" << t.end << "}";
  }
  out << "]";
  if (info.format == "safetensors") {
    out << ",\"metadata\":{";
    for (size_t i = 0; i < info.metadata.size(); ++i) {
      out << (i ? "," : "") << json_string(info.metadata[i].first) << ":" << json_string(info.metadata[i].second);
    }
    out << "}";
  }
  out << "}\n";
  return 0;
}

int cmd_convert(Args& a, std::ostream& out) {
  const TableArg in = split_table_arg(a.text("table"));
  const std::string dest = a.text("out");
  const std::string format = a.has("format") ? a.text("format") : format_from_extension(dest);
  const TableFormat* known = find_format(format);
  if (!known || !known->write) fail("--format", "unknown format '" + format + "', expected " + writable_list(false));
  const std::string metadata = a.has("metadata") ? a.text("metadata") : "";
  const std::string vocab = a.has("vocab") ? a.text("vocab") : "";
  a.finish();
  if (!metadata.empty() && !vocab.empty()) fail("convert", "give labels as --metadata or as --vocab, not both");
  check_output_file("--out", dest);
  ImportedTable t = read_table("--table", in.path, "", in.tensor);
  const std::string labels_flag = metadata.empty() ? "--vocab" : "--metadata";
  const std::string labels_path = metadata.empty() ? vocab : metadata;
  if (!labels_path.empty()) {
    const std::string text = read_file(labels_flag, labels_path);
    try {
      if (!metadata.empty()) attach_metadata(t, text);
      else attach_vocab(t, text);
    } catch (const Error& e) {
      throw Error(labels_flag + " " + labels_path + ": " + e.what());
    }
  }
  const std::string bytes = export_table(t, format);
  std::vector<std::string> files{dest};
  std::string meta_text, meta_path;
  if (format == "tsv" && !t.labels.empty()) {
    meta_path = metadata_path(dest);
    check_output_file("--out", meta_path);
    meta_text = metadata_tsv(t);
    files.push_back(meta_path);
  }
  // the table and its metadata.tsv replace the old files together or not at all
  std::vector<std::pair<std::string, std::string>> writes{{dest, bytes}};
  if (!meta_path.empty()) writes.emplace_back(meta_path, meta_text);
  write_output_files("--out", writes);
  out << "{\"in\":" << json_string(in.path) << ",\"format_in\":" << json_string(t.format)
      << ",\"tensor\":" << json_string(t.tensor) << ",\"out\":" << json_string(dest) << ",\"format\":" << json_string(format)
      << ",\"rows\":" << t.rows << ",\"cols\":" << t.cols << ",\"labels\":" << (t.labels.empty() ? "false" : "true")
      << ",\"files\":[";
  for (size_t i = 0; i < files.size(); ++i) out << (i ? "," : "") << json_string(files[i]);
  out << "]}\n";
  return 0;
}

}  // namespace

const CommandSpec kInspect{
    "inspect",
    "The tensors of a table file, their dtypes, shapes and byte ranges (safetensors: header only).",
    {{"table", "PATH", "a .npy, .safetensors, vectors.tsv, word2vec (.txt/.bin) or GloVe file", true}},
    {},
    cmd_inspect};

const CommandSpec kConvert{
    "convert",
    "Converts a table between .npy, Projector .tsv (+ metadata.tsv), word2vec .txt and .bin.",
    {{"table", "IN[:TENSOR]", "the input, any format inspect reads; :TENSOR picks a safetensors tensor", true},
     {"out", "OUT", "the output file (.npy, .tsv, .txt = word2vec text, .bin = word2vec binary)", true, 'o'},
     {"format", format_choices(), "the output format (default: from OUT's extension)"},
     {"metadata", "M", "Projector metadata.tsv labelling the rows"},
     {"vocab", "V", "a vocabulary file, one token a line, labelling the rows"}},
    {},
    cmd_convert};

}  // namespace embedlab::cli
