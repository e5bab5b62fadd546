#include "data/sentences.hpp"

#include <algorithm>

#include "core/memory.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab {

bool is_blank_line(std::string_view line) {
  for (size_t i = 0; i < line.size();) {
    uint32_t cp = 0;
    const int len = unicode::decode_one(line, i, cp);
    if (cp == unicode::kInvalid || !unicode::is_python_space(cp)) return false;
    i += static_cast<size_t>(len);
  }
  return true;
}

std::vector<std::string_view> sentence_lines(std::string_view text) {
  // at most one line per '\n', plus the last one
  const int64_t most = static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::vector<std::string_view> lines;
  lines.reserve(plan("sentences", "lines", {most, static_cast<int64_t>(sizeof(std::string_view))}, kBytes) /
                sizeof(std::string_view));
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(p, e - p);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!is_blank_line(line)) lines.push_back(line);
    p = e + 1;
  }
  return lines;
}

Sentences encode_sentences(Tokenizer& tok, std::string_view text) {
  const std::vector<std::string_view> lines = sentence_lines(text);
  Sentences s;
  s.starts.reserve(plan("sentences", "sentence starts", static_cast<int64_t>(lines.size()) + 1, kInt64));
  s.starts.push_back(0);
  for (const std::string_view line : lines) {
    const std::vector<int32_t> ids = tok.encode(line);
    if (ids.empty()) continue;  // rule 4
    // the ids so far and this line's, planned before the vector grows
    plan("sentences", "ids", static_cast<int64_t>(s.ids.size() + ids.size()), kInt32);
    s.ids.insert(s.ids.end(), ids.begin(), ids.end());
    s.starts.push_back(static_cast<int64_t>(s.ids.size()));
  }
  return s;
}

}  // namespace embedlab
