// Tables as text (and word2vec's binary variant): the readers and writers behind
// io/table_import.hpp's "tsv", "word2vec-text", "word2vec-binary" and "glove".
//
//   parse_vectors_tsv(bytes)     vectors.tsv: numbers separated by tabs, one row per line; blank
//                                lines skipped; a first line that is not all numbers is a header.
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
// Each reader checks the header's claim against the bytes and plans the table (core/memory.hpp)
// before allocating; messages name the line (text) or byte offset (binary):
//   "read word2vec: line 3: expected 100 numbers after the word, got 99".
// Numbers are read with strtof (the C locale; correctly rounded to float32).
// It does not guess formats (io/table_import.cpp does).
#pragma once

#include <string>
#include <string_view>

#include "io/table_import.hpp"

namespace embedlab {

ImportedTable parse_vectors_tsv(std::string_view bytes);
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
// For a file with a word2vec header: true when line 2 is a word and D numbers (text), false when
// it is not (binary).
bool word2vec_is_text(std::string_view bytes);

}  // namespace embedlab
