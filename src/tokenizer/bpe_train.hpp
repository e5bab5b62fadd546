// Byte-level BPE training on a user's text, one merge at a time (so a page can show the table grow).
//
// Does: split the text with the GPT-2 pattern (pairs never cross piece boundaries), start from the
// 256 byte ids, and repeatedly merge the most frequent adjacent pair into a new id (Sennrich et
// al. 2016, "Neural Machine Translation of Rare Words with Subword Units", Algorithm 1; byte-level
// as in GPT-2 and minbpe's RegexTokenizer.train).
//   Pair counts are over all adjacent positions of the current ids in every piece, weighted by how
//   often the piece occurs ("aaa" counts (a, a) twice); a merge replaces occurrences left to right
//   without overlap ("aaa" -> "aa" "a"), as minbpe's get_stats/merge.
//   Tie-breaking (deterministic, documented): among pairs with the highest count, the smallest
//   (left id, right id) wins. subtle: minbpe instead takes the first pair in dict insertion order,
//   so with ties the two can pick different merges.
//   Training stops at the target vocabulary size or when no adjacent pair is left.
// Does not: encode (bpe.hpp's BpeTokenizer does, from the merges), special tokens, or
// regularisation (BPE-dropout).
//
// Cost: counts are updated incrementally: a merge touches only the distinct pieces that contain
// the pair (an index pair -> pieces), and the next best pair comes from a lazy max-heap.
//
// Worked example: BpeTrainer("aaabdaaabac", 259).train() (one piece):
//   (97,97) "aa" count 4 -> 256;  then (97,98) and (256,97) both count 2, the smaller pair wins:
//   (97,98) "ab" -> 257;  then (256,257) "aaab" count 2 -> 258.  encode -> {258, 100, 258, 97, 99}.
//
// Intended usage:
//   BpeTrainer tr(text, 512);                  // vocab_size >= 256
//   while (!tr.done()) for (const BpeMerge& m : tr.step(10)) show(m, tr.tokenizer().token_bytes(m.id));
//   std::string file = tr.tokenizer().save();
#pragma once

#include <cstdint>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/bpe.hpp"

namespace embedlab {

class BpeTrainer {
 public:
  // Throws "bpe train: vocab_size must be >= 256, got 100" and, above 1048576 ids,
  // "bpe train: vocab_size 2000000 out of range [256, 1048577)".
  BpeTrainer(std::string_view text, int64_t vocab_size);

  // Performs up to n merges (n >= 0) and returns them in order; fewer when done.
  std::vector<BpeMerge> step(int64_t n = 1);
  // Runs to the end.
  void train() { step(target_ - tok_.vocab_size()); }
  bool done() const;
  int64_t target_vocab_size() const { return target_; }
  const BpeTokenizer& tokenizer() const { return tok_; }
  int64_t distinct_pieces() const { return static_cast<int64_t>(pieces_.size()); }
  // Tokens the training text encodes to with the merges so far (its byte count before any merge).
  int64_t token_count() const { return tokens_; }

 private:
  struct HeapItem {
    int64_t count;
    uint64_t key;
    bool operator<(const HeapItem& o) const { return count != o.count ? count < o.count : key > o.key; }
  };
  void add_pairs(int32_t piece, int64_t sign, std::vector<uint64_t>& touched, int32_t new_id = -1);
  bool best_pair(uint64_t& key, int64_t& count);

  int64_t target_;
  int64_t tokens_ = 0;
  BpeTokenizer tok_;
  std::vector<std::vector<int32_t>> pieces_;               // distinct piece -> current ids
  std::vector<int64_t> freq_;                              // distinct piece -> occurrences
  std::unordered_map<uint64_t, int64_t> pair_count_;       // (left << 32 | right) -> weighted count
  std::unordered_map<uint64_t, std::vector<int32_t>> where_;  // pair -> pieces that had it (may repeat)
  std::priority_queue<HeapItem> heap_;                     // lazy: stale entries are re-checked
  std::vector<int64_t> visited_;                           // piece -> last merge that rewrote it
};

}  // namespace embedlab
