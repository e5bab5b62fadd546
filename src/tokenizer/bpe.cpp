#include "tokenizer/bpe.hpp"

#include <cstdio>
#include <queue>
#include <limits>
#include <sstream>
#include <unordered_set>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "tokenizer/gpt2_split.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab {

namespace {
inline uint64_t pair_key(int32_t a, int32_t b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); }
}  // namespace

void merge_pair(std::vector<int32_t>& ids, const BpeMerge& m) {
  size_t w = 0;
  for (size_t k = 0; k < ids.size(); ++k) {
    if (k + 1 < ids.size() && ids[k] == m.left && ids[k + 1] == m.right) {
      ids[w++] = m.id;
      ++k;
    } else {
      ids[w++] = ids[k];
    }
  }
  ids.resize(w);
}

BpeTokenizer::BpeTokenizer() {
  bytes_.reserve(256);
  for (int b = 0; b < 256; ++b) bytes_.emplace_back(1, static_cast<char>(b));
}

void BpeTokenizer::add_merge(const BpeMerge& m) {
  check_index("bpe merge", "new id", m.id, vocab_size(), vocab_size() + 1);
  check_index("bpe merge", "left id", m.left, 0, vocab_size());
  check_index("bpe merge", "right id", m.right, 0, vocab_size());
  if (!rank_.emplace(pair_key(m.left, m.right), static_cast<int32_t>(merges_.size())).second) {
    fail("bpe merge", "pair (" + std::to_string(m.left) + ", " + std::to_string(m.right) + ") is merged twice");
  }
  const size_t n = bytes_[m.left].size() + bytes_[m.right].size();
  if (n > static_cast<size_t>(kMaxBpeTokenBytes)) {
    fail("bpe merge", "token " + std::to_string(m.id) + " would be " + std::to_string(n) + " bytes long; the longest allowed is " +
                          std::to_string(kMaxBpeTokenBytes) + " bytes (" + format_bytes(kMaxBpeTokenBytes) + ")");
  }
  merges_.push_back(m);
  bytes_.push_back(bytes_[m.left] + bytes_[m.right]);
}

// Short pieces: minbpe's loop (find the lowest-rank pair, merge it everywhere, repeat).
// Long pieces (kBpeHeapFrom bytes or more; minbpe's loop costs O(n) per merge there, O(n^2) on
// text without spaces): a heap of (rank, position) with lazy invalidation over a linked list of
// symbols, O(n log n). Both give the same ids: a merge's ids are below 256 + its rank, so no
// merge of rank r can form a pair of a lower rank, and within one rank the heap takes positions
// left to right, skipping an occurrence that the previous one consumed ("aaa" -> "aa" "a").
void BpeTokenizer::encode_piece(std::string_view piece, std::vector<int32_t>& out) const {
  if (piece.size() >= kBpeHeapFrom) {
    encode_piece_heap(piece, out);
    return;
  }
  std::vector<int32_t> ids(piece.begin(), piece.end());
  for (auto& id : ids) id = static_cast<unsigned char>(id);
  while (ids.size() >= 2) {
    int32_t best = std::numeric_limits<int32_t>::max();
    for (size_t k = 0; k + 1 < ids.size(); ++k) {
      auto it = rank_.find(pair_key(ids[k], ids[k + 1]));
      if (it != rank_.end() && it->second < best) best = it->second;
    }
    if (best == std::numeric_limits<int32_t>::max()) break;
    merge_pair(ids, merges_[best]);
  }
  out.insert(out.end(), ids.begin(), ids.end());
}

void BpeTokenizer::encode_piece_heap(std::string_view piece, std::vector<int32_t>& out) const {
  const int64_t n = static_cast<int64_t>(piece.size());
  if (n >= INT32_MAX) fail("encode", "a piece of " + std::to_string(n) + " bytes is too long (the limit is 2 GiB)");
  MemoryPlan p("encode");
  p.add("merge symbols", {3, n}, kInt32);
  p.add("merge heap (rank, position)", {2 * n, 2}, kInt32);
  p.check();
  std::vector<int32_t> sym(piece.begin(), piece.end()), next(n), prev(n);
  for (int64_t k = 0; k < n; ++k) {
    sym[k] = static_cast<unsigned char>(sym[k]);
    next[k] = static_cast<int32_t>(k + 1 < n ? k + 1 : -1);
    prev[k] = static_cast<int32_t>(k - 1);
  }
  using Item = std::pair<int32_t, int32_t>;  // (rank, position of the pair's left symbol)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  auto push = [&](int32_t i) {  // the pair at i (its symbol and the next), if it is a merge
    if (i < 0 || next[i] < 0) return;
    auto it = rank_.find(pair_key(sym[i], sym[next[i]]));
    if (it != rank_.end()) heap.push({it->second, i});
  };
  for (int32_t i = 0; i + 1 < n; ++i) push(i);
  while (!heap.empty()) {
    const auto [r, i] = heap.top();
    heap.pop();
    const BpeMerge& m = merges_[r];
    const int32_t j = sym[i] < 0 ? -1 : next[i];
    if (j < 0 || sym[i] != m.left || sym[j] != m.right) continue;  // stale: merged since the push
    sym[i] = m.id;
    sym[j] = -1;
    next[i] = next[j];
    if (next[j] >= 0) prev[next[j]] = i;
    push(prev[i]);
    push(i);
  }
  for (int32_t i = 0; i >= 0; i = next[i]) out.push_back(sym[i]);
}

std::vector<int32_t> BpeTokenizer::encode(std::string_view text) const {
  // A check, not a reservation: every id covers at least one byte, and a piece's work buffer
  // holds at most one id per byte of it.
  MemoryPlan p("encode");
  p.add("ids (at most one per byte)", {static_cast<int64_t>(text.size())}, kInt32);
  p.add("piece ids (at most one per byte)", {static_cast<int64_t>(text.size())}, kInt32);
  p.check();
  std::vector<int32_t> out;
  Gpt2Splitter split(text);
  for (std::string_view piece; split.next(piece);) encode_piece(piece, out);
  return out;
}

std::string BpeTokenizer::decode_bytes(std::span<const int32_t> ids) const {
  // The exact output size first (token lengths summed in 64 bits), planned, then one allocation.
  uint64_t total = 0;
  for (const int32_t id : ids) {
    check_index("decode", "token id", id, 0, vocab_size());
    total += bytes_[id].size();  // each <= the planned total of all tokens: no overflow
  }
  std::string out;
  out.reserve(plan("decode", "text", static_cast<int64_t>(total), kBytes));
  for (const int32_t id : ids) out += bytes_[id];
  return out;
}

std::string BpeTokenizer::decode(std::span<const int32_t> ids) const {
  return unicode::replace_invalid_utf8(decode_bytes(ids));
}

const std::string& BpeTokenizer::token_bytes(int32_t id) const {
  check_index("token_bytes", "token id", id, 0, vocab_size());
  return bytes_[id];
}

std::string BpeTokenizer::save() const {
  std::ostringstream os;
  os << "embedlab-bpe 1\npattern gpt2\nmerges " << merges_.size() << "\n";
  for (const auto& m : merges_) os << m.left << " " << m.right << " " << m.count << "\n";
  return os.str();
}

BpeTokenizer BpeTokenizer::load(std::string_view text) {
  size_t pos = 0;  // the text is read in place, line by line (no copy of the file)
  std::string line;
  int line_no = 0;
  auto bad = [&](const std::string& what) { fail("bpe load", "line " + std::to_string(line_no) + ": " + what); };
  auto next_line = [&]() -> bool {
    if (pos >= text.size()) return false;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line.assign(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  };
  if (!next_line() || line != "embedlab-bpe 1") {
    line_no = 1;
    bad("expected 'embedlab-bpe 1', got '" + line.substr(0, 40) + "'");
  }
  if (!next_line() || line != "pattern gpt2") bad("expected 'pattern gpt2', got '" + line.substr(0, 40) + "'");
  long long count = -1;
  if (!next_line() || std::sscanf(line.c_str(), "merges %lld", &count) != 1 || count < 0 || count > (1 << 24)) {
    bad("expected 'merges <count>' with a count in [0, 16777216], got '" + line.substr(0, 40) + "'");
  }
  // The merges' own tables are checked against the declared count (without reserving it).
  {
    MemoryPlan p("bpe load");
    p.add("merge list", {count, static_cast<int64_t>(sizeof(BpeMerge))}, kBytes);
    p.add("token strings", {256 + count, static_cast<int64_t>(sizeof(std::string))}, kBytes);
    p.add("merge ranks", {count, 4 * static_cast<int64_t>(sizeof(uint64_t))}, kBytes);
    p.check();
  }
  // Pass 1: read and check every line, and sum the token lengths, building no token.
  // subtle: a merge file whose tokens double each line ("256 256", "257 257", ...) reaches
  // 2^60-byte tokens in a few hundred bytes; each length is capped at kMaxBpeTokenBytes as its
  // line is read, so the 64-bit sums cannot overflow (2^24 merges x 2^20 bytes).
  std::vector<BpeMerge> merges;            // grows with the lines present, not the declared count
  std::vector<uint64_t> length(256, 1);    // id -> token bytes
  std::unordered_set<uint64_t> seen;       // (left << 32 | right) of the merges so far
  uint64_t token_bytes = 256;              // the bytes of all tokens (the 256 single bytes first)
  for (long long k = 0; k < count; ++k) {
    if (!next_line()) bad("file ends after " + std::to_string(k) + " of " + std::to_string(count) + " merges");
    long long a, b, c;
    char extra;
    if (std::sscanf(line.c_str(), "%lld %lld %lld %c", &a, &b, &c, &extra) != 3 || c < 0) {
      bad("expected '<left> <right> <count>', got '" + line.substr(0, 40) + "'");
    }
    const int32_t id = static_cast<int32_t>(256 + k);
    if (a < 0 || a >= id || b < 0 || b >= id) {
      bad("pair (" + std::to_string(a) + ", " + std::to_string(b) + ") refers to an id outside [0, " + std::to_string(id) + ")");
    }
    if (!seen.insert(pair_key(static_cast<int32_t>(a), static_cast<int32_t>(b))).second) {
      bad("pair (" + std::to_string(a) + ", " + std::to_string(b) + ") is merged twice");
    }
    const uint64_t n = length[a] + length[b];
    if (n > static_cast<uint64_t>(kMaxBpeTokenBytes)) {
      bad("token " + std::to_string(id) + " would be " + std::to_string(n) + " bytes long; the longest allowed is " +
          std::to_string(kMaxBpeTokenBytes) + " bytes (" + format_bytes(kMaxBpeTokenBytes) + ")");
    }
    length.push_back(n);
    token_bytes += n;
    merges.push_back({static_cast<int32_t>(a), static_cast<int32_t>(b), id, c});
  }
  // Pass 2: the whole file's token bytes planned at once, then the tokens built.
  plan("bpe load", "token text of " + std::to_string(count) + " merges", static_cast<int64_t>(token_bytes), kBytes);
  BpeTokenizer tok;
  for (const BpeMerge& m : merges) tok.add_merge(m);
  return tok;
}

}  // namespace embedlab
