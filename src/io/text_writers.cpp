// The writers of io/text_tables.hpp: numpy's float32 repr, and word2vec text and binary as gensim
// 4.2 writes them (the readers are text_tables.cpp). It does not read anything.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/text_tables.hpp"

namespace embedlab {

namespace {

std::string quoted(std::string_view tok) {
  std::string q(1, '\'');
  q += tok.substr(0, 40);
  q += tok.size() > 40 ? "...'" : "'";
  return q;
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

}  // namespace

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

std::string word2vec_text(const ImportedTable& t) {
  const char* where = "export word2vec-text";
  check_table(where, t);
  // a float32 repr is at most 15 bytes ("-1.17549435e-38"), and a separator
  MemoryPlan p(where);
  p.add("vector text", {t.rows, t.cols, 16}, kBytes);
  p.add("word text", {label_bytes(t) + 64}, kBytes);
  p.check();
  std::string out = std::to_string(t.rows) + " " + std::to_string(t.cols) + "\n";
  out.reserve(static_cast<size_t>(p.bytes()));
  for (int64_t r = 0; r < t.rows; ++r) {
    const std::string word = word_of(t, r);
    check_word(where, word, r);
    out += word;
    const float* row = t.data.data() + r * t.cols;
    for (int64_t c = 0; c < t.cols; ++c) {
      out.push_back(' ');
      out += float_repr(row[c]);
    }
    out.push_back('\n');
  }
  return out;
}

std::string word2vec_binary(const ImportedTable& t) {
  const char* where = "export word2vec-binary";
  check_table(where, t);
  MemoryPlan p(where);
  p.add("vectors", {t.rows, t.cols}, kFloat32);
  p.add("word text", {label_bytes(t) + 64}, kBytes);
  p.check();
  std::string out = std::to_string(t.rows) + " " + std::to_string(t.cols) + "\n";
  out.reserve(static_cast<size_t>(p.bytes()));
  for (int64_t r = 0; r < t.rows; ++r) {
    const std::string word = word_of(t, r);
    check_word(where, word, r);
    out += word;
    out.push_back(' ');
    // subtle: little-endian host assumed (x86-64 and wasm), as gensim's tobytes() on x86
    out.append(reinterpret_cast<const char*>(t.data.data() + r * t.cols), static_cast<size_t>(t.cols) * 4);
  }
  return out;
}

}  // namespace embedlab
