// Bindings for resident tables: a table imported or handed over once stays in the engine, and
// every query (neighbours, analogies, PCA, norms, similarities, rows) runs on it without copying
// it across the boundary again. The JS API is api/tables.post.js (M.Table).
//
//   _Table: initArray(Float32Array, rows, dim) | initBytes(Uint8Array, format, tensor, name) |
//           initTensor(Uint8Array, dtype, shape: Float64Array) | initUnitRows(_Table)
//           rows(), dim(), format(), tensor(), labels() -> {bytes: Uint8Array, offsets: Int32Array} | undefined
//           setLabels(bytes, offsets), attachMetadata(Uint8Array), attachVocab(Uint8Array)
//           row(i), norms(), nearest(id | -1, vector, k, metric), analogy(pos, neg, k),
//           pca(k, ids, previous), similarity(ids, cosine), exportBytes(format | 'metadata')
//   _safetensorsHeaderSize(first 8 bytes), _safetensorsHeader(head bytes, file size | -1), _listTensors(bytes, format)
//   _tableFormats() -> [{name, label, extensions, outExtension, canRead, canWrite, tensors}] (io/formats.hpp)
// The neighbour index (row norms) is built on the first query and kept until the table changes.
#include "bindings/common.hpp"

#include <memory>

#include "bench/bench_table.hpp"
#include "io/formats.hpp"
#include "io/known_tables.hpp"
#include "io/projector_tsv.hpp"
#include "io/safetensors.hpp"
#include "io/vocab.hpp"
#include "kernels/kernels.hpp"
#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

constexpr ElementType kLabelSlot{"label", sizeof(std::string)};  // the text itself is planned as bytes_in's copy

val tensors_js(const std::vector<TensorInfo>& ts) {
  val out = val::array();
  for (const TensorInfo& t : ts) {
    val o = val::object();
    o.set("name", bytes_out(t.name));
    o.set("dtype", std::string(t.dtype));
    val shape = val::array();
    for (int64_t n : t.shape) shape.call<void>("push", static_cast<double>(n));
    o.set("shape", shape);
    o.set("begin", static_cast<double>(t.begin));
    o.set("end", static_cast<double>(t.end));
    out.call<void>("push", o);
  }
  return out;
}

// Strings -> {bytes: Uint8Array (all, UTF-8), offsets: Int32Array (n + 1)}
val strings_js(const std::vector<std::string>& s) {
  std::string all;
  std::vector<int32_t> offsets(plan("Table.labels", "label offsets", static_cast<int64_t>(s.size()) + 1, kInt32), 0);
  for (size_t i = 0; i < s.size(); ++i) {
    all += s[i];
    if (all.size() > static_cast<size_t>(kInt32Max)) fail("Table.labels", "labels exceed 2 GiB");
    offsets[i + 1] = static_cast<int32_t>(all.size());
  }
  val o = val::object();
  o.set("bytes", bytes_out(all));
  o.set("offsets", copy_out(offsets));
  return o;
}

class TableHandle {
 public:
  bool init_array(val data, double rows, double dim) {
    const char* where = "Table.fromArray";
    return guard(where, [&] {
      ImportedTable t;
      t.rows = size_arg(where, "rows", rows, 0);
      t.cols = size_arg(where, "dim", dim);
      t.data = copy_in<float>(where, "data", data);
      if (static_cast<uint64_t>(t.data.size()) != static_cast<uint64_t>(t.rows) * static_cast<uint64_t>(t.cols)) {
        fail(where, "data has " + std::to_string(t.data.size()) + " values, expected " + std::to_string(t.rows) + " x " +
                        std::to_string(t.cols));
      }
      check_table_not_empty(where, t.rows, t.cols);
      t.format = "array";
      replace(std::move(t));
      return true;
    });
  }
  // name: the file's name ("" if none); its extension picks the format when format is ""
  bool init_bytes(val bytes, val format, val tensor, val name) {
    const char* where = "Table.fromBytes";
    return guard(where, [&] {
      const std::string b = bytes_in(where, "bytes", bytes);
      ImportedTable t = import_table(b, name_arg(where, "format", format), bytes_in(where, "tensor", tensor),
                                     bytes_in(where, "name", name));
      if (t.rows == 0) fail(where, "the " + t.format + " file holds no rows (" + std::to_string(b.size()) + " bytes)");
      replace(std::move(t));
      return true;
    });
  }
  // one tensor's bytes (a slice of a safetensors file); name: its tensor name, for recognition
  bool init_tensor(val bytes, val dtype, val shape, val name) {
    const char* where = "Table.fromTensor";
    return guard(where, [&] {
      const std::string b = bytes_in(where, "bytes", bytes);
      std::vector<int64_t> dims;
      for (double d : copy_in<double>(where, "shape", shape)) dims.push_back(int_arg(where, "shape", d, 0, kSafeMax));
      const std::string tensor = bytes_in(where, "name", name);
      ImportedTable t = decode_tensor_at(tensor.empty() ? "read safetensors" : "read safetensors: tensor '" + tensor + "'", b,
                                         name_arg(where, "dtype", dtype), dims);
      t.format = "safetensors";
      t.tensor = tensor;
      recognise_known_table(t);
      replace(std::move(t));
      return true;
    });
  }

  // a copy of src with every row scaled to length 1 (analysis/neighbours.hpp unit_rows; zero rows
  // stay zero), keeping its labels, metadata, format, tensor and recognition
  bool init_unit_rows(const TableHandle& src) {
    const char* where = "Table.normalised";
    return guard(where, [&] {
      const ImportedTable& s = src.t_;
      ImportedTable t;
      t.data = unit_rows(s.data, s.rows, s.cols);
      t.rows = s.rows;
      t.cols = s.cols;
      t.labels = s.labels;
      t.metadata_header = s.metadata_header;
      t.metadata = s.metadata;
      t.format = s.format;
      t.tensor = s.tensor;
      t.recognised = s.recognised;
      replace(std::move(t));
      return true;
    });
  }

  double rows() const { return static_cast<double>(t_.rows); }
  double dim() const { return static_cast<double>(t_.cols); }
  std::string format() const { return t_.format; }
  std::string recognised() const { return t_.recognised; }
  val tensor() const { return bytes_out(t_.tensor); }
  val labels() {
    return guard("Table.labels", [&] { return t_.labels.empty() ? val::undefined() : strings_js(t_.labels); });
  }
  val metadata_header() {
    return guard("Table.metadata", [&] { return strings_js(t_.metadata_header); });
  }
  // column c of the metadata (c < metadata_header.size()) -> strings
  val metadata_column(double c) {
    const char* where = "Table.metadata";
    return guard(where, [&] {
      const int64_t col = int_arg(where, "column", c, 0, static_cast<int64_t>(t_.metadata_header.size()) - 1);
      std::vector<std::string> v(plan(where, "column", static_cast<int64_t>(t_.metadata.size()), kLabelSlot));
      for (size_t r = 0; r < v.size(); ++r) v[r] = col < static_cast<int64_t>(t_.metadata[r].size()) ? t_.metadata[r][col] : "";
      return strings_js(v);
    });
  }
  bool set_labels(val bytes, val offsets) {
    const char* where = "Table.setLabels";
    return guard(where, [&] {
      const std::string b = bytes_in(where, "labels", bytes);
      const std::vector<int32_t> off = copy_in<int32_t>(where, "offsets", offsets);
      if (off.size() != static_cast<size_t>(t_.rows) + 1) {
        fail(where, "labels: " + std::to_string(off.empty() ? 0 : off.size() - 1) + " labels for " + std::to_string(t_.rows) + " rows");
      }
      std::vector<std::string> labels(plan(where, "labels", t_.rows, kLabelSlot));
      for (size_t i = 0; i < labels.size(); ++i) {
        if (off[i] < 0 || off[i] > off[i + 1] || static_cast<size_t>(off[i + 1]) > b.size()) fail(where, "label offsets out of order");
        labels[i] = b.substr(static_cast<size_t>(off[i]), static_cast<size_t>(off[i + 1] - off[i]));
      }
      t_.labels = std::move(labels);
      return true;
    });
  }
  bool attach_metadata_js(val bytes) {
    return guard("Table.attachMetadata", [&] {
      const std::string text = bytes_in("Table.attachMetadata", "metadata", bytes);
      ImportedTable t = t_;  // nothing half-attached: the copy is swapped in only when it parsed
      attach_metadata(t, text);
      t_.labels = std::move(t.labels);
      t_.metadata_header = std::move(t.metadata_header);
      t_.metadata = std::move(t.metadata);
      return true;
    });
  }
  bool attach_vocab_js(val bytes) {
    return guard("Table.attachVocab", [&] {
      const std::string text = bytes_in("Table.attachVocab", "vocabulary", bytes);
      ImportedTable t = t_;
      attach_vocab(t, text);
      t_.labels = std::move(t.labels);
      return true;
    });
  }

  val row(double i) {
    return guard("Table.row", [&] {
      const int64_t r = int_arg("Table.row", "row", i, 0, t_.rows - 1);
      return copy_out(t_.data.data() + r * t_.cols, static_cast<size_t>(t_.cols));
    });
  }
  val norms() {
    return guard("Table.norms", [&] {
      const NeighbourIndex& idx = index();
      std::vector<float> n(plan("Table.norms", "norms", t_.rows, kFloat32));
      for (int64_t r = 0; r < t_.rows; ++r) n[r] = idx.norm(static_cast<int32_t>(r));
      return copy_out(n);
    });
  }
  // id >= 0: the rows nearest row id (itself left out); id = -1: nearest the vector (dim)
  val nearest(double id, val vector, double k, val metric) {
    const char* where = "Table.neighbours";
    return guard(where, [&] {
      const int64_t row = int_arg(where, "id", id, -1, t_.rows - 1);
      const int64_t kk = int32_arg(where, "k", k);
      const Metric m = parse_metric(name_arg(where, "metric", metric));
      const std::vector<float> query = row >= 0 ? std::vector<float>() : copy_in<float>(where, "vector", vector);
      return neighbours_js(row >= 0 ? index().nearest(static_cast<int32_t>(row), kk, m) : index().nearest_to(query, kk, m));
    });
  }
  val analogy(val positive, val negative, double k) {
    const char* where = "Table.analogy";
    return guard(where, [&] {
      const std::vector<int32_t> pos = copy_in<int32_t>(where, "positive", positive);
      const std::vector<int32_t> neg = copy_in<int32_t>(where, "negative", negative);
      const int64_t kk = int32_arg(where, "k", k);
      return neighbours_js(index().analogy(pos, neg, kk));
    });
  }
  val pca_js(double k, val ids, val previous) {
    const char* where = "Table.pca";
    return guard(where, [&] {
      PcaOptions o;
      o.k = int32_arg(where, "k", k);
      const std::vector<int32_t> rows_ids = copy_in<int32_t>(where, "ids", ids);
      const std::vector<float> prev = copy_in<float>(where, "previous", previous);
      o.ids = rows_ids;
      o.previous = prev;
      return pca_result_js(pca(t_.data, t_.rows, t_.cols, o));
    });
  }
  // ids (n) -> (n, n) cosine similarities (or dot products) of those rows
  val similarity(val ids, bool cosine) {
    const char* where = "Table.similarity";
    return guard(where, [&] {
      const std::vector<int32_t> rows = copy_in<int32_t>(where, "ids", ids);
      for (int32_t r : rows) check_index(where, "row", r, 0, t_.rows);
      const int64_t n = static_cast<int64_t>(rows.size());
      std::vector<float> s(plan(where, "similarity matrix", {n, n}, kFloat32));
      const NeighbourIndex& idx = index();
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const float d = kernels::dot(t_.cols, t_.data.data() + rows[i] * t_.cols, t_.data.data() + rows[j] * t_.cols);
          const float ni = idx.norm(rows[i]), nj = idx.norm(rows[j]);
          s[i * n + j] = !cosine ? d : (ni > 0 && nj > 0 ? d / (ni * nj) : 0.0f);
        }
      }
      return copy_out(s);
    });
  }
  // format: export_formats() or "metadata" (the Projector metadata.tsv, as `convert` writes
  // beside a .tsv; fails when the table has no labels)
  val export_bytes(val format) {
    const char* where = "Table.export";
    return guard(where, [&] {
      const std::string f = name_arg(where, "format", format);
      if (f != "metadata") return bytes_out(export_table(t_, f));
      if (t_.labels.empty()) fail(where, "metadata: this table has no labels (attach a metadata.tsv or vocabulary file)");
      return bytes_out(metadata_tsv(t_));
    });
  }

 private:
  void replace(ImportedTable t) {
    index_.reset();
    t_ = std::move(t);
  }
  const NeighbourIndex& index() {
    if (!index_) index_ = std::make_unique<NeighbourIndex>(t_.data, t_.rows, t_.cols);
    return *index_;
  }
  ImportedTable t_;
  std::unique_ptr<NeighbourIndex> index_;  // a view of t_.data: reset whenever t_ changes

  friend embedlab::bindings::ResidentTable embedlab::bindings::resident_table(const char*, const val&);
};

double safetensors_header_size_js(val first8) {
  return guard("safetensorsHeaderSize", [&] {
    return static_cast<double>(safetensors_header_size(bytes_in("safetensorsHeaderSize", "bytes", first8)));
  });
}
// file_size: the whole file's bytes (then a file cut short, or with bytes after the data, is
// refused), or -1 when unknown
val safetensors_header_js(val head, double file_size) {
  const char* where = "safetensorsHeader";
  return guard(where, [&] {
    const std::string h = bytes_in(where, "bytes", head);
    if (file_size == -1) return tensors_js(safetensors_header(h));
    return tensors_js(safetensors_header(h, static_cast<uint64_t>(int_arg(where, "fileSize", file_size, 0, kSafeMax))));
  });
}
val list_tensors_js(val bytes, val format) {
  return guard("listTensors", [&] {
    return tensors_js(list_tensors(bytes_in("listTensors", "bytes", bytes), name_arg("listTensors", "format", format)));
  });
}

// The registry of io/formats.hpp: [{name, label, extensions, outExtension, canRead, canWrite, tensors}]
val table_formats_js() {
  return guard("tableFormats", [&] {
    val out = val::array();
    for (const TableFormat* f : table_formats()) {
      val o = val::object();
      o.set("name", f->name);
      o.set("label", f->label);
      val extensions = val::array();
      for (const std::string& e : f->extensions) extensions.call<void>("push", e);
      o.set("extensions", extensions);
      o.set("outExtension", f->out_extension);
      o.set("canRead", f->read != nullptr);
      o.set("canWrite", f->write != nullptr);
      o.set("tensors", f->tensors);
      out.call<void>("push", o);
    }
    return out;
  });
}

// The same benchmark as `embedlab bench table`: -> its JSON text as bytes
val bench_table_js(double rows, double dim, double reps) {
  return guard("benchTable", [&] {
    return bytes_out(to_json(bench_table(size_arg("benchTable", "rows", rows), size_arg("benchTable", "dim", dim),
                                         static_cast<int>(int_arg("benchTable", "reps", reps, 1, 1000)))));
  });
}

}  // namespace

namespace embedlab::bindings {

ResidentTable resident_table(const char* where, const val& handle) {
  if (!handle.instanceof(val::module_property("_Table"))) fail(where, "expected a Table");
  const TableHandle* h = handle.as<TableHandle*>(emscripten::allow_raw_pointers());
  if (!h) fail(where, "expected a Table");
  return {h->t_.data, h->t_.rows, h->t_.cols};
}

}  // namespace embedlab::bindings

EMSCRIPTEN_BINDINGS(tables) {
  using namespace emscripten;
  class_<TableHandle>("_Table")
      .constructor<>()
      .function("initArray", &TableHandle::init_array)
      .function("initBytes", &TableHandle::init_bytes)
      .function("initTensor", &TableHandle::init_tensor)
      .function("initUnitRows", &TableHandle::init_unit_rows)
      .function("rows", &TableHandle::rows)
      .function("dim", &TableHandle::dim)
      .function("format", &TableHandle::format)
      .function("recognised", &TableHandle::recognised)
      .function("tensor", &TableHandle::tensor)
      .function("labels", &TableHandle::labels)
      .function("metadataHeader", &TableHandle::metadata_header)
      .function("metadataColumn", &TableHandle::metadata_column)
      .function("setLabels", &TableHandle::set_labels)
      .function("attachMetadata", &TableHandle::attach_metadata_js)
      .function("attachVocab", &TableHandle::attach_vocab_js)
      .function("row", &TableHandle::row)
      .function("norms", &TableHandle::norms)
      .function("nearest", &TableHandle::nearest)
      .function("analogy", &TableHandle::analogy)
      .function("pca", &TableHandle::pca_js)
      .function("similarity", &TableHandle::similarity)
      .function("exportBytes", &TableHandle::export_bytes);
  function("_safetensorsHeaderSize", &safetensors_header_size_js);
  function("_safetensorsHeader", &safetensors_header_js);
  function("_listTensors", &list_tensors_js);
  function("_benchTable", &bench_table_js);
  function("_tableFormats", &table_formats_js);
}
