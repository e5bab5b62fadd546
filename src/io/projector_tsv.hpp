// The Embedding Projector's TSV pair (projector.tensorflow.org): vectors.tsv, the table, read
// and written (the TableFormat "tsv"), and metadata.tsv, its labels, read and written.
//
//   parse_vectors_tsv(bytes)        vectors.tsv: numbers separated by tabs, one row per line;
//                                   blank lines skipped; a first line without a number is a header.
//   projector_vectors_tsv(data, ...)-> the text of vectors.tsv: one row per line, tab-separated,
//                                   %.9g so float32 values round-trip ("0.5\t-1e-05\n").
//   projector_metadata_tsv(labels)  -> the text of metadata.tsv: one label per line, no header
//                                   (the single-column form projector.tensorflow.org expects).
//                                   Tabs, newlines, carriage returns and backslashes in labels
//                                   are written as \t \n \r \\ so every label stays on its
//                                   own line; an empty label is an empty line.
//   write_projector_tsv(dir, ...)   -> dir/vectors.tsv and dir/metadata.tsv with the same text.
//   parse_labels(text), read_labels(path) -> one label per line of a single-column metadata.tsv,
//                                   with the escapes undone.
//   attach_metadata(t, text)        -> labels and metadata columns of an imported table.
//   metadata_tsv(t)                 -> the metadata.tsv `convert` writes beside a vectors.tsv.
// The CLI writes files with them; the page gets the same text through the bindings
// (M.projectorTsv, Table.export). They do not choose labels (callers pass token strings).
//
// Intended usage:
//   std::string v = projector_vectors_tsv(w2v.input_table(), W, D);   // the text, for the page
//   write_projector_tsv("out", w2v.input_table(), W, D, labels);      // out/vectors.tsv + metadata.tsv
//   std::vector<std::string> words = read_labels("out/metadata.tsv");  // words.size() == rows
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/table.hpp"

namespace embedlab {

ImportedTable parse_vectors_tsv(std::string_view bytes);

// data (rows, cols) float32 -> vectors.tsv text. Example: {0.5, -1e-5}, 1 x 2 -> "0.5\t-9.99999975e-06\n".
std::string projector_vectors_tsv(std::span<const float> data, int64_t rows, int64_t cols);

// A label as it appears in metadata.tsv. Example: "a\tb\n" -> "a\\tb\\n".
std::string tsv_escape(const std::string& label);
// Example: the metadata line "a\\tb" (a, backslash, t, b) -> the label "a\tb" (a, tab, b).
std::string tsv_unescape(const std::string& field);

// labels (rows) -> metadata.tsv text. Example: {"the", "a\tb", ""} -> "the\na\\tb\n\n".
std::string projector_metadata_tsv(const std::vector<std::string>& labels);

// data (rows, cols), labels (rows) -> dir/vectors.tsv and dir/metadata.tsv (dir is created).
void write_projector_tsv(const std::string& dir, std::span<const float> data, int64_t rows,
                         int64_t cols, const std::vector<std::string>& labels);

// Example: "a\nb\r\n" -> {"a", "b"}; "" -> {}; a leading UTF-8 byte order mark is skipped.
std::vector<std::string> parse_labels(const std::string& text);
std::vector<std::string> read_labels(const std::string& path);

// Projector metadata.tsv -> t.labels (and t.metadata_header, t.metadata when it has more than one
// column). One row per line; the first line is a header iff there is more than one column;
// labels are the column named "label", "word" or "token" if there is one, else the first.
// Fields are unescaped (\t \n \r \\). Fails unless there is one row per table row.
// Example: "word\tcount\nthe\t12\ncat\t3\n" on a 2-row table -> labels {"the", "cat"},
// metadata_header {"word", "count"}, metadata {{"the", "12"}, {"cat", "3"}}.
void attach_metadata(ImportedTable& t, std::string_view metadata_tsv);

// The metadata.tsv for t: its columns with the header when it has them, else one label a line
// (projector_metadata_tsv); "" when t has no labels.
std::string metadata_tsv(const ImportedTable& t);

}  // namespace embedlab
