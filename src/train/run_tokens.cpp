#include "train/run_tokens.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {

const char* const kKind = "tokenizer.kind";
const char* const kData = "tokenizer.data";
const char* const kRows = "tokenizer.rows";

}  // namespace

RunRows default_run_rows(const std::string& tokenizer_kind) {
  return tokenizer_kind == "gpt2" ? RunRows::kOccurring : RunRows::kAll;
}

RunRows parse_run_rows(const char* where, const std::string& name) {
  if (name == "all") return RunRows::kAll;
  if (name == "occurring") return RunRows::kOccurring;
  fail(where, "rows must be all or occurring, got '" + name.substr(0, 40) + "'");
}

RunRowIds run_rows(std::span<const int32_t> ids, int64_t V, RunRows mode) {
  const char* where = "next-token rows";
  RunRowIds out;
  MemoryPlan p(where);
  p.add("row ids", {static_cast<int64_t>(ids.size())}, kInt32);
  if (mode == RunRows::kOccurring) p.add("id -> row", {V}, kInt32);
  p.check();
  for (const int32_t id : ids) check_index(where, "token id", id, 0, V);
  out.ids.assign(ids.begin(), ids.end());
  if (mode == RunRows::kAll) return out;
  std::vector<int32_t> row_of(static_cast<size_t>(V), -1);  // id -> row, -1: absent
  for (const int32_t id : ids) row_of[static_cast<size_t>(id)] = 0;
  for (int64_t id = 0; id < V; ++id) {
    if (row_of[static_cast<size_t>(id)] < 0) continue;
    row_of[static_cast<size_t>(id)] = static_cast<int32_t>(out.rows.size());
    out.rows.push_back(static_cast<int32_t>(id));
  }
  for (int32_t& id : out.ids) id = row_of[static_cast<size_t>(id)];
  return out;
}

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
