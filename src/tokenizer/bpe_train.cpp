#include "tokenizer/bpe_train.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "tokenizer/gpt2_split.hpp"

namespace embedlab {

namespace {
constexpr int64_t kMaxBpeVocab = 1 << 20;
// Bytes per entry of the pair tables as planned: a hash node (key, value, link, cached hash)
// plus its bucket, a where_ list with its first element, and a heap item.
constexpr int64_t kPairCountBytes = 48, kPairIndexBytes = 72, kHeapItemBytes = 16;
inline uint64_t pair_key(int32_t a, int32_t b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); }
inline int32_t key_left(uint64_t k) { return static_cast<int32_t>(k >> 32); }
inline int32_t key_right(uint64_t k) { return static_cast<int32_t>(k & 0xFFFFFFFFu); }
}  // namespace

BpeTrainer::BpeTrainer(std::string_view text, int64_t vocab_size) : target_(vocab_size) {
  check_at_least("bpe train", "vocab_size", vocab_size, 256);
  check_index("bpe train", "vocab_size", vocab_size, 256, kMaxBpeVocab + 1);
  // A check, not a reservation: the distinct pieces hold at most one id per byte of the text.
  plan("bpe train", "piece ids (at most one per byte)", static_cast<int64_t>(text.size()), kInt32);
  // Distinct pieces with their occurrence counts, in first-occurrence order.
  std::unordered_map<std::string_view, int32_t> index;
  Gpt2Splitter split(text);
  for (std::string_view piece; split.next(piece);) {
    if (pieces_.size() == static_cast<size_t>(INT32_MAX)) {  // pieces are int32 indexes
      fail("bpe train", "more than 2147483647 distinct pieces do not fit in int32 indexes");
    }
    auto [it, fresh] = index.try_emplace(piece, static_cast<int32_t>(pieces_.size()));
    if (fresh) {
      pieces_.emplace_back(piece.begin(), piece.end());
      for (auto& id : pieces_.back()) id = static_cast<unsigned char>(id);
      freq_.push_back(0);
    }
    ++freq_[it->second];
    tokens_ += static_cast<int64_t>(piece.size());
  }
  // The pair tables hold at most one entry per adjacent position of the distinct pieces.
  int64_t adjacent = 0;
  for (const auto& piece : pieces_) adjacent += static_cast<int64_t>(piece.size()) - 1;
  MemoryPlan p("bpe train");
  p.add("pair counts", {adjacent, kPairCountBytes}, kBytes);
  p.add("pair index", {adjacent, kPairIndexBytes}, kBytes);
  p.add("pair heap", {adjacent, kHeapItemBytes}, kBytes);
  p.add("piece stamps", {static_cast<int64_t>(pieces_.size())}, kInt64);
  p.check();
  visited_.assign(pieces_.size(), -1);
  std::vector<uint64_t> touched;
  for (int32_t p = 0; p < static_cast<int32_t>(pieces_.size()); ++p) add_pairs(p, +1, touched);
  for (const auto& [key, count] : pair_count_) heap_.push({count, key});
}

// Adds (sign +1) or removes (-1) the pair counts of one piece; records touched keys. When adding
// after a merge (new_id >= 0) only pairs with the new id are listed in where_: every other adjacent
// pair of the piece was adjacent before the merge too, so the piece is already listed for it.
void BpeTrainer::add_pairs(int32_t piece, int64_t sign, std::vector<uint64_t>& touched, int32_t new_id) {
  const auto& ids = pieces_[piece];
  for (size_t k = 0; k + 1 < ids.size(); ++k) {
    const uint64_t key = pair_key(ids[k], ids[k + 1]);
    pair_count_[key] += sign * freq_[piece];
    if (sign > 0 && (new_id < 0 || ids[k] == new_id || ids[k + 1] == new_id)) where_[key].push_back(piece);
    touched.push_back(key);
  }
}

// The current best pair: highest count, then smallest key (= smallest (left, right)).
bool BpeTrainer::best_pair(uint64_t& key, int64_t& count) {
  while (!heap_.empty()) {
    const HeapItem top = heap_.top();
    heap_.pop();
    auto it = pair_count_.find(top.key);
    const int64_t now = it == pair_count_.end() ? 0 : it->second;
    if (now == top.count && now > 0) {
      key = top.key, count = now;
      return true;
    }
    if (now > 0 && now < top.count) heap_.push({now, top.key});  // stale: counts fell since the push
  }
  return false;
}

bool BpeTrainer::done() const {
  if (tok_.vocab_size() >= target_) return true;
  for (const auto& [key, count] : pair_count_)
    if (count > 0) return false;
  return true;
}

std::vector<BpeMerge> BpeTrainer::step(int64_t n) {
  check_at_least("bpe train step", "n", n, 0);
  std::vector<BpeMerge> out;
  std::vector<uint64_t> touched;
  while (static_cast<int64_t>(out.size()) < n && tok_.vocab_size() < target_) {
    uint64_t key;
    int64_t count;
    if (!best_pair(key, count)) break;
    const BpeMerge m{key_left(key), key_right(key), tok_.vocab_size(), count};
    tok_.add_merge(m);
    const int64_t stamp = m.id;
    touched.clear();
    std::vector<int32_t> holders = std::move(where_[key]);
    where_.erase(key);
    for (const int32_t p : holders) {
      if (visited_[p] == stamp) continue;  // listed twice
      visited_[p] = stamp;
      auto& ids = pieces_[p];
      bool has = false;
      for (size_t k = 0; k + 1 < ids.size() && !has; ++k) has = ids[k] == m.left && ids[k + 1] == m.right;
      if (!has) continue;  // stale entry: an earlier merge removed the pair here
      add_pairs(p, -1, touched);
      const size_t before = ids.size();
      merge_pair(ids, m);
      tokens_ -= static_cast<int64_t>(before - ids.size()) * freq_[p];
      add_pairs(p, +1, touched, m.id);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (const uint64_t t : touched) {
      auto it = pair_count_.find(t);
      if (it == pair_count_.end()) continue;
      if (it->second <= 0) {
        pair_count_.erase(it);
        where_.erase(t);
      } else {
        heap_.push({it->second, t});
      }
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace embedlab
