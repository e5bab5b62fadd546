// word2vec: skip-gram and CBOW with negative sampling, a port of gensim 4.2's Word2Vec
// (gensim/models/word2vec.py + word2vec_inner.pyx, itself a port of Mikolov's word2vec.c).
//
// What is faithful to gensim (same names, same defaults, same arithmetic per update):
//   * vocabulary: ids with count >= min_count, sorted by descending count (ties: lower id
//     first); out-of-vocabulary ids are skipped in a sentence, which widens the window;
//   * sub-sampling: threshold t = sample * (retained word total) (sample < 1), or
//     int(sample*(3+sqrt 5)/2) (sample >= 1); keep probability
//     p(w) = (sqrt(c/t) + 1) * t/c capped at 1, stored as sample_int = uint32(p*(2^32-1));
//     a word is dropped when sample_int < (next_random >> 16) (word2vec_inner random_int32);
//   * noise: cum_table[i] = round(sum_{j<=i} c_j^0.75 / Z * (2^31-1)), a draw is
//     bisect_left(cum_table, (next_random >> 16) % cum_table[-1]); the LCG is
//     next_random = next_random * 25214903917 + 11 mod 2^48 (word2vec.c);
//   * reduced window: b ~ U{0..window-1} per effective word, context [i-window+b, i+window-b];
//   * jobs: sentences are packed into jobs of at most batch_words raw words; every job
//     starts a fresh next_random and uses one learning rate,
//     alpha_job = max(min_alpha, alpha - (alpha-min_alpha) * (epoch + done/total)/epochs)
//     with done/total the fraction of sentences pushed before the job (gensim's
//     examples-based decay, which Word2Vec(sentences=...) uses);
//   * updates (fast_sentence_sg_neg / fast_sentence_cbow_neg): f = sigmoid(dot) from the
//     1000-entry EXP_TABLE over [-6, 6) indexed by int((dot + 6) * 83); predictions with
//     |dot| >= 6 are skipped; g = (label - f) * alpha; work += g*syn1neg[t];
//     syn1neg[t] += g*l1; then syn0 += work. Skip-gram predicts the center word from each
//     context word's input vector (gensim's word_index/word2_index order). CBOW uses the
//     mean (cbow_mean=1) or the sum of the context input vectors;
//   * init: syn0 uniform in [-1/D, 1/D) (gensim 4 prep_vectors), syn1neg zeros.
// What differs: random numbers come from embedlab::Generator (seeded), not numpy, so
// tables are statistically but not bitwise equal to gensim's. The EXP_TABLE is built with
// detmath::exp, and all inner loops are kernels::dot/axpy, so the native and the wasm
// build give the same tables bit for bit. Hierarchical softmax (hs=1) is not implemented.
// Loss: gensim's running_training_loss (-log sigmoid(+-dot) from its LOG_TABLE, skipped
// outside [-6, 6)), reported as the mean per positive (center, context) prediction.
//
// Shapes: W retained words, D = vector_size. input_table() is syn0 (W, D), output_table()
// syn1neg (W, D); row r is the word vocab_ids()[r].
//
// Intended usage:
//   Word2VecSettings s;  s.sg = true;  s.seed = 1;
//   Word2Vec w2v(ids, sentence_starts, counts, s);   // ids of all sentences, concatenated
//   while (!w2v.finished()) { TrainStats st = w2v.step(20); report(st); }
//   const std::vector<float>& vectors = w2v.input_table();
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "train/train_stats.hpp"

namespace embedlab {

struct Word2VecSettings {
  int64_t vector_size = 100;
  int64_t window = 5;
  int64_t negative = 5;
  int64_t min_count = 5;
  double sample = 1e-3;
  double alpha = 0.025;
  double min_alpha = 0.0001;
  int64_t epochs = 5;
  bool sg = false;         // false: CBOW (gensim's default sg=0)
  bool cbow_mean = true;
  double ns_exponent = 0.75;
  int64_t batch_words = 10000;
  uint64_t seed = 1;
};

// Throws "word2vec: <name> must be ..." for the first bad setting.
void validate(const Word2VecSettings& s);

class Word2Vec {
 public:
  // ids: all sentences concatenated, int32 in [0, counts.size()); sentence_starts (S+1):
  // sentence k is ids[starts[k], starts[k+1]). counts (V): occurrences of each id in the
  // corpus (as the tokenizer's vocabulary counted them); if empty they are counted from ids.
  Word2Vec(std::span<const int32_t> ids, std::span<const int64_t> sentence_starts,
           std::span<const int64_t> counts, const Word2VecSettings& settings);

  // Runs up to n jobs (each up to batch_words raw words); stops early at the end of the
  // last epoch. Throws the non-finite loss error if the vectors diverge.
  TrainStats step(int64_t n);
  // Trains all remaining jobs.
  TrainStats train_all();
  // Back to the initial tables and the first job (same seed: the same run again).
  void reset();
  // Checkpoints (train/checkpoint.hpp): both tables, the generator's position and the job
  // counters. load_state needs a trainer made with the same settings, sentences and counts
  // (else it throws naming the difference) and leaves this one unchanged when it throws; the
  // run then continues as the saved one would have, bit for bit.
  std::vector<uint8_t> save_state() const;
  void load_state(std::span<const uint8_t> bytes);

  bool finished() const { return epoch_ >= settings_.epochs; }
  const Word2VecSettings& settings() const { return settings_; }
  int64_t jobs_per_epoch() const { return static_cast<int64_t>(jobs_.size()); }
  int64_t total_jobs() const { return jobs_per_epoch() * settings_.epochs; }
  int64_t jobs_done() const { return total_steps_; }
  int64_t epoch() const { return epoch_; }
  int64_t corpus_words() const { return raw_total_; }  // raw words per epoch

  int64_t vocab_size() const { return static_cast<int64_t>(vocab_ids_.size()); }
  int64_t dim() const { return settings_.vector_size; }
  const std::vector<int32_t>& vocab_ids() const { return vocab_ids_; }      // row -> id
  const std::vector<int64_t>& vocab_counts() const { return vocab_counts_; }  // row -> count
  const std::vector<float>& input_table() const { return syn0_; }    // (W, D)
  const std::vector<float>& output_table() const { return syn1neg_; }  // (W, D)
  // Row of an id, or -1 when min_count dropped it.
  int32_t row_of(int32_t id) const;

  // The noise row drawn for an LCG state: bisect_left(cum_table, (r >> 16) % cum_table[-1]).
  int32_t draw_noise(uint64_t next_random) const;
  // Internals exposed for tests: per-row keep threshold and the noise table.
  const std::vector<uint32_t>& sample_ints() const { return sample_int_; }
  const std::vector<uint32_t>& cum_table() const { return cum_table_; }

 private:
  struct Job {
    int64_t first_sentence, end_sentence;
    double progress;  // fraction of the epoch's sentences pushed before this job
  };
  struct JobResult {
    int64_t effective_words = 0, raw_words = 0, predictions = 0;
    double loss_sum = 0;
    bool non_finite = false;
  };

  void build_vocab(std::span<const int64_t> counts);
  void build_jobs();
  void init_tables();
  double job_alpha(const Job& job) const;
  JobResult run_job(const Job& job, float alpha);
  uint64_t negative_sampling(const float* h, int32_t center, float alpha, uint64_t next_random,
                             float* work, JobResult& r);
  uint64_t train_pair_sg(int32_t center, int32_t context, float alpha, uint64_t next_random,
                         JobResult& r);
  uint64_t train_cbow(const int32_t* idx, int64_t i, int64_t j, int64_t k, float alpha,
                      uint64_t next_random, JobResult& r);
  uint32_t bisect(uint64_t x, size_t lo, size_t hi) const;
  std::string settings_text() const;
  uint64_t data_hash() const;

  Word2VecSettings settings_;
  std::vector<int32_t> ids_;
  std::vector<int64_t> starts_;
  std::vector<int32_t> id_to_row_;  // id -> row or -1
  std::vector<int32_t> vocab_ids_;
  std::vector<int64_t> vocab_counts_;
  std::vector<uint32_t> sample_int_;
  std::vector<uint32_t> cum_table_;
  std::vector<uint32_t> guide_;  // bucket -> first cum_table index (see draw_noise)
  int guide_shift_ = 31;
  std::vector<Job> jobs_;
  int64_t raw_total_ = 0;

  std::vector<float> syn0_, syn1neg_, work_, neu1_;
  std::vector<int32_t> indexes_, targets_;
  std::vector<const float*> rows_;
  std::vector<float> dots_;
  std::vector<int64_t> sentence_idx_;
  std::vector<int32_t> reduced_;
  Generator rng_;
  int64_t epoch_ = 0, job_in_epoch_ = 0, total_steps_ = 0;
};

}  // namespace embedlab
