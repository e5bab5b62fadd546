// The GloVe reader of io/glove.hpp and the registry entry "glove" (io/formats.hpp).
#include "io/glove.hpp"

#include "core/error.hpp"
#include "io/formats.hpp"
#include "io/text_rows.hpp"

namespace embedlab {

namespace {

using namespace text;

ImportedTable read_table(std::string_view bytes, const std::string&) { return parse_glove(bytes); }

// Ranked after tsv and savetxt: a first line with a space whose last field is a number.
bool detect(const DetectInput& in) {
  if (in.stage != DetectStage::kLayout) return false;
  const std::string_view first = in.text.substr(0, in.text.find('\n'));
  const size_t space = first.find(' ');
  if (space == std::string_view::npos) return false;
  std::string_view rest = first.substr(space + 1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  const size_t last = rest.rfind(' ');
  const std::string_view tail = last == std::string_view::npos ? rest : rest.substr(last + 1);
  return !tail.empty() && tail.find_first_not_of("0123456789.eE+-") == std::string_view::npos &&
         tail.find_first_of("0123456789") != std::string_view::npos;
}

}  // namespace

const TableFormat& glove_format() {
  static const TableFormat f{.name = "glove", .label = "GloVe text", .detect_rank = 7, .detect = detect,
                             .read = read_table};
  return f;
}

ImportedTable parse_glove(std::string_view bytes) {
  const char* where = "read glove";
  const size_t start = text_start(bytes);
  Lines lines(bytes, start);
  std::string_view line;
  int64_t cols = -1, rows = 0;
  // a first pass counts the rows and checks each has a word and D numbers (more fields: a word
  // holding spaces), so the table planned is never more values than the file holds
  while (lines.next(line)) {
    if (blank(line)) continue;
    const int64_t n = fields_after_word(line);
    if (cols < 0) {
      cols = n;
      if (cols < 1) fail(where, line_at(lines.number()) + "expected a word and at least one number");
    } else if (n < cols) {
      fail(where, line_at(lines.number()) + "expected " + std::to_string(cols) + " numbers after the word, got " + std::to_string(n));
    }
    ++rows;
  }
  ImportedTable t;
  t.format = "glove";
  if (cols < 0) return t;  // nothing but blank lines: import_table refuses the empty table
  allocate(where, t, rows, cols, true, bytes.size());
  Lines again(bytes, start);
  int64_t r = 0;
  while (again.next(line)) {
    if (blank(line)) continue;
    t.labels.emplace_back(read_word_row(where, line, again.number(), cols, t.data.data() + r * cols, true));
    ++r;
  }
  return t;
}

}  // namespace embedlab
