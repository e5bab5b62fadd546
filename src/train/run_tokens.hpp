// The tokenizer of a next-token run, carried in its checkpoint so that text can be sampled
// from the file alone (train/generate.hpp, `embedlab generate --state RUN`, M.generate).
//
// Records (train/checkpoint.hpp), written by NextTokenTrainer::save_state when the run was
// given its tokenizer (NextTokenTrainer::set_tokens):
//   "tokenizer.kind"  text   gpt2 | whitespace | word | char | bpe
//   "tokenizer.data"  text   the tokenizer as text (tokenizer_kinds.hpp save_tokenizer: ""
//                            for gpt2, the merge file for bpe, the vocabulary for the others)
//   "tokenizer.rows"  int32  (V) the token id of each model row, only when rows are not ids:
//                            the page trains only the ids that occur in its text, remapped to
//                            rows 0..R-1 in id order (web/src/engine/next-token-input.js),
//                            so the ids ascend;
//                            the CLI trains every id (row r = id r) and writes no rows.
// A trainer loading a checkpoint tolerates these records (load_state ignores them: the data
// hash already pins the training ids).
//
// Intended usage:
//   RunTokens t{tok, {}};  check_run_tokens(t, V);          // throws unless they fit V rows
//   write_run_tokens(w, save_tokenizer(t.tokenizer), t.rows);
//   std::optional<RunTokens> back = read_run_tokens(r, V);  // nullopt: saved without them
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tokenizer/tokenizer_kinds.hpp"
#include "train/checkpoint.hpp"

namespace embedlab {

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
