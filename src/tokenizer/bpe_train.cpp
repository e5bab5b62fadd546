#include "tokenizer/bpe_train.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "tokenizer/gpt2_split.hpp"

namespace embedlab {

namespace {
constexpr int64_t kMaxBpeVocab = 1 << 20;
// Planned bytes per adjacent position of the distinct pieces (A). Each bounds its table for the
// whole run: live pairs <= A; positions ever listed <= 3A (A at the start, at most 2 per merged
// occurrence, and merged occurrences <= A), twice that for vector growth; heap entries <= 3A
// (compacted at 2 x live pairs, plus one merge's pushes), twice that for growth; touched keys of
// one merge <= 5A.
//   pair counts   a hash node (key, value, link, cached hash) and its bucket     48
//   pair index    a hash node with a vector header and its bucket (72), 6 x 4    96
//   pair heap     6 x 16-byte items                                             96
//   touched keys  5 x 8                                                          40
constexpr int64_t kPairCountBytes = 48, kPairIndexBytes = 96, kHeapBytes = 96, kTouchedBytes = 40;
// symbols: sym_, next_, prev_, piece_ (int32 each) per position
constexpr int64_t kSymbolBytes = 16;
inline uint64_t pair_key(int32_t a, int32_t b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); }
inline int32_t key_left(uint64_t k) { return static_cast<int32_t>(k >> 32); }
inline int32_t key_right(uint64_t k) { return static_cast<int32_t>(k & 0xFFFFFFFFu); }
}  // namespace

BpeTrainer::BpeTrainer(std::string_view text, int64_t vocab_size) : target_(vocab_size) {
  check_at_least("bpe train", "vocab_size", vocab_size, 256);
  check_index("bpe train", "vocab_size", vocab_size, 256, kMaxBpeVocab + 1);
  // A check, not a reservation: the distinct pieces hold at most one id per byte of the text.
  plan("bpe train", "piece ids (at most one per byte)", static_cast<int64_t>(text.size()), kInt32);
  if (text.size() >= static_cast<size_t>(INT32_MAX)) {  // positions are int32
    fail("bpe train", "text of " + std::to_string(text.size()) + " bytes; at most 2147483646 bytes fit int32 positions");
  }
  // Distinct pieces with their occurrence counts, in first-occurrence order; their bytes are the
  // positions.
  std::unordered_map<std::string_view, int32_t> index;
  Gpt2Splitter split(text);
  for (std::string_view piece; split.next(piece);) {
    auto [it, fresh] = index.try_emplace(piece, static_cast<int32_t>(pieces_));
    if (fresh) {
      for (const char c : piece) {
        sym_.push_back(static_cast<unsigned char>(c));
        piece_.push_back(static_cast<int32_t>(pieces_));
      }
      freq_.push_back(0);
      ++pieces_;
    }
    ++freq_[it->second];
    tokens_ += static_cast<int64_t>(piece.size());
  }
  const int64_t positions = static_cast<int64_t>(sym_.size());
  const int64_t adjacent = positions - pieces_;
  MemoryPlan p("bpe train");
  p.add("symbols", {positions, kSymbolBytes}, kBytes);
  p.add("pair counts", {adjacent, kPairCountBytes}, kBytes);
  p.add("pair index", {adjacent, kPairIndexBytes}, kBytes);
  p.add("pair heap", {adjacent, kHeapBytes}, kBytes);
  p.add("touched pairs", {adjacent, kTouchedBytes}, kBytes);
  p.check();
  next_.assign(sym_.size(), -1);
  prev_.assign(sym_.size(), -1);
  for (int32_t i = 0; i + 1 < static_cast<int32_t>(positions); ++i) {
    if (piece_[i] != piece_[i + 1]) continue;
    next_[i] = i + 1;
    prev_[i + 1] = i;
    const uint64_t key = pair_key(sym_[i], sym_[i + 1]);
    pair_count_[key] += freq_[piece_[i]];
    where_[key].push_back(i);
  }
  work_ += positions;
  for (const auto& [key, count] : pair_count_) heap_.push({count, key});
}

void BpeTrainer::bump(uint64_t key, int64_t delta) {
  pair_count_[key] += delta;
  touched_.push_back(key);
}

bool BpeTrainer::best_pair(uint64_t& key, int64_t& count) const {
  while (!heap_.empty()) {
    const HeapItem top = heap_.top();
    auto it = pair_count_.find(top.key);
    if (it == pair_count_.end() || it->second != top.count || too_long_.count(top.key)) {
      heap_.pop();  // stale (its count changed since the push), or never mergeable
      continue;
    }
    const uint64_t n = tok_.token_bytes(key_left(top.key)).size() + tok_.token_bytes(key_right(top.key)).size();
    if (n > static_cast<uint64_t>(kMaxBpeTokenBytes)) {
      too_long_.insert(top.key);  // tokens never shrink: it stays too long
      heap_.pop();
      continue;
    }
    key = top.key, count = top.count;
    return true;
  }
  return false;
}

bool BpeTrainer::done() const {
  uint64_t key;
  int64_t count;
  return tok_.vocab_size() >= target_ || !best_pair(key, count);
}

// Merges the occurrence of m's pair at position i (its left symbol), if it is still there: the
// pairs beside it, (prev, left) and (right, next), become (prev, id) and (id, next).
void BpeTrainer::merge_at(int32_t i, const BpeMerge& m) {
  ++work_;
  if (sym_[i] != m.left) return;  // merged away or rewritten since the pair formed here
  const int32_t j = next_[i];
  if (j < 0 || sym_[j] != m.right) return;
  const int64_t f = freq_[piece_[i]];
  const int32_t p = prev_[i], n = next_[j];
  bump(pair_key(m.left, m.right), -f);
  if (p >= 0) {
    bump(pair_key(sym_[p], m.left), -f);
    bump(pair_key(sym_[p], m.id), +f);
    where_[pair_key(sym_[p], m.id)].push_back(p);
  }
  if (n >= 0) {
    bump(pair_key(m.right, sym_[n]), -f);
    bump(pair_key(m.id, sym_[n]), +f);
    where_[pair_key(m.id, sym_[n])].push_back(i);
    prev_[n] = i;
  }
  sym_[i] = m.id;
  sym_[j] = -1;
  next_[i] = n;
  tokens_ -= f;
}

std::vector<BpeMerge> BpeTrainer::step(int64_t n) {
  check_at_least("bpe train step", "n", n, 0);
  std::vector<BpeMerge> out;
  while (static_cast<int64_t>(out.size()) < n && tok_.vocab_size() < target_) {
    uint64_t key;
    int64_t count;
    if (!best_pair(key, count)) break;
    heap_.pop();
    const BpeMerge m{key_left(key), key_right(key), tok_.vocab_size(), count};
    tok_.add_merge(m);
    // subtle: occurrences are merged in text order, so a run "aaa" of (a, a) becomes "aa" "a",
    // as merge_pair does (left to right, without overlap).
    std::vector<int32_t> at = std::move(where_[key]);
    where_.erase(key);
    std::sort(at.begin(), at.end());
    touched_.clear();
    for (const int32_t i : at) merge_at(i, m);
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (const uint64_t t : touched_) {
      auto it = pair_count_.find(t);
      if (it->second <= 0) {
        pair_count_.erase(it);
        where_.erase(t);
      } else {
        heap_.push({it->second, t});
      }
    }
    // Compaction keeps the heap within 2 x the live pairs (the memory plan's bound).
    if (heap_.size() > 2 * pair_count_.size() + 1024) {
      std::vector<HeapItem> live;
      live.reserve(pair_count_.size());
      for (const auto& [k, c] : pair_count_)
        if (!too_long_.count(k)) live.push_back({c, k});
      heap_ = std::priority_queue<HeapItem>(std::less<HeapItem>(), std::move(live));
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace embedlab
