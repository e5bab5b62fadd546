// Bindings for io/: the table writers' text and bytes (Embedding Projector TSV, .npy, CSV of
// coordinates), so the page exports exactly what the CLI writes. Stateless calls: each takes the
// table (Float32Array, rows * cols) and copies it in. The JS API is api/io.post.js.
#include "bindings/common.hpp"

#include "io/coordinates_csv.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// labels as one UTF-8 buffer (Uint8Array) and their ends (Float64Array (rows), label k =
// bytes[ends[k-1], ends[k])) -> rows strings
std::vector<std::string> labels_in(const char* where, int64_t rows, val label_bytes, val label_ends) {
  const std::string bytes = bytes_in(where, "labels", label_bytes);
  const std::vector<int64_t> ends = int64s_in(where, "label ends", label_ends);
  if (static_cast<int64_t>(ends.size()) != rows) {
    fail(where, "got " + std::to_string(ends.size()) + " labels for " + std::to_string(rows) + " rows");
  }
  MemoryPlan p(where);
  p.add("labels", {rows, static_cast<int64_t>(sizeof(std::string))}, kBytes);
  p.add("label text", {static_cast<int64_t>(bytes.size())}, kBytes);
  p.check();
  std::vector<std::string> labels(static_cast<size_t>(rows));
  for (size_t k = 0, start = 0; k < ends.size(); start = static_cast<size_t>(ends[k]), ++k) {
    if (ends[k] < static_cast<int64_t>(start) || ends[k] > static_cast<int64_t>(bytes.size())) {
      fail(where, "label end " + std::to_string(ends[k]) + " at index " + std::to_string(k) + " out of range [" +
                      std::to_string(start) + ", " + std::to_string(bytes.size()) + "]");
    }
    labels[k] = bytes.substr(start, static_cast<size_t>(ends[k]) - start);
  }
  return labels;
}

// table (rows*cols), labels (labels_in) -> {vectors, metadata}: the two files' text as UTF-8
// bytes (Uint8Array).
val projector_tsv_js(val table, double rows, double cols, val label_bytes, val label_ends) {
  const char* where = "projectorTsv";
  return guard(where, [&] {
    const int64_t r = size_arg(where, "rows", rows, 0), c = size_arg(where, "cols", cols, 0);
    const std::vector<float> t = copy_in<float>(where, "table", table);
    const std::vector<std::string> labels = labels_in(where, r, label_bytes, label_ends);
    const std::string vectors = projector_vectors_tsv(t, r, c);
    val out = val::object();
    out.set("vectors", bytes_out(vectors));
    out.set("metadata", bytes_out(projector_metadata_tsv(labels)));
    return out;
  });
}

// points (rows*k), k 2 | 3, labels (labels_in, or none: has_labels false) -> Uint8Array: the
// CSV text "row,label,x,y[,z]" (io/coordinates_csv.hpp).
val coordinates_csv_js(val points, double rows, double k, bool has_labels, val label_bytes, val label_ends) {
  const char* where = "coordinatesCsv";
  return guard(where, [&] {
    const int64_t r = size_arg(where, "rows", rows, 0);
    const int64_t kk = int_arg(where, "k", k, 2, 3);
    const std::vector<float> p = copy_in<float>(where, "points", points);
    const std::vector<std::string> labels = has_labels ? labels_in(where, r, label_bytes, label_ends) : std::vector<std::string>{};
    return bytes_out(coordinates_csv(p, r, kk, labels));
  });
}

// table (rows*cols) -> Uint8Array: a float32 .npy file, the bytes `embedlab train --out` writes.
val npy_bytes_js(val table, double rows, double cols) {
  const char* where = "npyBytes";
  return guard(where, [&] {
    const int64_t r = size_arg(where, "rows", rows, 0), c = size_arg(where, "cols", cols, 0);
    return bytes_out(npy_bytes(copy_in<float>(where, "table", table), r, c));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(io) {
  using namespace emscripten;
  function("_projectorTsv", &projector_tsv_js);
  function("_npyBytes", &npy_bytes_js);
  function("_coordinatesCsv", &coordinates_csv_js);
}
