// The shared text helpers of io/text_rows.hpp. It reads no format of its own.
#include "io/text_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

std::string float_repr(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const bool negative = std::signbit(v);
  const float a = std::fabs(v);
  if (a == 0) return negative ? "-0.0" : "0.0";
  // the shortest correctly rounded decimal that reads back to the same float32
  char buf[48];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, static_cast<double>(a));
    if (std::strtof(buf, nullptr) == a) break;
  }
  std::string digits;
  const char* q = buf;
  for (; *q != 'e'; ++q) {
    if (*q != '.') digits.push_back(*q);
  }
  const int exp10 = std::atoi(q + 1);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (static_cast<double>(a) >= 1e-4 && static_cast<double>(a) < 1e16) {  // as numpy compares
    // positional, at least one digit after the point (numpy's trim='.' keeps "1.0")
    if (exp10 >= 0) {
      const size_t whole = static_cast<size_t>(exp10) + 1;
      if (digits.size() <= whole) {
        out += digits + std::string(whole - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, whole) + "." + digits.substr(whole);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exp10 - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out.push_back('.');
    out += digits.substr(1);
  }
  char e[16];
  std::snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
  return out + e;
}

bool starts_with_bom(std::string_view bytes) { return text::text_start(bytes) != 0; }

// The lines of a text without their '\n' and trailing '\r'; a last line without '\n' counts.
std::vector<std::string_view> split_lines(const char* where, std::string_view text) {
  const int64_t lines = static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) +
                        (!text.empty() && text.back() != '\n' ? 1 : 0);
  plan(where, "lines", {lines, static_cast<int64_t>(sizeof(std::string_view))}, kBytes);
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(lines));
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(p, e - p);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    p = e + 1;
  }
  return out;
}

namespace text {

bool blank(std::string_view line) {
  for (const char c : line) {
    if (!is_space(c)) return false;
  }
  return true;
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

void check_rows(const char* where, int64_t got, const ImportedTable& t) {
  if (got != t.rows) {
    fail(where, std::to_string(got) + " rows for a table of " + std::to_string(t.rows) + " rows");
  }
}

void plan_labels(const char* where, int64_t rows, size_t text_bytes) {
  MemoryPlan p(where);
  p.add("labels", {rows, static_cast<int64_t>(sizeof(std::string))}, kBytes);
  p.add("label text", {static_cast<int64_t>(text_bytes)}, kBytes);
  p.check();
}

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

}  // namespace text
}  // namespace embedlab
