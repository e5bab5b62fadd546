// The vocabulary reader of io/vocab.hpp.
#include "io/vocab.hpp"

#include <string>
#include <vector>

#include "io/text_rows.hpp"

namespace embedlab {

void attach_vocab(ImportedTable& t, std::string_view vocab_text) {
  const char* where = "read vocab";
  if (starts_with_bom(vocab_text)) vocab_text.remove_prefix(3);
  const std::vector<std::string_view> lines = split_lines(where, vocab_text);
  text::check_rows(where, static_cast<int64_t>(lines.size()), t);
  text::plan_labels(where, static_cast<int64_t>(lines.size()), vocab_text.size());
  std::vector<std::string> labels(lines.begin(), lines.end());
  t.labels = std::move(labels);
  t.metadata_header.clear();
  t.metadata.clear();
}

}  // namespace embedlab
