// word2vec's updates (see word2vec.hpp for the gensim port as a whole): gensim's EXP_TABLE and
// LOG_TABLE, the tables' init (syn0 uniform, syn1neg zeros, the work buffers), the learning rate
// of a job, the noise draw, negative sampling for skip-gram and CBOW (fast_sentence_sg_neg /
// fast_sentence_cbow_neg), a job over its sentences, and step().
// Not here: the settings' checks, the vocabulary, the jobs and the checkpoint: word2vec.cpp.
#include "train/word2vec.hpp"

#include <algorithm>
#include <cmath>

#include "core/clock.hpp"
#include "core/detmath.hpp"
#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "kernels/dense.hpp"

namespace embedlab {

namespace {

constexpr int kExpTableSize = 1000;  // gensim EXP_TABLE_SIZE
constexpr int kMaxExp = 6;           // gensim MAX_EXP
// subtle: gensim indexes with (EXP_TABLE_SIZE / MAX_EXP / 2), an integer expression in
// word2vec_inner.pyx (the compiled module holds the constant 83, not 83.33), so the last
// four entries are never read. Kept for faithfulness.
constexpr float kExpIndexScale = static_cast<float>(kExpTableSize / kMaxExp / 2);
constexpr int64_t kMaxSentenceLen = 10000;  // gensim MAX_SENTENCE_LEN (per job)
constexpr uint64_t kLcgMul = 25214903917ull, kLcgAdd = 11, kLcgMask = (1ull << 48) - 1;

struct SigmoidTables {
  float exp[kExpTableSize];  // sigmoid(x) at x = (i/1000*2-1)*6, as gensim's EXP_TABLE
  float log[kExpTableSize];  // log of it (gensim's LOG_TABLE)
  SigmoidTables() {
    for (int i = 0; i < kExpTableSize; ++i) {
      const float x = (static_cast<float>(i) / static_cast<float>(kExpTableSize) * 2.0f - 1.0f) *
                      static_cast<float>(kMaxExp);
      float e = static_cast<float>(detmath::exp(x));
      e = e / (e + 1.0f);
      exp[i] = e;
      log[i] = static_cast<float>(detmath::log(e));
    }
  }
};

const SigmoidTables& tables() {
  static const SigmoidTables t;
  return t;
}

inline int table_index(float f_dot) {
  return static_cast<int>((f_dot + static_cast<float>(kMaxExp)) * kExpIndexScale);
}

inline uint64_t lcg(uint64_t r) { return (r * kLcgMul + kLcgAdd) & kLcgMask; }


}  // namespace

void Word2Vec::init_tables() {
  const size_t D = static_cast<size_t>(settings_.vector_size);
  const size_t n = vocab_ids_.size() * D;
  syn0_.resize(n);
  const float inv = static_cast<float>(settings_.vector_size);
  for (size_t i = 0; i < n; ++i) syn0_[i] = (rng_.uniform_float() * 2.0f - 1.0f) / inv;
  syn1neg_.assign(n, 0.0f);
  work_.assign(D, 0.0f);
  neu1_.assign(D, 0.0f);
  targets_.assign(static_cast<size_t>(settings_.negative) + 1, 0);
  rows_.assign(targets_.size(), nullptr);
  dots_.assign(targets_.size(), 0.0f);
  indexes_.assign(kMaxSentenceLen, 0);
  reduced_.assign(kMaxSentenceLen, 0);
}

double Word2Vec::job_alpha(const Job& job) const {
  // gensim Word2Vec._get_next_alpha
  const double progress = (static_cast<double>(epoch_) + job.progress) / static_cast<double>(settings_.epochs);
  const double next = settings_.alpha - (settings_.alpha - settings_.min_alpha) * progress;
  return std::max(settings_.min_alpha, next);
}

uint32_t Word2Vec::bisect(uint64_t x, size_t lo, size_t hi) const {
  // gensim's bisect_left: the first index in [lo, hi) with cum_table[index] >= x, else hi
  while (hi > lo) {
    const size_t mid = (lo + hi) >> 1;
    if (cum_table_[mid] >= x) hi = mid;
    else lo = mid + 1;
  }
  return static_cast<uint32_t>(lo);
}

int32_t Word2Vec::draw_noise(uint64_t next_random) const {
  // bisect_left over cum_table for (next_random >> 16) % cum_table[-1]
  const uint64_t x = (next_random >> 16) % cum_table_.back();
  const size_t b = static_cast<size_t>(x >> guide_shift_);
  return static_cast<int32_t>(bisect(x, guide_[b], guide_[b + 1]));
}

// The negative-sampling core shared by skip-gram and CBOW (gensim's inner loop over
// d = 0..negative in fast_sentence_sg_neg / fast_sentence_cbow_neg): the center word is the
// positive target, `negative` noise words the negative ones. h (D) is the hidden vector
// (a context row for skip-gram, the context mean or sum for CBOW); work (D) accumulates
// g * syn1neg[target]; each target row is updated by g * h in place. Returns next_random.
uint64_t Word2Vec::negative_sampling(const float* h, int32_t center, float alpha,
                                     uint64_t next_random, float* work, JobResult& r) {
  const size_t D = static_cast<size_t>(settings_.vector_size);
  const SigmoidTables& t = tables();
  // The noise rows do not depend on the updates, so draw them all first (the same LCG
  // sequence as gensim) and prefetch their rows: random rows of syn1neg are cache misses.
  int32_t* targets = targets_.data();
  targets[0] = center;
  for (int64_t d = 1; d <= settings_.negative; ++d) {
    targets[d] = draw_noise(next_random);
    next_random = lcg(next_random);
  }
  for (int64_t d = 0; d <= settings_.negative; ++d) {
    const char* row = reinterpret_cast<const char*>(syn1neg_.data() + static_cast<size_t>(targets[d]) * D);
    for (size_t b = 0; b < D * sizeof(float); b += 64) __builtin_prefetch(row + b, 1);
  }
  // Dots of every prediction at once (independent add chains overlap); a noise row drawn
  // twice is recomputed after its first update, so the values are gensim's sequential ones.
  const float** rows = rows_.data();
  float* dots = dots_.data();
  size_t n_rows = 0;
  for (int64_t d = 0; d <= settings_.negative; ++d) {
    if (d > 0 && targets[d] == center) continue;
    rows[n_rows++] = syn1neg_.data() + static_cast<size_t>(targets[d]) * D;
  }
  dense::dot_rows(D, h, rows, n_rows, dots);
  double loss = 0;
  size_t slot = 0;
  for (int64_t d = 0; d <= settings_.negative; ++d) {
    const int32_t target = targets[d];
    if (d > 0 && target == center) continue;
    const float label = d == 0 ? 1.0f : 0.0f;
    float* l2 = syn1neg_.data() + static_cast<size_t>(target) * D;
    bool repeated = false;
    for (int64_t e = 1; e < d; ++e) repeated = repeated || targets[e] == target;
    const float f_dot = repeated ? kernels::dot(D, h, l2) : dots[slot];
    ++slot;
    const float signed_dot = d == 0 ? f_dot : -f_dot;
    if (signed_dot > -kMaxExp && signed_dot < kMaxExp) loss -= t.log[table_index(signed_dot)];
    if (!(f_dot > -kMaxExp && f_dot < kMaxExp)) {
      if (!std::isfinite(f_dot)) r.non_finite = true;
      continue;
    }
    const float f = t.exp[table_index(f_dot)];
    const float g = (label - f) * alpha;
    dense::sgns_update(D, g, h, l2, work);  // work += g*l2; l2 += g*h
  }
  r.loss_sum += loss;
  return next_random;
}

uint64_t Word2Vec::train_pair_sg(int32_t center, int32_t context, float alpha,
                                 uint64_t next_random, JobResult& r) {
  // gensim fast_sentence_sg_neg(word_index=center, word2_index=context)
  const size_t D = static_cast<size_t>(settings_.vector_size);
  float* l1 = syn0_.data() + static_cast<size_t>(context) * D;
  float* work = work_.data();
  std::fill(work, work + D, 0.0f);
  next_random = negative_sampling(l1, center, alpha, next_random, work, r);
  kernels::axpy(D, 1.0f, work, l1);
  ++r.predictions;
  return next_random;
}

uint64_t Word2Vec::train_cbow(const int32_t* idx, int64_t i, int64_t j, int64_t k, float alpha,
                              uint64_t next_random, JobResult& r) {
  // gensim fast_sentence_cbow_neg
  const size_t D = static_cast<size_t>(settings_.vector_size);
  const int32_t center = idx[i];
  float* neu1 = neu1_.data();
  float* work = work_.data();
  std::fill(neu1, neu1 + D, 0.0f);
  float count = 0.0f, inv_count = 1.0f;
  for (int64_t m = j; m < k; ++m) {
    if (m == i) continue;
    count += 1.0f;
    kernels::axpy(D, 1.0f, syn0_.data() + static_cast<size_t>(idx[m]) * D, neu1);
  }
  if (count > 0.5f) inv_count = 1.0f / count;
  if (settings_.cbow_mean) kernels::scale(D, inv_count, neu1, neu1);
  std::fill(work, work + D, 0.0f);
  next_random = negative_sampling(neu1, center, alpha, next_random, work, r);
  if (!settings_.cbow_mean) kernels::scale(D, inv_count, work, work);
  for (int64_t m = j; m < k; ++m) {
    if (m == i) continue;
    kernels::axpy(D, 1.0f, work, syn0_.data() + static_cast<size_t>(idx[m]) * D);
  }
  ++r.predictions;
  return next_random;
}

Word2Vec::JobResult Word2Vec::run_job(const Job& job, float alpha) {
  // gensim train_batch_sg / train_batch_cbow
  JobResult r;
  uint64_t next_random = (uint64_t{1} << 24) * rng_.below(1u << 24) + rng_.below(1u << 24);
  int64_t effective = 0;
  sentence_idx_.assign(1, 0);
  const bool sample = settings_.sample != 0;
  for (int64_t s = job.first_sentence; s < job.end_sentence; ++s) {
    r.raw_words += starts_[s + 1] - starts_[s];
    if (starts_[s + 1] == starts_[s]) continue;
    for (int64_t p = starts_[s]; p < starts_[s + 1]; ++p) {
      const int32_t row = id_to_row_[static_cast<size_t>(ids_[static_cast<size_t>(p)])];
      if (row < 0) continue;
      if (sample) {
        const uint64_t rnd = next_random >> 16;
        next_random = lcg(next_random);
        if (sample_int_[static_cast<size_t>(row)] < rnd) continue;
      }
      indexes_[static_cast<size_t>(effective++)] = row;
      if (effective == kMaxSentenceLen) break;
    }
    sentence_idx_.push_back(effective);
    if (effective == kMaxSentenceLen) break;
  }
  for (int64_t i = 0; i < effective; ++i) {
    reduced_[static_cast<size_t>(i)] = static_cast<int32_t>(rng_.below(static_cast<uint32_t>(settings_.window)));
  }
  const int64_t window = settings_.window;
  const int32_t* idx = indexes_.data();
  for (size_t sent = 0; sent + 1 < sentence_idx_.size(); ++sent) {
    const int64_t start = sentence_idx_[sent], end = sentence_idx_[sent + 1];
    for (int64_t i = start; i < end; ++i) {
      const int64_t b = reduced_[static_cast<size_t>(i)];
      const int64_t j = std::max(start, i - window + b);
      const int64_t k = std::min(end, i + window + 1 - b);
      if (settings_.sg) {
        for (int64_t m = j; m < k; ++m) {
          if (m == i) continue;
          next_random = train_pair_sg(idx[i], idx[m], alpha, next_random, r);
        }
      } else {
        next_random = train_cbow(idx, i, j, k, alpha, next_random, r);
      }
    }
  }
  r.effective_words = effective;
  return r;
}

TrainStats Word2Vec::step(int64_t n) {
  check_at_least("word2vec step", "n", n, 0);
  TrainStats st;
  const double t0 = now_ms();
  double loss_sum = 0;
  int64_t predictions = 0;
  while (st.steps < n && !finished()) {
    const Job& job = jobs_[static_cast<size_t>(job_in_epoch_)];
    const float alpha = static_cast<float>(job_alpha(job));
    const JobResult r = run_job(job, alpha);
    ++total_steps_;
    ++st.steps;
    // subtle: gensim skips every prediction with |dot| >= 6, so even a huge rate leaves the
    // tables finite (they just stop learning); this guard fires only on values gone nan/inf.
    if (r.non_finite) fail_non_finite(NAN, total_steps_, alpha);
    loss_sum += r.loss_sum;
    predictions += r.predictions;
    st.last_loss = r.predictions ? r.loss_sum / static_cast<double>(r.predictions) : 0.0;
    st.tokens += r.effective_words;
    st.raw_tokens += r.raw_words;
    st.learning_rate = alpha;
    if (++job_in_epoch_ == static_cast<int64_t>(jobs_.size())) {
      job_in_epoch_ = 0;
      ++epoch_;
    }
  }
  st.elapsed_ms = now_ms() - t0;
  st.total_steps = total_steps_;
  st.loss = predictions ? loss_sum / static_cast<double>(predictions) : NAN;
  if (st.elapsed_ms > 0) {
    st.tokens_per_s = static_cast<double>(st.tokens) / (st.elapsed_ms / 1000.0);
    st.raw_tokens_per_s = static_cast<double>(st.raw_tokens) / (st.elapsed_ms / 1000.0);
  }
  st.finished = finished();
  return st;
}

}  // namespace embedlab
