// Vocabulary files: one token per line, taken as written (a trailing '\r' dropped), labelling
// the rows of a table (`convert --vocab`, the page's import). A leading UTF-8 byte order mark is
// skipped; the labels are planned (io/text_rows.hpp plan_labels) before they are made.
// Not a table format (no TableFormat): it only labels one. Example: "the\ncat\n" on a 2-row
// table -> labels {"the", "cat"}; on a 3-row table -> "read vocab: 2 rows for a table of 3 rows".
#pragma once

#include <string_view>

#include "io/table.hpp"

namespace embedlab {

// The lines of vocab_text -> t.labels (t.metadata cleared). Fails unless one line per row.
void attach_vocab(ImportedTable& t, std::string_view vocab_text);

}  // namespace embedlab
