// The savetxt reader of io/savetxt.hpp and the registry entry "savetxt" (io/formats.hpp).
#include "io/savetxt.hpp"

#include "io/formats.hpp"
#include "io/text_rows.hpp"
#include "io/word2vec.hpp"

namespace embedlab {

namespace {

using namespace text;

ImportedTable read_table(std::string_view bytes, const std::string&) { return parse_savetxt(bytes); }

// Signature stage: integers from numpy.savetxt(fmt='%d') in two columns look like a word2vec
// header, so numbers throughout whose line 2 is not a word and D numbers are savetxt (ranked
// before word2vec). Layout stage (after tsv): numbers on every line.
bool detect(const DetectInput& in) {
  if (in.stage == DetectStage::kSignature) {
    return has_word2vec_header(in.text) && numbers_only(in.text) && !word2vec_row_fits(in.text);
  }
  return numbers_only(in.text);
}

}  // namespace

const TableFormat& savetxt_format() {
  static const TableFormat f{.name = "savetxt", .label = "numpy.savetxt text", .detect_rank = 4, .detect = detect,
                             .read = read_table};
  return f;
}

ImportedTable parse_savetxt(std::string_view bytes) { return parse_number_rows(bytes, "read savetxt", "savetxt", false); }

bool numbers_only(std::string_view bytes) {
  Lines lines(bytes, text_start(bytes));
  std::string_view line;
  int64_t cols = -1;
  while (lines.next(line)) {
    if (blank(line) || comment(line)) continue;
    int64_t n = 0;
    bool numbers = true;
    fields(line, false, [&](std::string_view tok) {
      float v;
      ++n;
      numbers = numbers && parse_float(tok, v);
    });
    if (!numbers || (cols >= 0 && n != cols)) return false;
    cols = n;
  }
  return cols > 0;
}

}  // namespace embedlab
