#include "tokenizer/gpt2.hpp"

#include <cstring>
#include <limits>
#include <queue>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "tokenizer/gpt2_split.hpp"
#include "tokenizer/unicode.hpp"

namespace embedlab::generated {
extern const size_t kGpt2RankCount;
extern const size_t kGpt2TokenBytesSize;
extern const unsigned char kGpt2TokenLengths[];
extern const unsigned char kGpt2TokenBytes[];
}  // namespace embedlab::generated

namespace embedlab {

namespace {

constexpr uint32_t kNoRank = std::numeric_limits<uint32_t>::max();
constexpr size_t kCacheLimit = 1 << 16;  // pieces kept before the cache is cleared
constexpr size_t kHeapFrom = Gpt2Tokenizer::kHeapMergeFrom;  // pieces this long merge with a heap instead of scans

const char* token_data(uint32_t offset) { return reinterpret_cast<const char*>(generated::kGpt2TokenBytes) + offset; }

// 64-bit hash of a short byte string (8 bytes at a time, murmur-style finalizer).
inline uint64_t hash_bytes(const char* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xFF51AFD7ED558CCDull);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    p += 8, n -= 8;
  }
  uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 32;
  return h;
}

}  // namespace

Gpt2Tokenizer::Gpt2Tokenizer() {
  const size_t n = generated::kGpt2RankCount;
  if (n + 1 != static_cast<size_t>(kVocabSize)) fail("Gpt2Tokenizer", "embedded rank table has the wrong size");
  offsets_.resize(n + 1);
  uint32_t off = 0;
  for (size_t r = 0; r < n; ++r) {
    offsets_[r] = off;
    off += generated::kGpt2TokenLengths[r];
  }
  offsets_[n] = off;
  size_t cap = 1;
  while (cap < 2 * n) cap <<= 1;
  slots_.assign(cap, 0);
  slot_mask_ = cap - 1;
  for (size_t r = 0; r < n; ++r) {
    uint64_t h = hash_bytes(token_data(offsets_[r]), generated::kGpt2TokenLengths[r]) & slot_mask_;
    while (slots_[h] != 0) h = (h + 1) & slot_mask_;
    slots_[h] = static_cast<uint32_t>(r + 1);
  }
}

int32_t Gpt2Tokenizer::rank(std::string_view bytes) const {
  if (bytes.empty() || bytes.size() > 255) return -1;
  uint64_t h = hash_bytes(bytes.data(), bytes.size()) & slot_mask_;
  for (uint32_t s; (s = slots_[h]) != 0; h = (h + 1) & slot_mask_) {
    const uint32_t r = s - 1;
    if (generated::kGpt2TokenLengths[r] == bytes.size() &&
        std::memcmp(token_data(offsets_[r]), bytes.data(), bytes.size()) == 0) {
      return static_cast<int32_t>(r);
    }
  }
  return -1;
}

// tiktoken's byte_pair_merge. parts[k] = start byte of part k; rank[k] = rank of parts k and k+1
// joined. Short pieces: repeated linear scans for the leftmost minimum (exactly tiktoken's loop).
// Long pieces: a heap of (rank, start) with lazy invalidation, which picks the same pair at every
// step (lowest rank, then lowest start = leftmost) in O(n log n).
void Gpt2Tokenizer::merge(std::string_view piece, std::vector<int32_t>& out) const {
  const size_t n = piece.size();
  auto rank_of = [&](size_t a, size_t b) -> uint32_t {
    const int32_t r = rank(piece.substr(a, b - a));
    return r < 0 ? kNoRank : static_cast<uint32_t>(r);
  };
  if (n < kHeapFrom) {
    uint32_t start[kHeapFrom + 1], rk[kHeapFrom + 1];
    size_t m = n + 1;  // number of boundaries
    for (size_t k = 0; k <= n; ++k) start[k] = static_cast<uint32_t>(k);
    for (size_t k = 0; k + 1 < n; ++k) rk[k] = rank_of(k, k + 2);
    rk[n - 1] = rk[n] = kNoRank;
    auto joined = [&](size_t k) { return k + 3 < m ? rank_of(start[k], start[k + 3]) : kNoRank; };
    for (;;) {
      uint32_t best = kNoRank;
      size_t i = 0;
      for (size_t k = 0; k + 1 < m; ++k) {
        if (rk[k] < best) best = rk[k], i = k;
      }
      if (best == kNoRank) break;
      if (i > 0) rk[i - 1] = joined(i - 1);
      rk[i] = joined(i);
      for (size_t k = i + 1; k + 1 < m; ++k) start[k] = start[k + 1], rk[k] = rk[k + 1];
      --m;
    }
    for (size_t k = 0; k + 1 < m; ++k) out.push_back(rank(piece.substr(start[k], start[k + 1] - start[k])));
    return;
  }
  // Heap version: parts as a doubly linked list over byte positions.
  // subtle: positions are uint32, so a single piece must stay under 4 GiB (a 2 GiB input file
  // always does); its links and heap are planned once per long piece.
  if (n >= UINT32_MAX) fail("encode", "a piece of " + std::to_string(n) + " bytes is too long (the limit is 4 GiB)");
  MemoryPlan p("encode");
  p.add("merge links", {3, static_cast<int64_t>(n) + 1}, kInt32);
  p.add("merge heap", {static_cast<int64_t>(n), 3}, kInt32);
  p.check();
  std::vector<uint32_t> next(n + 1), prev(n + 1), ver(n + 1, 0);
  std::vector<bool> alive(n + 1, true);
  for (size_t k = 0; k <= n; ++k) next[k] = static_cast<uint32_t>(k + 1), prev[k] = static_cast<uint32_t>(k == 0 ? 0 : k - 1);
  struct Item {
    uint32_t rank, start, version;
    bool operator>(const Item& o) const { return rank != o.rank ? rank > o.rank : start > o.start; }
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  auto push = [&](uint32_t a) {  // the pair (part at a, part after it)
    if (a >= n) return;
    const uint32_t b = next[a];
    if (b >= n) return;
    const uint32_t r = rank_of(a, next[b]);
    if (r != kNoRank) heap.push({r, a, ++ver[a]});
    else ++ver[a];
  };
  for (uint32_t k = 0; k + 1 < n; ++k) push(k);
  while (!heap.empty()) {
    const Item it = heap.top();
    heap.pop();
    if (!alive[it.start] || it.version != ver[it.start]) continue;
    const uint32_t a = it.start, b = next[a];
    alive[b] = false;
    next[a] = next[b];
    prev[next[b]] = a;
    push(a);
    if (a > 0) push(prev[a]);
  }
  for (uint32_t a = 0; a < n; a = next[a]) out.push_back(rank(piece.substr(a, next[a] - a)));
}

void Gpt2Tokenizer::encode_piece(std::string_view piece, std::vector<int32_t>& out) { encode_piece(piece, cache_, out); }

void Gpt2Tokenizer::encode_piece(std::string_view piece, PieceCache& cache, std::vector<int32_t>& out) const {
  if (piece.empty()) return;
  const int32_t whole = rank(piece);
  if (whole >= 0) {
    out.push_back(whole);
    return;
  }
  if (piece.size() > 32) {  // rare and long: not worth caching
    merge(piece, out);
    return;
  }
  std::string key(piece);
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() >= kCacheLimit) cache.clear();
    std::vector<int32_t> ids;
    merge(piece, ids);
    it = cache.emplace(std::move(key), std::move(ids)).first;
  }
  out.insert(out.end(), it->second.begin(), it->second.end());
}

void Gpt2Tokenizer::encode_ordinary(std::string_view text, std::vector<int32_t>& out) {
  const std::vector<size_t> cuts = gpt2_chunk_cuts(text, kChunkBytes);
  if (cuts.size() <= 1) {
    Gpt2Splitter split(text);
    for (std::string_view piece; split.next(piece);) encode_piece(piece, cache_, out);
    return;
  }
  // One block per chunk; the chunks' ids, at most one per byte, live beside out until joined.
  plan("encode", "chunk ids (at most one per byte)", static_cast<int64_t>(text.size()), kInt32);
  std::vector<std::vector<int32_t>> chunk_ids(cuts.size());
  parallel_for(static_cast<int64_t>(cuts.size()), 1, [&](int64_t b, int64_t e, int64_t) {
    PieceCache cache;
    for (int64_t c = b; c < e; ++c) {
      const size_t begin = c == 0 ? 0 : cuts[static_cast<size_t>(c) - 1];
      std::vector<int32_t>& ids = chunk_ids[static_cast<size_t>(c)];
      ids.reserve((cuts[static_cast<size_t>(c)] - begin) / 4 + 16);
      Gpt2Splitter split(text.substr(begin, cuts[static_cast<size_t>(c)] - begin));
      for (std::string_view piece; split.next(piece);) encode_piece(piece, cache, ids);
    }
  });
  for (const std::vector<int32_t>& ids : chunk_ids) out.insert(out.end(), ids.begin(), ids.end());
}

std::vector<int32_t> Gpt2Tokenizer::encode(std::string_view text, bool allow_special) {
  // A check, not a reservation: every id covers at least one byte of the text.
  plan("encode", "ids (at most one per byte)", static_cast<int64_t>(text.size()), kInt32);
  std::vector<int32_t> out;
  out.reserve(text.size() / 4 + 16);
  if (!allow_special) {
    encode_ordinary(text, out);
    return out;
  }
  for (size_t pos = 0;;) {
    const size_t hit = text.find(kEndOfTextText, pos);
    encode_ordinary(text.substr(pos, hit == std::string_view::npos ? std::string_view::npos : hit - pos), out);
    if (hit == std::string_view::npos) break;
    out.push_back(kEndOfText);
    pos = hit + kEndOfTextText.size();
  }
  return out;
}

std::string_view Gpt2Tokenizer::token_bytes(int32_t id) const {
  check_index("token_bytes", "token id", id, 0, kVocabSize);
  if (id == kEndOfText) return kEndOfTextText;
  return {token_data(offsets_[id]), generated::kGpt2TokenLengths[id]};
}

std::string Gpt2Tokenizer::decode_bytes(std::span<const int32_t> ids) const {
  // The exact output size first (at most 255 bytes per id, summed in 64 bits), planned, then
  // one allocation.
  uint64_t total = 0;
  for (const int32_t id : ids) {
    check_index("decode", "token id", id, 0, kVocabSize);
    total += id == kEndOfText ? kEndOfTextText.size() : generated::kGpt2TokenLengths[id];
  }
  std::string out;
  out.reserve(plan("decode", "text", static_cast<int64_t>(total), kBytes));
  for (const int32_t id : ids) {
    out.append(id == kEndOfText ? kEndOfTextText : std::string_view(token_data(offsets_[id]), generated::kGpt2TokenLengths[id]));
  }
  return out;
}

std::string Gpt2Tokenizer::decode(std::span<const int32_t> ids) const {
  return unicode::replace_invalid_utf8(decode_bytes(ids));
}

}  // namespace embedlab
