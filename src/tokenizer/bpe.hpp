// A byte-level BPE tokenizer defined by a list of merges (as trained by bpe_train.hpp), with
// encode/decode and a plain-text save format.
//
// Does: ids 0..255 are the single bytes; merge k (0-based) joins ids (left, right) into id 256 + k.
// encode: split with the GPT-2 pattern (gpt2_split.hpp), then per piece start from bytes and
// repeatedly apply the applicable merge with the lowest index, at every occurrence left to right
// (minbpe RegexTokenizer.encode_chunk; pieces of kBpeHeapFrom bytes or more with a heap that
// gives the same ids in O(n log n)). decode: concatenate token bytes.
// Does not: special tokens, or reproduce GPT-2's own ids (gpt2.hpp does; GPT-2's ranks are not
// expressible as merges of this kind in every case).
//
// File format (text, UTF-8/ASCII, '\n' line ends):
//   embedlab-bpe 1
//   pattern gpt2
//   merges <M>
//   <left> <right> <count>        M lines; line k defines id 256 + k; count = pair count when trained
// Example: after "merges 2", "97 98 7" then "256 99 3" means 256 = "ab", 257 = "abc".
// Limits: at most 16777216 merges, and no token longer than kMaxBpeTokenBytes (1 MiB; GPT-2's
// longest token has 128 bytes). load() reads and checks every line and sums the token lengths
// before it builds any token, then plans that sum (core/memory.hpp) as one figure.
//
// Intended usage:
//   BpeTokenizer tok = BpeTokenizer::load(text_of_file);
//   std::vector<int32_t> ids = tok.encode("abc");     // (n) int32 in [0, tok.vocab_size())
//   std::string bytes = tok.decode_bytes(ids);         // == "abc"
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace embedlab {

// The longest token a merges file may define, and the trainer may make (bpe_train.hpp): 1 MiB.
inline constexpr int64_t kMaxBpeTokenBytes = int64_t{1} << 20;
// Pieces this long are merged with a heap (O(n log n)) instead of minbpe's scans (O(n) a merge).
inline constexpr size_t kBpeHeapFrom = 64;

struct BpeMerge {
  int32_t left = 0, right = 0;  // the pair of existing ids
  int32_t id = 0;               // the new id, 256 + merge index
  int64_t count = 0;            // occurrences of the pair in the training text when merged
};

// Replaces every non-overlapping (m.left, m.right), scanning left to right, by m.id, in place
// (minbpe's merge). Example: ids [1, 2, 1, 2, 2], merge (1, 2) -> 9 gives [9, 9, 2].
void merge_pair(std::vector<int32_t>& ids, const BpeMerge& m);

class BpeTokenizer {
 public:
  BpeTokenizer();  // no merges: 256 byte tokens

  // Appends a merge; its id must be vocab_size() and left/right must be existing ids.
  void add_merge(const BpeMerge& m);
  int32_t vocab_size() const { return static_cast<int32_t>(bytes_.size()); }
  const std::vector<BpeMerge>& merges() const { return merges_; }

  // text (bytes) -> ids (n) int32.
  std::vector<int32_t> encode(std::string_view text) const;
  // ids -> exact bytes; throws "decode: token id 300 out of range [0, 300)".
  std::string decode_bytes(std::span<const int32_t> ids) const;
  // ids -> valid UTF-8, invalid sequences replaced by U+FFFD.
  std::string decode(std::span<const int32_t> ids) const;
  const std::string& token_bytes(int32_t id) const;

  std::string save() const;
  // Throws "bpe load: line 4: ..." naming the line and the problem, e.g. "bpe load: line 24:
  // token 276 would be 2097152 bytes long; the longest allowed is 1048576 bytes (1.0 MiB)".
  static BpeTokenizer load(std::string_view text);

 private:
  void encode_piece(std::string_view piece, std::vector<int32_t>& out) const;
  void encode_piece_heap(std::string_view piece, std::vector<int32_t>& out) const;

  std::vector<BpeMerge> merges_;
  std::vector<std::string> bytes_;                  // id -> token bytes
  std::unordered_map<uint64_t, int32_t> rank_;      // (left << 32 | right) -> merge index
};

}  // namespace embedlab
