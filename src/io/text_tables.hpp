// Tables as text (and word2vec's binary variant): the readers and writers behind
// io/table_import.hpp's "tsv", "savetxt", "word2vec-text", "word2vec-binary" and "glove".
//
//   parse_vectors_tsv(bytes)     vectors.tsv: numbers separated by tabs, one row per line; blank
//                                lines skipped; a first line without a number is a header.
//   parse_savetxt(bytes)         numpy.savetxt's output: numbers separated by spaces (or tabs), one
//                                row per line, no labels; blank lines and '#' comments skipped.
//   parse_word2vec_text(bytes)   "N D\n" then N lines "word v1 ... vD" (gensim 4.2
//                                save_word2vec_format(binary=False); extra spaces and a trailing
//                                space, as the word2vec C tool writes, are accepted).
//   parse_word2vec_binary(bytes) "N D\n" then N records "word " + D float32 little-endian (gensim
//                                binary=True; a '\n' before a word, as the C tool writes, skipped).
//   parse_glove(bytes)           lines "word v1 ... vD", no header; D from the first line; a line
//                                with more fields has a word holding spaces (glove.840B's ". . .").
//   float_repr(v)                numpy's repr of a float32: the shortest text that reads back to
//                                v, positional for 1e-4 <= |v| < 1e16 ("0.1", "1.0", "123456790.0"),
//                                else scientific ("1e-05", "3e+38"); "nan", "inf", "-inf".
//   word2vec_text(t), word2vec_binary(t)  the bytes gensim writes for the same words and vectors.
// A UTF-8 byte order mark before the text is skipped. Each reader checks the header's claim, or
// every row's width in a first pass, against the bytes and plans the table (core/memory.hpp)
// before allocating, so the table is never more than 2 float32 bytes per byte of the file, and
// labels (one string each) at most one per 2 bytes; messages name the line (text) or byte offset (binary):
//   "read word2vec: line 3: expected 100 numbers after the word, got 99".
// Numbers are read with strtof (the C locale; correctly rounded to float32).
// Readers in text_tables.cpp, writers in text_writers.cpp. It does not guess formats
// (io/table_import.cpp does).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/table_import.hpp"

namespace embedlab {

ImportedTable parse_vectors_tsv(std::string_view bytes);
ImportedTable parse_savetxt(std::string_view bytes);
ImportedTable parse_word2vec_text(std::string_view bytes);
ImportedTable parse_word2vec_binary(std::string_view bytes);
ImportedTable parse_glove(std::string_view bytes);

// Example: 0.1f -> "0.1"; 1e-5f -> "1e-05"; 1.0f -> "1.0"; -0.0f -> "-0.0".
std::string float_repr(float v);

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
// True when every line that holds something (blank lines and '#' comments aside) is numbers
// separated by spaces or tabs, as many on each line (numpy.savetxt's output).
bool numbers_only(std::string_view bytes);
// True when the bytes start with a UTF-8 byte order mark.
bool starts_with_bom(std::string_view bytes);

}  // namespace embedlab
