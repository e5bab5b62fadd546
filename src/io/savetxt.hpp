// numpy.savetxt's text tables: numbers separated by spaces (or tabs), one row per line, no
// labels; blank lines and '#' comments (savetxt's header= and footer=) skipped. The read-only
// TableFormat "savetxt". A first pass checks every row's width, so the table planned is never
// more than 2 float32 bytes per byte of the file; messages name the line:
//   "read savetxt: line 3: expected 4 values (as line 1), got 3".
// It does not write savetxt (the page's CSV and the Projector's vectors.tsv are written instead).
#pragma once

#include <string_view>

#include "io/table.hpp"

namespace embedlab {

ImportedTable parse_savetxt(std::string_view bytes);

// True when every line that holds something (blank lines and '#' comments aside) is numbers
// separated by spaces or tabs, as many on each line (numpy.savetxt's output).
bool numbers_only(std::string_view bytes);

}  // namespace embedlab
