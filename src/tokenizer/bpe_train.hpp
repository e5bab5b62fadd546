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
// Cost: each distinct piece is a linked list of symbols (a position per byte of it), and every
// adjacent pair keeps the positions where it was formed (Sennrich's "index of pair positions";
// as in HF tokenizers' and sentencepiece's BPE trainers). A merge visits only the positions of
// the merged pair, in text order, and updates the counts of the pairs beside each; the next best
// pair comes from a lazy max-heap. So text without spaces (one long piece) costs about
// O(n log n) over the whole training, not O(n) per merge. work() counts the positions visited.
// Memory: planned in the constructor (pair counts, positions, heap, symbols) from the number of
// adjacent positions, which bounds every table for the whole run.
// Tokens are at most kMaxBpeTokenBytes (bpe.hpp) long: a pair whose token would be longer is
// never merged (training ends when only such pairs are left).

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
#include <unordered_set>
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
  int64_t distinct_pieces() const { return pieces_; }
  // Tokens the training text encodes to with the merges so far (its byte count before any merge).
  int64_t token_count() const { return tokens_; }
  // Symbol positions visited so far (a count of work, for tests of the training cost).
  int64_t work() const { return work_; }

 private:
  struct HeapItem {
    int64_t count;
    uint64_t key;
    bool operator<(const HeapItem& o) const { return count != o.count ? count < o.count : key > o.key; }
  };
  // Adds `delta` to a pair's count; records the key as touched by this merge.
  void bump(uint64_t key, int64_t delta);
  // The current best mergeable pair (highest count, then smallest key), left on the heap's top;
  // false when none is left. Drops stale heap entries and too-long pairs as it goes.
  bool best_pair(uint64_t& key, int64_t& count) const;
  void merge_at(int32_t i, const BpeMerge& m);

  int64_t target_;
  int64_t tokens_ = 0;
  int64_t work_ = 0;
  int64_t pieces_ = 0;
  BpeTokenizer tok_;
  // Positions: the bytes of the distinct pieces, one after another. A position holds a symbol
  // (a token id) until it is merged into its left neighbour (then -1).
  std::vector<int32_t> sym_;    // position -> token id, or -1
  std::vector<int32_t> next_;   // position -> the next live position of its piece, or -1
  std::vector<int32_t> prev_;   // position -> the previous live position of its piece, or -1
  std::vector<int32_t> piece_;  // position -> its distinct piece
  std::vector<int64_t> freq_;   // distinct piece -> occurrences in the text
  std::unordered_map<uint64_t, int64_t> pair_count_;          // (left << 32 | right) -> weighted count > 0
  std::unordered_map<uint64_t, std::vector<int32_t>> where_;  // pair -> positions where it was formed (may be stale)
  mutable std::priority_queue<HeapItem> heap_;                // lazy: an entry is live while its count is current
  mutable std::unordered_set<uint64_t> too_long_;             // pairs whose token would pass kMaxBpeTokenBytes
  std::vector<uint64_t> touched_;                             // keys whose count one merge changed
};

}  // namespace embedlab
