// The readers of io/text_tables.hpp, and the checks that pick between them (the writers are
// text_writers.cpp).
#include "io/text_tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {

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

bool is_space(char c) { return c == ' ' || c == '\t'; }

// Where the text starts: after a UTF-8 byte order mark (Windows editors write one), else 0.
size_t text_start(std::string_view bytes) { return bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

bool blank(std::string_view line) {
  for (const char c : line) {
    if (!is_space(c)) return false;
  }
  return true;
}

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
bool parse_float(std::string_view tok, float& out) {
  char buf[128];
  if (tok.empty() || tok.size() >= sizeof buf) return false;
  std::memcpy(buf, tok.data(), tok.size());
  buf[tok.size()] = 0;
  char* end = nullptr;
  out = std::strtof(buf, &end);
  return end == buf + tok.size() && !is_space(buf[0]);
}

std::string quoted(std::string_view tok) {
  std::string q(1, '\'');
  q += tok.substr(0, 40);
  q += tok.size() > 40 ? "...'" : "'";
  return q;
}

std::string line_at(int64_t n) { return "line " + std::to_string(n) + ": "; }

std::string_view trim_spaces(std::string_view tok) {
  while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
  while (!tok.empty() && tok.back() == ' ') tok.remove_suffix(1);
  return tok;
}

// The number of fields after a row's word (the word runs to the first space or tab).
int64_t fields_after_word(std::string_view line) {
  size_t w = 0;
  while (w < line.size() && line[w] != ' ' && line[w] != '\t') ++w;
  int64_t n = 0;
  fields(line.substr(w), false, [&](std::string_view) { ++n; });
  return n;
}

// A line of savetxt output that is a comment (np.savetxt's header= and footer= lines start "# ").
bool comment(std::string_view line) {
  size_t p = 0;
  while (p < line.size() && is_space(line[p])) ++p;
  return p < line.size() && line[p] == '#';
}

// Plans the table (and labels) and sizes it.
void allocate(const char* where, ImportedTable& t, int64_t rows, int64_t cols, bool labels, size_t text_bytes) {
  MemoryPlan p(where);
  p.add("table", {rows, cols}, kFloat32);
  if (labels) {
    p.add("labels", {rows, static_cast<int64_t>(sizeof(std::string))}, kBytes);
    p.add("label text", {static_cast<int64_t>(text_bytes)}, kBytes);
  }
  p.check();
  t.rows = rows;
  t.cols = cols;
  t.data.resize(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  if (labels) t.labels.reserve(static_cast<size_t>(rows));
}

// "N D" -> {N, D}; false unless the line is exactly two non-negative integers (below 2^62).
bool header_numbers(std::string_view line, int64_t& n, int64_t& d) {
  if (line.find('\t') != std::string_view::npos) return false;  // "1\t2" is a vectors.tsv row
  int64_t v[2];
  int count = 0;
  bool ok = true;
  fields(line, false, [&](std::string_view tok) {
    if (count == 2 || tok.size() > 18) {
      ok = false;
      return;
    }
    int64_t x = 0;
    for (const char c : tok) {
      if (c < '0' || c > '9') {
        ok = false;
        return;
      }
      x = x * 10 + (c - '0');  // at most 18 digits: below 2^63
    }
    v[count++] = x;
  });
  if (!ok || count != 2) return false;
  n = v[0];
  d = v[1];
  return true;
}

// Reads a word2vec/glove row "word v1 ... vD" into row, returns the word; fails naming the line.
// words_may_hold_spaces: the word is everything but the last D fields (GloVe).
std::string_view read_word_row(const char* where, std::string_view line, int64_t number, int64_t cols, float* row,
                               bool words_may_hold_spaces) {
  size_t w = 0;
  while (w < line.size() && line[w] != ' ' && line[w] != '\t') ++w;
  std::string_view word = line.substr(0, w);
  std::string_view rest = line.substr(w);
  int64_t n = fields_after_word(line);
  if (words_may_hold_spaces && n > cols) {
    // the last cols fields are the numbers; the word runs up to them
    int64_t skip = n - cols, seen = 0;
    size_t p = w;
    while (seen < skip) {
      while (p < line.size() && is_space(line[p])) ++p;
      while (p < line.size() && !is_space(line[p])) ++p;
      ++seen;
    }
    word = line.substr(0, p);
    rest = line.substr(p);
    n = cols;
  }
  if (n != cols) {
    fail(where, line_at(number) + "expected " + std::to_string(cols) + " numbers after the word, got " + std::to_string(n));
  }
  int64_t c = 0;
  fields(rest, false, [&](std::string_view tok) {
    if (!parse_float(tok, row[c])) fail(where, line_at(number) + "value " + std::to_string(c + 1) + ": expected a number, got " + quoted(tok));
    ++c;
  });
  return word;
}

}  // namespace

namespace {

// Rows of numbers, one row a line (vectors.tsv: tabs, a header allowed; savetxt: spaces or tabs,
// '#' comments). A first pass counts the rows and checks that every row has as many values as
// the first, so the table planned is never more values than the file holds (each takes a byte
// and a separator: 2 float32 bytes per file byte at most); the second pass reads the numbers.
ImportedTable parse_number_rows(std::string_view bytes, const char* where, const char* format, bool tsv) {
  const size_t start = text_start(bytes);
  Lines lines(bytes, start);
  std::string_view line;
  int64_t cols = -1, rows = 0, first = 0;
  bool header = false;
  auto skipped = [&](std::string_view l) { return blank(l) || (!tsv && comment(l)); };
  while (lines.next(line)) {
    if (skipped(line)) continue;
    int64_t n = 0;
    bool any_number = false;
    fields(line, tsv, [&](std::string_view tok) {
      float v;
      ++n;
      if (cols < 0) any_number = any_number || parse_float(trim_spaces(tok), v);
    });
    if (cols < 0) {
      // the first line that holds something: numbers, or (vectors.tsv) a header: names, not
      // one number among them (a row with a typo, "1.5\t2,5", is a row, and its error is named)
      cols = n;
      first = lines.number();
      header = tsv && !any_number;
      if (header) continue;
    } else if (n != cols) {
      fail(where, line_at(lines.number()) + "expected " + std::to_string(cols) + " values (as line " +
                      std::to_string(first) + (header ? "'s header" : "") + "), got " + std::to_string(n));
    }
    ++rows;
  }
  ImportedTable t;
  t.format = format;
  if (cols < 0) return t;  // nothing but blank lines: import_table refuses the empty table
  allocate(where, t, rows, cols, false, 0);
  Lines again(bytes, start);
  bool header_skipped = !header;
  int64_t r = 0;
  while (again.next(line)) {
    if (skipped(line)) continue;
    if (!header_skipped) {
      header_skipped = true;
      continue;
    }
    float* row = t.data.data() + r * cols;
    int64_t c = 0;
    fields(line, tsv, [&](std::string_view tok) {
      tok = trim_spaces(tok);
      if (!parse_float(tok, row[c])) {
        fail(where, line_at(again.number()) + "value " + std::to_string(c + 1) + ": expected a number, got " + quoted(tok));
      }
      ++c;
    });
    ++r;
  }
  return t;
}

}  // namespace

bool starts_with_bom(std::string_view bytes) { return text_start(bytes) != 0; }

ImportedTable parse_vectors_tsv(std::string_view bytes) { return parse_number_rows(bytes, "read tsv", "tsv", true); }

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

bool has_word2vec_header(std::string_view bytes) {
  const size_t start = text_start(bytes);
  const size_t e = bytes.find('\n', start);
  if (e == std::string_view::npos) return false;
  std::string_view line = bytes.substr(start, e - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  int64_t n, d;
  return header_numbers(line, n, d);
}

namespace {

// True when the bytes after a word2vec header "N D" are laid out as N binary records: an
// optional '\n', a word, a space and 4 D bytes, up to the end (a few '\n', '\r' or ' ' after).
bool binary_layout(std::string_view bytes, size_t p, int64_t n, int64_t d) {
  const uint64_t width = static_cast<uint64_t>(d) * 4;
  for (int64_t r = 0; r < n; ++r) {
    while (p < bytes.size() && bytes[p] == '\n') ++p;
    const size_t space = bytes.find(' ', p);
    if (space == std::string_view::npos || bytes.size() - (space + 1) < width) return false;
    p = space + 1 + static_cast<size_t>(width);
  }
  for (; p < bytes.size(); ++p) {
    if (bytes[p] != '\n' && bytes[p] != '\r' && bytes[p] != ' ') return false;
  }
  return true;
}

// True when a line holds no byte that text does not (a control character other than tab and CR).
bool text_line(std::string_view line) {
  for (const char c : line) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\r') || u == 0x7F) return false;
  }
  return true;
}

}  // namespace

bool word2vec_row_fits(std::string_view bytes) {
  Lines lines(bytes, text_start(bytes));
  std::string_view line;
  int64_t n = 0, d = 0;
  if (!lines.next(line) || !header_numbers(line, n, d)) return false;
  if (!lines.next(line)) return true;  // "0 D\n": no vectors, text or binary alike
  int64_t count = 0;
  bool numbers = true;
  size_t w = 0;
  while (w < line.size() && line[w] != ' ' && line[w] != '\t') ++w;
  fields(line.substr(w), false, [&](std::string_view tok) {
    float v;
    ++count;
    numbers = numbers && parse_float(tok, v);
  });
  return numbers && count == d;
}

bool word2vec_is_text(std::string_view bytes) {
  if (word2vec_row_fits(bytes)) return true;
  Lines lines(bytes, text_start(bytes));
  std::string_view line;
  int64_t n = 0, d = 0;
  if (!lines.next(line) || !header_numbers(line, n, d)) return false;
  const size_t body = bytes.find('\n', text_start(bytes)) + 1;  // Lines found the header's '\n'
  lines.next(line);
  // binary when the bytes are laid out as binary records; when they are neither, the reader
  // that names the fault is the one line 2 looks like (text unless it holds binary bytes)
  if (d >= 1 && binary_layout(bytes, body, n, d)) return false;
  return text_line(line);
}

ImportedTable parse_word2vec_text(std::string_view bytes) {
  const char* where = "read word2vec";
  const size_t start = text_start(bytes);
  Lines lines(bytes, start);
  std::string_view line;
  int64_t n = 0, d = 0;
  if (!lines.next(line) || !header_numbers(line, n, d)) {
    fail(where, "line 1: expected the header 'N D' (the number of vectors and their size), got " + quoted(line));
  }
  if (d < 1) fail(where, "line 1: the vector size must be >= 1, got " + std::to_string(d));
  // every vector takes at least 2 D bytes (D numbers, D separators): a claim the file cannot hold
  // is refused before the table is planned
  const uint64_t after = bytes.size() - std::min(bytes.size(), bytes.find('\n', start) + 1);
  if (static_cast<uint64_t>(n) > after / (2 * static_cast<uint64_t>(d))) {
    fail(where, "line 1: the header claims " + std::to_string(n) + " vectors of " + std::to_string(d) +
                    " numbers, more than the " + std::to_string(after) + " bytes after it can hold");
  }
  ImportedTable t;
  t.format = "word2vec-text";
  allocate(where, t, n, d, true, bytes.size());
  for (int64_t r = 0; r < n; ++r) {
    if (!lines.next(line)) {
      fail(where, "the header promises " + std::to_string(n) + " vectors, the file ends after " + std::to_string(r));
    }
    t.labels.emplace_back(read_word_row(where, line, lines.number(), d, t.data.data() + r * d, false));
  }
  while (lines.next(line)) {
    if (!blank(line)) fail(where, line_at(lines.number()) + "the header promises " + std::to_string(n) + " vectors, found more");
  }
  return t;
}

ImportedTable parse_word2vec_binary(std::string_view bytes) {
  const char* where = "read word2vec";
  const size_t start = text_start(bytes);
  const size_t e = bytes.find('\n', start);
  int64_t n = 0, d = 0;
  std::string_view first = bytes.substr(start, e == std::string_view::npos ? std::string_view::npos : e - start);
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  if (e == std::string_view::npos || !header_numbers(first, n, d)) {
    fail(where, "line 1: expected the header 'N D' (the number of vectors and their size), got " + quoted(first));
  }
  if (d < 1) fail(where, "line 1: the vector size must be >= 1, got " + std::to_string(d));
  const uint64_t after = bytes.size() - (e + 1);
  uint64_t record = 0;  // a space and D float32 at least
  if (__builtin_mul_overflow(static_cast<uint64_t>(d), 4u, &record) || ++record == 0 ||
      static_cast<uint64_t>(n) > after / record) {
    fail(where, "line 1: the header claims " + std::to_string(n) + " vectors of " + std::to_string(d) +
                    " float32, more than the " + std::to_string(after) + " bytes after it can hold");
  }
  ImportedTable t;
  t.format = "word2vec-binary";
  allocate(where, t, n, d, true, bytes.size());
  size_t p = e + 1;
  const size_t width = static_cast<size_t>(d) * 4;
  for (int64_t r = 0; r < n; ++r) {
    while (p < bytes.size() && bytes[p] == '\n') ++p;
    const size_t space = bytes.find(' ', p);
    if (space == std::string_view::npos) {
      fail(where, "byte " + std::to_string(p) + ": vector " + std::to_string(r + 1) + " of " + std::to_string(n) +
                      ": expected a word and a space, the file ends");
    }
    const std::string_view word = bytes.substr(p, space - p);
    p = space + 1;
    if (bytes.size() - p < width) {
      fail(where, "byte " + std::to_string(p) + ": vector " + std::to_string(r + 1) + " (" + quoted(word) +
                      "): expected " + std::to_string(width) + " bytes of float32, the file has " +
                      std::to_string(bytes.size() - p));
    }
    std::memcpy(t.data.data() + r * d, bytes.data() + p, width);
    p += width;
    t.labels.emplace_back(word);
  }
  for (; p < bytes.size(); ++p) {
    if (bytes[p] != '\n' && bytes[p] != '\r' && bytes[p] != ' ') {
      fail(where, "byte " + std::to_string(p) + ": the header promises " + std::to_string(n) + " vectors, found more bytes");
    }
  }
  return t;
}

ImportedTable parse_glove(std::string_view bytes) {
  const char* where = "read glove";
  const size_t start = text_start(bytes);
  Lines lines(bytes, start);
  std::string_view line;
  int64_t cols = -1, rows = 0;
  // a first pass counts the rows and checks each has a word and D numbers (more fields: a word
  // holding spaces), so the table planned is never more values than the file holds
  while (lines.next(line)) {
    if (blank(line)) continue;
    const int64_t n = fields_after_word(line);
    if (cols < 0) {
      cols = n;
      if (cols < 1) fail(where, line_at(lines.number()) + "expected a word and at least one number");
    } else if (n < cols) {
      fail(where, line_at(lines.number()) + "expected " + std::to_string(cols) + " numbers after the word, got " + std::to_string(n));
    }
    ++rows;
  }
  ImportedTable t;
  t.format = "glove";
  if (cols < 0) return t;  // nothing but blank lines: import_table refuses the empty table
  allocate(where, t, rows, cols, true, bytes.size());
  Lines again(bytes, start);
  int64_t r = 0;
  while (again.next(line)) {
    if (blank(line)) continue;
    t.labels.emplace_back(read_word_row(where, line, again.number(), cols, t.data.data() + r * cols, true));
    ++r;
  }
  return t;
}

}  // namespace embedlab
