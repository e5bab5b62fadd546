// Shared pieces of the text formats (io/projector_tsv, savetxt, word2vec, glove, vocab, and
// coordinates_csv's numbers): lines and fields, numbers read with strtof (the C locale; correctly
// rounded to float32) and written as numpy's float32 repr, the planned allocation of a table and
// its labels (core/memory.hpp), and the "line N: " messages. It knows no format's layout and
// guesses none (io/formats.cpp does).
//
// Cost: every helper is one pass over its input; allocate plans (rows, cols) float32 and, with
// labels, rows strings and text_bytes of label text before it allocates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/table.hpp"

namespace embedlab {

// Example: 0.1f -> "0.1"; 1e-5f -> "1e-05"; 1.0f -> "1.0"; -0.0f -> "-0.0" (numpy's repr of a
// float32: the shortest text that reads back to v, positional for 1e-4 <= |v| < 1e16, else
// scientific; "nan", "inf", "-inf").
std::string float_repr(float v);

// True when the bytes start with a UTF-8 byte order mark.
bool starts_with_bom(std::string_view bytes);

// The lines of a text without their '\n' and a trailing '\r'; a last line without '\n' counts.
// Example: "a\nb\r\nc" -> {"a", "b", "c"}; "" -> {}. The views point into text.
std::vector<std::string_view> split_lines(const char* where, std::string_view text);

namespace text {

// The lines of a text, numbered from 1, without their '\n' and a trailing '\r'.
class Lines {
 public:
  explicit Lines(std::string_view s, size_t start = 0, int64_t first = 1) : s_(s), p_(start), number_(first - 1) {}
  bool next(std::string_view& line) {
    if (p_ >= s_.size()) return false;
    size_t e = s_.find('\n', p_);
    if (e == std::string_view::npos) e = s_.size();
    line = s_.substr(p_, e - p_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    p_ = e + 1;
    ++number_;
    return true;
  }
  int64_t number() const { return number_; }

 private:
  std::string_view s_;
  size_t p_;
  int64_t number_;
};

inline bool is_space(char c) { return c == ' ' || c == '\t'; }

// Where the text starts: after a UTF-8 byte order mark (Windows editors write one), else 0.
inline size_t text_start(std::string_view bytes) { return bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

// True when a line holds nothing but spaces and tabs.
bool blank(std::string_view line);

// The fields of a line separated by runs of `seps` (leading and trailing ones ignored).
template <class F>
void fields(std::string_view line, bool tabs_only, F&& f) {
  size_t p = 0;
  auto sep = [&](char c) { return tabs_only ? c == '\t' : is_space(c); };
  while (true) {
    while (p < line.size() && sep(line[p])) ++p;
    if (p >= line.size()) return;
    size_t e = p;
    while (e < line.size() && !sep(line[e])) ++e;
    f(line.substr(p, e - p));
    p = e;
  }
}

// A whole number token -> float32 (strtof: correctly rounded), or false.
bool parse_float(std::string_view tok, float& out);
// A token in single quotes, cut after 40 bytes: 'abc' or 'abc...'.
std::string quoted(std::string_view tok);
// "line 3: "
std::string line_at(int64_t n);
std::string_view trim_spaces(std::string_view tok);
// The number of fields after a row's word (the word runs to the first space or tab).
int64_t fields_after_word(std::string_view line);
// A line of savetxt output that is a comment (np.savetxt's header= and footer= lines start "# ").
bool comment(std::string_view line);
// Plans the table (and labels: rows strings, text_bytes of their text) and sizes it.
void allocate(const char* where, ImportedTable& t, int64_t rows, int64_t cols, bool labels, size_t text_bytes);
// Fails unless got (labels, lines) == t.rows: "<where>: 3 rows for a table of 2 rows".
void check_rows(const char* where, int64_t got, const ImportedTable& t);
// Plans `rows` labels holding text_bytes of text in all (attach_vocab).
void plan_labels(const char* where, int64_t rows, size_t text_bytes);
// "N D" -> {N, D}; false unless the line is exactly two non-negative integers (below 2^62).
bool header_numbers(std::string_view line, int64_t& n, int64_t& d);
// Reads a word2vec/glove row "word v1 ... vD" into row, returns the word; fails naming the line.
// words_may_hold_spaces: the word is everything but the last D fields (GloVe).
std::string_view read_word_row(const char* where, std::string_view line, int64_t number, int64_t cols, float* row,
                               bool words_may_hold_spaces);
// Rows of numbers, one row a line (vectors.tsv: tsv true, tabs, a header allowed; savetxt:
// spaces or tabs, '#' comments); t.format = format.
ImportedTable parse_number_rows(std::string_view bytes, const char* where, const char* format, bool tsv);

}  // namespace text
}  // namespace embedlab
