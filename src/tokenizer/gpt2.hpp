// GPT-2 byte-level BPE, id for id the same as tiktoken's `gpt2` encoding (50,257 ids).
//
// Does: encode bytes -> ids (pre-tokenize with the GPT-2 pattern, gpt2_split.hpp, then merge each
// piece by tiktoken's byte_pair_merge), decode ids -> bytes, and ids -> valid UTF-8 text with
// invalid sequences replaced by U+FFFD. The 50,256 ranks are compiled in from npm tiktoken's
// encoders/gpt2.json by scripts/gen-gpt2-asset.mjs (build time; nothing is downloaded at run time).
// Does not: other encodings (cl100k...), training (bpe_train.hpp), or the byte-to-unicode table of
// the original GPT-2 code: working on raw bytes with ranks of byte strings (as tiktoken does) gives
// the same ids without it.
//
// Algorithm (tiktoken src/lib.rs, byte_pair_merge): a piece that is itself a token is emitted
// directly; otherwise start from single bytes and repeatedly join the adjacent pair whose
// concatenated bytes have the lowest rank (ties: leftmost), until no adjacent pair is a token.
//
// Special token: "<|endoftext|>" -> 50256 only with allow_special; otherwise the text
// "<|endoftext|>" is encoded as ordinary text (tiktoken's encode_ordinary: 27, 91, 437, 1659, 5239, 91, 29).
//
// Worked example: encode("Hello world") -> {15496, 995}; decode({15496, 995}) -> "Hello world".
// The-verdict.txt -> 5145 ids starting 40, 367, 2885, 1464 (tests/reference/gpt2_the_verdict.json).
//
// Long texts run on the thread pool (core/parallel.hpp): each run of ordinary text is cut into
// chunks of about kChunkBytes at cuts chosen from the text alone (gpt2_chunk_cuts: a cut never
// changes a piece), the chunks are encoded in parallel, each with its own piece cache, and their
// ids are joined in order. So the ids are those of the serial encoder at every thread count, by
// construction; the caches only remember results, they never change one.
//
// subtle: encode() keeps a cache of recently merged pieces, so a Gpt2Tokenizer is not safe to use
// from two threads at once (decode is). Construction builds a 50k-entry hash table (~2 ms).
//
// Intended usage:
//   Gpt2Tokenizer tok;
//   std::vector<int32_t> ids = tok.encode(text);        // bytes (any, UTF-8 expected) -> ids
//   std::string back = tok.decode_bytes(ids);           // == text, always
//   std::string shown = tok.decode(ids);                // valid UTF-8 for display
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace embedlab {

class Gpt2Tokenizer {
 public:
  static constexpr int32_t kEndOfText = 50256;
  static constexpr int32_t kVocabSize = 50257;
  static constexpr std::string_view kEndOfTextText = "<|endoftext|>";
  // Pieces this long are merged with a heap, O(n log n), instead of tiktoken's scans (the same ids).
  static constexpr size_t kHeapMergeFrom = 64;
  // Texts are encoded in chunks of at least this many bytes (the last may be shorter), in parallel.
  static constexpr size_t kChunkBytes = size_t{1} << 15;

  Gpt2Tokenizer();

  int32_t vocab_size() const { return kVocabSize; }
  // text (bytes) -> ids int32, each in [0, 50257).
  std::vector<int32_t> encode(std::string_view text, bool allow_special = false);
  // Appends the ids of one pre-tokenized piece (no special-token handling).
  void encode_piece(std::string_view piece, std::vector<int32_t>& out);

  // ids -> the exact bytes; throws "decode: token id 50257 out of range [0, 50257)".
  std::string decode_bytes(std::span<const int32_t> ids) const;
  // ids -> valid UTF-8 (invalid sequences become U+FFFD, as Python's errors="replace").
  std::string decode(std::span<const int32_t> ids) const;
  // The bytes of one token ("<|endoftext|>" for 50256).
  std::string_view token_bytes(int32_t id) const;
  // The rank (= id) of a byte string, or -1 when it is not a token.
  int32_t rank(std::string_view bytes) const;

 private:
  using PieceCache = std::unordered_map<std::string, std::vector<int32_t>>;  // piece -> ids (pieces that needed merging)
  void merge(std::string_view piece, std::vector<int32_t>& out) const;
  void encode_piece(std::string_view piece, PieceCache& cache, std::vector<int32_t>& out) const;
  // Text without special tokens -> ids appended to out, chunk by chunk on the pool.
  void encode_ordinary(std::string_view text, std::vector<int32_t>& out);

  std::vector<uint32_t> offsets_;  // rank -> offset into the embedded bytes (size 50257)
  std::vector<uint32_t> slots_;    // open-addressing table: rank + 1, 0 = empty
  uint64_t slot_mask_ = 0;
  PieceCache cache_;               // the calling thread's, for texts of one chunk
};

}  // namespace embedlab
