// Bindings for io/: the table writers' text and bytes (Embedding Projector TSV, .npy), so the
// page exports exactly what the CLI writes. Stateless calls: each takes the table (Float32Array,
// rows * cols) and copies it in. The JS API is api/io.post.js.
#include "bindings/common.hpp"

#include "io/table_writers.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// table (rows*cols), labels as one UTF-8 buffer (Uint8Array) and their ends (Float64Array
// (rows), label k = bytes[ends[k-1], ends[k])) -> {vectors, metadata}: the two files' text as
// UTF-8 bytes (Uint8Array).
val projector_tsv_js(val table, double rows, double cols, val label_bytes, val label_ends) {
  const char* where = "projectorTsv";
  return guard(where, [&] {
    const int64_t r = size_arg(where, "rows", rows, 0), c = size_arg(where, "cols", cols, 0);
    const std::vector<float> t = copy_in<float>(where, "table", table);
    const std::string bytes = bytes_in(where, "labels", label_bytes);
    const std::vector<int64_t> ends = int64s_in(where, "label ends", label_ends);
    if (static_cast<int64_t>(ends.size()) != r) {
      fail(where, "got " + std::to_string(ends.size()) + " labels for " + std::to_string(r) + " rows");
    }
    MemoryPlan p(where);
    p.add("labels", {r, static_cast<int64_t>(sizeof(std::string))}, kBytes);
    p.add("label text", {static_cast<int64_t>(bytes.size())}, kBytes);
    p.check();
    std::vector<std::string> labels(static_cast<size_t>(r));
    for (size_t k = 0, start = 0; k < ends.size(); start = static_cast<size_t>(ends[k]), ++k) {
      if (ends[k] < static_cast<int64_t>(start) || ends[k] > static_cast<int64_t>(bytes.size())) {
        fail(where, "label end " + std::to_string(ends[k]) + " at index " + std::to_string(k) + " out of range [" +
                        std::to_string(start) + ", " + std::to_string(bytes.size()) + "]");
      }
      labels[k] = bytes.substr(start, static_cast<size_t>(ends[k]) - start);
    }
    const std::string vectors = projector_vectors_tsv(t, r, c);
    val out = val::object();
    out.set("vectors", bytes_out(vectors));
    out.set("metadata", bytes_out(projector_metadata_tsv(labels)));
    return out;
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
}
