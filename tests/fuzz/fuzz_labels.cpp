// Fuzz target: the metadata.tsv reader (parse_labels and tsv_unescape, io/table_readers.hpp).
// Input: the text of a metadata.tsv file.
// Properties: one label per line (a last line without '\n' counts, "" has none); the labels
// escaped again (tsv_escape, io/table_writers.hpp), one per line, parse to the same labels; and
// tsv_unescape(tsv_escape(s)) == s for any bytes s (the input itself).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/table_readers.hpp"
#include "io/table_writers.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::require(tsv_unescape(tsv_escape(text)) == text, "tsv_unescape(tsv_escape(s)) == s");
  fuzz::expect_errors([&] {
    const std::vector<std::string> labels = parse_labels(text);
    const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) +
                         (!text.empty() && text.back() != '\n');
    fuzz::require(labels.size() == lines, "one label per line");
    std::string file;
    for (const std::string& label : labels) file += tsv_escape(label) + "\n";
    fuzz::require(parse_labels(file) == labels, "parse_labels(escaped labels) == labels");
  });
  return 0;
}
