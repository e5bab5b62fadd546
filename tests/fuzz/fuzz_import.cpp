// Fuzz target: every table reader (import_table, list_tensors, attach_metadata in
// io/formats.hpp) on arbitrary bytes.
// Input: byte 0 picks the format (0: detect from the bytes, then npy, safetensors, tsv,
// word2vec-text, word2vec-binary, glove, savetxt), the rest is the file (seed corpus: the
// fixtures of tests/reference/tables/, cut small, and a savetxt file).
// Properties: a bad file fails with an Error (never another exception, a crash or an allocation
// past the planner's 64 MiB); a table that imports has at least one row and one column, rows x
// cols values, no more than 2 float32 bytes per byte of the file, and at most one label a row;
// exporting it to every format that can hold it and importing that again gives the same
// shape, the same float32 bits and the same words (a NaN comes back as a NaN: text formats write
// every NaN as "nan", so its sign and payload survive only .npy and word2vec binary).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/formats.hpp"
#include "io/projector_tsv.hpp"

using namespace embedlab;

namespace {

bool same_values(const std::vector<float>& a, const std::vector<float>& b, bool text) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (text && std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::memcmp(&a[i], &b[i], 4) != 0) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  if (size == 0) return 0;
  const std::vector<std::string>& formats = import_formats();
  const size_t pick = data[0] % (formats.size() + 1);
  const std::string format = pick == 0 ? "" : formats[pick - 1];
  const std::string_view bytes = fuzz::as_text(data + 1, size - 1);
  fuzz::expect_errors([&] { (void)list_tensors(bytes, format); });
  fuzz::expect_errors([&] {
    ImportedTable t = import_table(bytes, format);
    fuzz::require(t.rows >= 1 && t.cols >= 1, "rows, cols >= 1 (an empty table is refused)");
    fuzz::require(static_cast<uint64_t>(t.data.size()) == static_cast<uint64_t>(t.rows) * static_cast<uint64_t>(t.cols),
                  "data has rows x cols values");
    fuzz::require(t.data.size() * 4 <= 2 * bytes.size() + 8, "at most 2 float32 bytes per byte of the file");
    fuzz::require(t.labels.empty() || static_cast<int64_t>(t.labels.size()) == t.rows, "one label a row");
    for (const std::string& out : export_formats()) {
      fuzz::expect_errors([&] {
        const ImportedTable back = import_table(export_table(t, out), out);
        fuzz::require(back.rows == t.rows && back.cols == t.cols, "export -> import keeps the shape");
        const bool text = out == "tsv" || out == "word2vec-text";
        fuzz::require(same_values(t.data, back.data, text), "export -> import keeps every bit");
        if (out.rfind("word2vec", 0) == 0 && !t.labels.empty()) fuzz::require(back.labels == t.labels, "word2vec keeps the words");
      });
    }
    fuzz::expect_errors([&] { attach_metadata(t, bytes); });
  });
  return 0;
}
