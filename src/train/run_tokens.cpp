#include "train/run_tokens.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace embedlab {

namespace {

const char* const kKind = "tokenizer.kind";
const char* const kData = "tokenizer.data";
const char* const kRows = "tokenizer.rows";

}  // namespace

void check_run_tokens(const char* where, const Tokenizer& tok, std::span<const int32_t> rows, int64_t V) {
  const int64_t ids = tok.vocab_size();
  if (rows.empty()) {
    if (ids != V) {
      fail(where, "the " + tok.kind() + " tokenizer has " + std::to_string(ids) + " ids, the model " + std::to_string(V) +
                      " rows (give the row -> id mapping when rows are not ids)");
    }
    return;
  }
  if (static_cast<int64_t>(rows.size()) != V) {
    fail(where, std::to_string(rows.size()) + " row ids for a model of " + std::to_string(V) + " rows");
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    const int32_t id = rows[r];
    if (id < 0 || id >= ids) {
      fail(where, "row " + std::to_string(r) + "'s token id " + std::to_string(id) + " out of range [0, " + std::to_string(ids) + ")");
    }
    if (r > 0 && id <= rows[r - 1]) {
      fail(where, "row ids must ascend (rows in id order): row " + std::to_string(r) + " has id " + std::to_string(id) +
                      ", row " + std::to_string(r - 1) + " has " + std::to_string(rows[r - 1]));
    }
  }
}

void write_run_tokens(CheckpointWriter& w, const SavedTokenizer& tok, std::span<const int32_t> rows) {
  w.text(kKind, tok.kind);
  w.text(kData, tok.data);
  if (!rows.empty()) w.ints(kRows, rows);
}

std::optional<RunTokens> read_run_tokens(const CheckpointReader& r, int64_t V) {
  if (!r.has(kKind)) {
    if (r.has(kData) || r.has(kRows)) fail("checkpoint", "record 'tokenizer.kind' is missing");
    return std::nullopt;
  }
  RunTokens t;
  t.tokenizer = load_tokenizer(r.text(kKind), r.text(kData));
  if (r.has(kRows)) t.rows = r.ints(kRows);
  check_run_tokens("checkpoint", t.tokenizer, t.rows, V);
  return t;
}

void ignore_run_tokens(const CheckpointReader& r) {
  for (const char* name : {kKind, kData, kRows}) r.ignore(name);
}

}  // namespace embedlab
