// Coordinates of table rows (a 2-D or 3-D PCA projection) as CSV, for spreadsheets and plotting
// tools: the one writer behind the page's "CSV" downloads (M.coordinatesCsv).
//
//   coordinates_csv(points, rows, k, labels) -> "row,label,x,y[,z]" then one line per row:
//     the row number, the label in double quotes (RFC 4180: a quote inside is doubled; commas,
//     line breaks and tabs stay as they are, inside the quotes), then the k coordinates, each the
//     shortest text that reads back to the same float32 (float_repr, as word2vec text writes).
//     Lines end with CRLF (RFC 4180 section 2). No labels: every label field is "".
// It does not project (analysis/pca.hpp does) and does not escape for spreadsheet formulas (a
// label "=1+1" is written as it is, quoted).
//
// Intended usage:
//   const PcaResult p = pca(t.data, t.rows, t.cols, {.k = 3});
//   std::string csv = coordinates_csv(p.points, t.rows, 3, t.labels);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

// points (rows, k) float32 row-major, k in {2, 3}; labels (rows) or empty -> CSV text.
// Example: points {0.5, -1e-5}, rows 1, k 2, labels {"say \"hi\", 1"} ->
//   "row,label,x,y\r\n0,\"say \"\"hi\"\", 1\",0.5,-1e-05\r\n"
std::string coordinates_csv(std::span<const float> points, int64_t rows, int64_t k, const std::vector<std::string>& labels);

// A field in double quotes, quotes doubled (RFC 4180). Example: a"b -> "a""b".
std::string csv_quote(const std::string& field);

}  // namespace embedlab
