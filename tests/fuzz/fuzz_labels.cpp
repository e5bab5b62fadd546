// Fuzz target: the metadata.tsv reader (parse_labels and tsv_unescape, io/projector_tsv.hpp).
// Input: the text of a metadata.tsv file.
// Properties: one label per line (a last line without '\n' counts, "" has none, a leading
// byte order mark is no line's); the labels written again (projector_metadata_tsv,
// io/projector_tsv.hpp) parse to the same labels; and
// tsv_unescape(tsv_escape(s)) == s for any bytes s (the input itself).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/projector_tsv.hpp"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::require(tsv_unescape(tsv_escape(text)) == text, "tsv_unescape(tsv_escape(s)) == s");
  fuzz::expect_errors([&] {
    const std::vector<std::string> labels = parse_labels(text);
    // a UTF-8 byte order mark before the first label is no part of the text's lines
    const std::string_view body = std::string_view(text).substr(text.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    const size_t lines = static_cast<size_t>(std::count(body.begin(), body.end(), '\n')) +
                         (!body.empty() && body.back() != '\n');
    fuzz::require(labels.size() == lines, "one label per line");
    const std::string file = projector_metadata_tsv(labels);
    fuzz::require(parse_labels(file) == labels, "parse_labels(escaped labels) == labels");
  });
  return 0;
}
