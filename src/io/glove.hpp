// GloVe's text tables (nlp.stanford.edu/projects/glove): lines "word v1 ... vD", no header, and
// the read-only TableFormat "glove". D comes from the first line; a line with more fields has a
// word holding spaces (glove.840B's ". . ."). A first pass checks every row and the table is
// planned (io/text_rows.hpp allocate) before it is allocated; messages name the line:
//   "read glove: line 4: expected 300 numbers after the word, got 299".
// It does not write GloVe (word2vec text is the same with a header line).
#pragma once

#include <string_view>

#include "io/table.hpp"

namespace embedlab {

ImportedTable parse_glove(std::string_view bytes);

}  // namespace embedlab
