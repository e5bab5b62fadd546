// word2vec tables, text and binary, read and written as gensim 4.2 does, and their two
// TableFormats "word2vec-text" and "word2vec-binary" (the family "word2vec": a .bin or .vec file
// is read as whichever of the two its bytes are laid out as).
//
//   parse_word2vec_text(bytes)   "N D\n" then N lines "word v1 ... vD" (save_word2vec_format(
//                                binary=False); extra spaces and a trailing space, as the word2vec
//                                C tool writes, are accepted).
//   parse_word2vec_binary(bytes) "N D\n" then N records "word " + D float32 little-endian
//                                (binary=True; a '\n' before a word, as the C tool writes, skipped).
//   word2vec_text(t), word2vec_binary(t)  the bytes gensim writes for the same words (t.labels,
//                                or row numbers) and vectors; each text value is float_repr's
//                                numpy float32 repr. A label holding a space, tab or line break
//                                cannot be a word2vec word and is refused naming its row.
// A UTF-8 byte order mark before the text is skipped. Each reader checks the header's claim
// against the bytes and plans the table (io/text_rows.hpp allocate) before allocating; messages
// name the line (text) or byte offset (binary), as "read word2vec: line 3: expected 100 numbers
// after the word, got 99". It does not guess formats (io/formats.cpp does, with the checks below).
#pragma once

#include <string>
#include <string_view>

#include "io/table.hpp"

namespace embedlab {

ImportedTable parse_word2vec_text(std::string_view bytes);
ImportedTable parse_word2vec_binary(std::string_view bytes);

// t (rows, cols) with labels (or row numbers) -> the file's bytes.
std::string word2vec_text(const ImportedTable& t);
std::string word2vec_binary(const ImportedTable& t);

// True when line 1 of bytes is "N D" (two non-negative integers).
bool has_word2vec_header(std::string_view bytes);
// For a file with a word2vec header: true when line 2 is a word and D numbers (or there is no
// line 2), as word2vec text has it.
bool word2vec_row_fits(std::string_view bytes);
// For a file with a word2vec header: true when line 2 is a word and D numbers (text); else false
// when the bytes are laid out as N binary records, or line 2 holds a control byte (binary);
// else true (a malformed text file, so the text reader names its fault).
// Example: "2 3\nword\t1 2 3\nb 4 5 6\n" -> true; "2 3\na 1 2\nb 4 5 6\n" -> true (line 2 is short).
bool word2vec_is_text(std::string_view bytes);

}  // namespace embedlab
