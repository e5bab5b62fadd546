// The tokenizer of a next-token run, carried in its checkpoint so that text can be sampled
// from the file alone (train/generate.hpp, `embedlab generate --state RUN`, M.generate).
//
// Records (train/checkpoint.hpp), written by NextTokenTrainer::save_state when the run was
// given its tokenizer (NextTokenTrainer::set_tokens):
//   "tokenizer.kind"  text   gpt2 | whitespace | word | char | bpe
//   "tokenizer.data"  text   the tokenizer as text (tokenizer_kinds.hpp save_tokenizer: ""
//                            for gpt2, the merge file for bpe, the vocabulary for the others)
//   "tokenizer.rows"  int32  (V) the token id of each model row, only when rows are not ids
//                            (run_rows with RunRows::kOccurring: the ids that occur in the
//                            text, remapped to rows 0..R-1 in id order, so the ids ascend);
//                            with RunRows::kAll (row r = id r) no rows are written.
//
// The rows of a run (run_rows) are one engine step for the CLI (`embedlab train --model
// next-token`, `--full-vocab` for kAll) and the page (M.nextTokenRows): the default
// (default_run_rows) gives a fixed vocabulary (gpt2: 50,257 ids, 1,416 of them in the-verdict)
// only the ids that occur, and a vocabulary built from the text all its rows.
// A trainer loading a checkpoint tolerates these records (load_state ignores them: the data
// hash already pins the training ids).
//
// Intended usage:
//   RunTokens t{tok, {}};  check_run_tokens(t, V);          // throws unless they fit V rows
//   write_run_tokens(w, save_tokenizer(t.tokenizer), t.rows);
//   std::optional<RunTokens> back = read_run_tokens(r, V);  // nullopt: saved without them
//   RunRowIds rr = run_rows(ids, tok.vocab_size(), default_run_rows(tok.kind()));
//   NextTokenTrainer tr(rr.ids, s /* vocab_size = run_rows_count(rr, V) */);  tr.set_tokens(tok, rr.rows);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tokenizer/tokenizer_kinds.hpp"
#include "train/checkpoint.hpp"

namespace embedlab {

// Which rows a next-token run trains: every id of the tokenizer, or only the ids that occur.
enum class RunRows { kAll, kOccurring };
// The default of the CLI and the page: kOccurring for gpt2 (a fixed vocabulary, most of it
// absent from any one text), kAll for the kinds whose vocabulary is built from the text.
RunRows default_run_rows(const std::string& tokenizer_kind);
// "all" | "occurring"; throws "<where>: rows must be all or occurring, got 'x'".
RunRows parse_run_rows(const char* where, const std::string& name);

struct RunRowIds {
  std::vector<int32_t> ids;   // (n) the text's ids as model rows
  std::vector<int32_t> rows;  // (R) row -> token id, ascending; empty for kAll (row r = id r)
};
// ids (n) int32 in [0, V) -> rows. kAll: ids unchanged, no rows. kOccurring: the distinct ids in
// id order become rows 0..R-1. Throws "next-token rows: token id 9 out of range [0, 5)".
//   run_rows({5, 9, 5}, 50257, kOccurring) -> {ids {0, 1, 0}, rows {5, 9}}
RunRowIds run_rows(std::span<const int32_t> ids, int64_t V, RunRows mode);
// The model's row count: R, or V for kAll.
inline int64_t run_rows_count(const RunRowIds& r, int64_t V) { return r.rows.empty() ? V : static_cast<int64_t>(r.rows.size()); }

struct RunTokens {
  Tokenizer tokenizer;
  std::vector<int32_t> rows;  // (V) row -> token id; empty: row r is token id r
};

// rows empty: the tokenizer has exactly V ids; else V ids of the tokenizer in ascending order
// (rows in id order, as the page remaps them). Throws "<where>: 5 row ids for a model of 6 rows",
// "<where>: row 3's token id 70000 out of range [0, 50257)", or
// "<where>: row ids must ascend (rows in id order): row 2 has id 9, row 1 has 9".
void check_run_tokens(const char* where, const Tokenizer& tok, std::span<const int32_t> rows, int64_t V);

void write_run_tokens(CheckpointWriter& w, const SavedTokenizer& tok, std::span<const int32_t> rows);
// The run's tokenizer, checked against the model's V rows; nullopt when the file has none.
std::optional<RunTokens> read_run_tokens(const CheckpointReader& r, int64_t V);
// Marks the records as read (a trainer's load_state).
void ignore_run_tokens(const CheckpointReader& r);

}  // namespace embedlab
