// The word2vec readers and writers of io/word2vec.hpp, the checks that tell its two layouts
// apart, and the registry entries "word2vec-text" and "word2vec-binary" (io/formats.hpp).
#include "io/word2vec.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/formats.hpp"
#include "io/text_rows.hpp"

namespace embedlab {

namespace {

using namespace text;

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

void check_word(const char* where, const std::string& word, int64_t row) {
  if (word.find_first_of(" \t\n\r") != std::string::npos) {
    fail(where, "label " + quoted(word) + " of row " + std::to_string(row) +
                    " holds a space, tab or line break, which a word2vec word cannot");
  }
}

std::string word_of(const ImportedTable& t, int64_t r) {
  return t.labels.empty() ? std::to_string(r) : t.labels[static_cast<size_t>(r)];
}

void check_table(const char* where, const ImportedTable& t) {
  uint64_t n = 0;
  if (t.rows < 0 || t.cols < 0 ||
      __builtin_mul_overflow(static_cast<uint64_t>(t.rows), static_cast<uint64_t>(t.cols), &n) || n != t.data.size()) {
    fail(where, "table of " + std::to_string(t.data.size()) + " values is not " + std::to_string(t.rows) + " x " +
                    std::to_string(t.cols));
  }
  if (!t.labels.empty() && static_cast<int64_t>(t.labels.size()) != t.rows) {
    fail(where, "got " + std::to_string(t.labels.size()) + " labels for " + std::to_string(t.rows) + " rows");
  }
}

int64_t label_bytes(const ImportedTable& t) {
  int64_t n = 0;
  for (int64_t r = 0; r < t.rows; ++r) n += static_cast<int64_t>(word_of(t, r).size()) + 1;
  return n;
}

// The one writer of both layouts: the header, then per row the word (checked) and the vector,
// as text (" v1 ... vD\n", float_repr) or binary (" " and D float32); the text and the words are
// planned first.
std::string write_rows(const char* where, const ImportedTable& t, bool binary) {
  check_table(where, t);
  MemoryPlan p(where);
  if (binary) {
    p.add("vectors", {t.rows, t.cols}, kFloat32);
  } else {
    // a float32 repr is at most 15 bytes ("-1.17549435e-38"), and a separator
    p.add("vector text", {t.rows, t.cols, 16}, kBytes);
  }
  p.add("word text", {label_bytes(t) + 64}, kBytes);
  p.check();
  std::string out = std::to_string(t.rows) + " " + std::to_string(t.cols) + "\n";
  out.reserve(static_cast<size_t>(p.bytes()));
  for (int64_t r = 0; r < t.rows; ++r) {
    const std::string word = word_of(t, r);
    check_word(where, word, r);
    out += word;
    const float* row = t.data.data() + r * t.cols;
    if (binary) {
      out.push_back(' ');
      // subtle: little-endian host assumed (x86-64 and wasm), as gensim's tobytes() on x86
      out.append(reinterpret_cast<const char*>(row), static_cast<size_t>(t.cols) * 4);
      continue;
    }
    for (int64_t c = 0; c < t.cols; ++c) {
      out.push_back(' ');
      out += float_repr(row[c]);
    }
    out.push_back('\n');
  }
  return out;
}

ImportedTable read_text(std::string_view bytes, const std::string&) { return parse_word2vec_text(bytes); }
ImportedTable read_binary(std::string_view bytes, const std::string&) { return parse_word2vec_binary(bytes); }

// A first line "N D" (savetxt, ranked before, has taken the files of numbers throughout), and
// line 2 laid out as text (word2vec_is_text) or not.
bool detect_text(const DetectInput& in) {
  return in.stage == DetectStage::kSignature && has_word2vec_header(in.text) && word2vec_is_text(in.text);
}
bool detect_binary(const DetectInput& in) {
  return in.stage == DetectStage::kSignature && has_word2vec_header(in.text) && !word2vec_is_text(in.text);
}

}  // namespace

const TableFormat& word2vec_text_format() {
  static const TableFormat f{.name = "word2vec-text", .label = "word2vec text", .extensions = {"vec"},
                             .out_extension = "txt", .family = "word2vec", .detect_rank = 5, .detect = detect_text,
                             .read = read_text, .write = word2vec_text};
  return f;
}

const TableFormat& word2vec_binary_format() {
  static const TableFormat f{.name = "word2vec-binary", .label = "word2vec binary", .extensions = {"bin"},
                             .out_extension = "bin", .family = "word2vec", .detect_rank = 6, .detect = detect_binary,
                             .read = read_binary, .write = word2vec_binary};
  return f;
}

std::string word2vec_text(const ImportedTable& t) { return write_rows("export word2vec-text", t, false); }

std::string word2vec_binary(const ImportedTable& t) { return write_rows("export word2vec-binary", t, true); }

bool has_word2vec_header(std::string_view bytes) {
  const size_t start = text_start(bytes);
  const size_t e = bytes.find('\n', start);
  if (e == std::string_view::npos) return false;
  std::string_view line = bytes.substr(start, e - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  int64_t n, d;
  return header_numbers(line, n, d);
}

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

}  // namespace embedlab
