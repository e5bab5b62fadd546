#include "train/word2vec.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/clock.hpp"
#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"
#include "kernels/dense.hpp"
#include "train/checkpoint.hpp"

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

void check_positive_finite(const char* name, double v, bool allow_zero) {
  // values beyond float's range count as non-finite: the updates run in float
  if (!std::isfinite(v) || v > 3.4028234663852886e38 || v < 0 || (!allow_zero && v == 0)) {
    fail("word2vec", std::string(name) + (allow_zero ? " must be finite and >= 0" : " must be finite and > 0") +
                         ", got " + format_rate(v));
  }
}

}  // namespace

void validate(const Word2VecSettings& s) {
  check_at_least("word2vec", "vector_size", s.vector_size, 1);
  check_at_least("word2vec", "window", s.window, 1);
  if (s.negative < 1) {
    fail("word2vec", "negative must be >= 1 (hierarchical softmax is not implemented), got " +
                         std::to_string(s.negative));
  }
  check_at_least("word2vec", "min_count", s.min_count, 1);
  check_at_least("word2vec", "epochs", s.epochs, 1);
  check_at_least("word2vec", "batch_words", s.batch_words, 1);
  check_positive_finite("sample", s.sample, true);
  check_positive_finite("alpha", s.alpha, false);
  check_positive_finite("min_alpha", s.min_alpha, true);
  check_positive_finite("ns_exponent", s.ns_exponent, true);
  if (s.window > 1000000) fail("word2vec", "window must be <= 1000000, got " + std::to_string(s.window));
  if (s.negative > 1000) fail("word2vec", "negative must be <= 1000, got " + std::to_string(s.negative));
}

Word2Vec::Word2Vec(std::span<const int32_t> ids, std::span<const int64_t> sentence_starts,
                   std::span<const int64_t> counts, const Word2VecSettings& settings)
    : settings_(settings), rng_(settings.seed) {
  validate(settings_);
  {
    MemoryPlan p("word2vec");
    p.add("ids", {static_cast<int64_t>(ids.size())}, kInt32);
    p.add("sentence starts", {static_cast<int64_t>(sentence_starts.size())}, kInt64);
    p.check();
  }
  ids_.assign(ids.begin(), ids.end());
  starts_.assign(sentence_starts.begin(), sentence_starts.end());
  if (starts_.empty() || starts_.front() != 0 ||
      starts_.back() != static_cast<int64_t>(ids_.size())) {
    fail("word2vec", "sentence starts must begin at 0 and end at the number of ids " +
                         std::to_string(ids_.size()));
  }
  for (size_t k = 1; k < starts_.size(); ++k) {
    if (starts_[k] < starts_[k - 1]) {
      fail("word2vec", "sentence starts must not decrease, got " + std::to_string(starts_[k]) +
                           " after " + std::to_string(starts_[k - 1]));
    }
  }
  std::vector<int64_t> own;
  if (counts.empty()) {
    int32_t max_id = -1;
    for (int32_t id : ids_) {
      if (id < 0) check_index("word2vec", "token id", id, 0, INT32_MAX);
      max_id = std::max(max_id, id);
    }
    own.assign(plan("word2vec", "word counts", int64_t{max_id} + 1, kInt64), 0);
    for (int32_t id : ids_) ++own[static_cast<size_t>(id)];
    counts = own;
  }
  for (int32_t id : ids_) check_index("word2vec", "token id", id, 0, static_cast<int64_t>(counts.size()));
  raw_total_ = static_cast<int64_t>(ids_.size());
  build_vocab(counts);
  build_jobs();
  init_tables();
}

int32_t Word2Vec::row_of(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= id_to_row_.size()) return -1;
  return id_to_row_[static_cast<size_t>(id)];
}

void Word2Vec::build_vocab(std::span<const int64_t> counts) {
  const int64_t V = static_cast<int64_t>(counts.size());
  // ids are int32, so a row beyond INT32_MAX could never be used
  if (V > int64_t{INT32_MAX} + 1) {
    fail("word2vec", "counts has " + std::to_string(V) + " entries, more than int32 ids can address (2147483648)");
  }
  std::vector<int32_t> order;
  int64_t most = 0;
  for (int64_t id = 0; id < V; ++id) {
    most = std::max(most, counts[id]);
    if (counts[id] >= settings_.min_count) order.push_back(static_cast<int32_t>(id));
  }
  if (order.empty()) {
    fail("word2vec", "no word occurs at least min_count=" + std::to_string(settings_.min_count) +
                         " times (the most frequent occurs " + std::to_string(most) +
                         " times); lower min_count or use a longer text");
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return counts[a] > counts[b]; });
  // Everything the vocabulary and the training allocate, W retained words of width D.
  const int64_t W = static_cast<int64_t>(order.size()), D = settings_.vector_size;
  MemoryPlan p("word2vec");
  p.add("input table", {W, D}, kFloat32);
  p.add("output table", {W, D}, kFloat32);
  p.add("work vectors", {2, D}, kFloat32);
  p.add("id to row map", {V}, kInt32);
  p.add("vocabulary", {W, 2}, kInt64);  // row -> id and row -> count
  p.add("sampling thresholds", {W}, kInt32);
  p.add("noise table", {W}, kInt32);
  p.add("noise weights", {W}, kFloat64);  // c^0.75, while the noise table is built
  p.add("jobs", {static_cast<int64_t>(starts_.size()), 3}, kInt64);
  p.add("sentence index", {static_cast<int64_t>(starts_.size())}, kInt64);
  p.check();
  vocab_ids_ = order;
  vocab_counts_.resize(order.size());
  id_to_row_.assign(static_cast<size_t>(V), -1);
  for (size_t r = 0; r < order.size(); ++r) {
    vocab_counts_[r] = counts[order[r]];
    id_to_row_[static_cast<size_t>(order[r])] = static_cast<int32_t>(r);
  }

  // Sub-sampling thresholds (gensim Word2Vec.prepare_vocab).
  const double retain_total =
      static_cast<double>(std::accumulate(vocab_counts_.begin(), vocab_counts_.end(), int64_t{0}));
  double threshold;
  if (settings_.sample == 0) threshold = retain_total;
  else if (settings_.sample < 1.0) threshold = settings_.sample * retain_total;
  else threshold = std::floor(settings_.sample * (3 + std::sqrt(5.0)) / 2);
  sample_int_.resize(order.size());
  for (size_t r = 0; r < order.size(); ++r) {
    const double v = static_cast<double>(vocab_counts_[r]);
    double p = (std::sqrt(v / threshold) + 1) * (threshold / v);
    if (p >= 1.0) p = 1.0;
    sample_int_[r] = static_cast<uint32_t>(p * 4294967295.0);
  }

  // Noise distribution (gensim Word2Vec.make_cum_table, domain 2^31 - 1).
  const double domain = 2147483647.0;
  std::vector<double> powed(order.size());
  double z = 0;
  for (size_t r = 0; r < order.size(); ++r) {
    const double c = static_cast<double>(vocab_counts_[r]);
    powed[r] = settings_.ns_exponent == 0 ? 1.0 : detmath::exp(settings_.ns_exponent * detmath::log(c));
    z += powed[r];
  }
  cum_table_.resize(order.size());
  double cumulative = 0;
  for (size_t r = 0; r < order.size(); ++r) {
    cumulative += powed[r];
    cum_table_[r] = static_cast<uint32_t>(std::nearbyint(cumulative / z * domain));
  }
  // Guide table for draw_noise: guide_[b] = bisect_left(cum_table, b << guide_shift_), so a
  // draw x only searches [guide_[x >> shift], guide_[(x >> shift) + 1]]: the same answer as
  // the full bisection, in O(1) for the frequent words that most draws land on.
  guide_shift_ = 31;
  while (guide_shift_ > 15 && (uint64_t{1} << (31 - guide_shift_)) < 4 * cum_table_.size()) --guide_shift_;
  const size_t buckets = (size_t{1} << (31 - guide_shift_)) + 1;
  guide_.resize(buckets + 1);
  for (size_t b = 0; b <= buckets; ++b) guide_[b] = bisect(uint64_t{b} << guide_shift_, 0, cum_table_.size());
}

void Word2Vec::build_jobs() {
  // gensim Word2Vec._job_producer: pack whole sentences while the raw word count stays
  // <= batch_words; a sentence that does not fit starts the next job.
  const int64_t S = static_cast<int64_t>(starts_.size()) - 1;
  jobs_.clear();
  int64_t first = 0, size = 0;
  for (int64_t s = 0; s < S; ++s) {
    const int64_t len = starts_[s + 1] - starts_[s];
    if (size + len <= settings_.batch_words) {
      size += len;
      continue;
    }
    if (s > first) jobs_.push_back({first, s, static_cast<double>(first) / static_cast<double>(S)});
    first = s;
    size = len;
  }
  if (S > first) jobs_.push_back({first, S, static_cast<double>(first) / static_cast<double>(S)});
  if (jobs_.empty()) fail("word2vec", "the corpus has no sentences");
}

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

void Word2Vec::reset() {
  rng_.manual_seed(settings_.seed);
  init_tables();
  epoch_ = 0;
  job_in_epoch_ = 0;
  total_steps_ = 0;
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

std::string Word2Vec::settings_text() const {
  const Word2VecSettings& s = settings_;
  SettingsText t;
  t.add("sg", s.sg).add("vector_size", s.vector_size).add("window", s.window).add("negative", s.negative);
  t.add("min_count", s.min_count).add("sample", s.sample).add("alpha", s.alpha).add("min_alpha", s.min_alpha);
  t.add("epochs", s.epochs).add("cbow_mean", s.cbow_mean).add("ns_exponent", s.ns_exponent);
  t.add("batch_words", s.batch_words).add("seed", static_cast<int64_t>(s.seed));
  return t.str();
}

uint64_t Word2Vec::data_hash() const {
  uint64_t h = fnv1a64(ids_.data(), ids_.size() * sizeof(int32_t));
  h = fnv1a64(starts_.data(), starts_.size() * sizeof(int64_t), h);
  h = fnv1a64(vocab_ids_.data(), vocab_ids_.size() * sizeof(int32_t), h);
  return fnv1a64(vocab_counts_.data(), vocab_counts_.size() * sizeof(int64_t), h);
}

std::vector<uint8_t> Word2Vec::save_state() const {
  CheckpointWriter w("word2vec", settings_text(), data_hash(), total_steps_);
  w.floats("syn0", syn0_);
  w.floats("syn1neg", syn1neg_);
  const Generator::State g = rng_.state();
  w.i64("rng.seed", static_cast<int64_t>(g.seed));
  w.i64("rng.draws", static_cast<int64_t>(g.draws));  // version 2: for information (and version 1 readers)
  w.ints("rng.words", std::span<const int32_t>(reinterpret_cast<const int32_t*>(g.words.data()), g.words.size()));
  w.i64("rng.index", g.index);
  w.i64("rng.has_cached", g.has_cached ? 1 : 0);
  w.f64("rng.cached", g.cached);
  w.i64("epoch", epoch_);
  w.i64("job_in_epoch", job_in_epoch_);
  return w.finish();
}

void Word2Vec::load_state(std::span<const uint8_t> bytes) {
  const CheckpointReader r(bytes, "word2vec", settings_text(), data_hash());
  const int64_t epoch = r.count("epoch", 0, settings_.epochs);
  const int64_t job = r.count("job_in_epoch", 0, std::max<int64_t>(jobs_per_epoch(), 1) - 1);
  if (r.step() != epoch * jobs_per_epoch() + job) {
    fail("checkpoint", "step " + std::to_string(r.step()) + " does not match epoch " + std::to_string(epoch) +
                           " and job " + std::to_string(job) + " (" + std::to_string(jobs_per_epoch()) + " jobs per epoch)");
  }
  const uint64_t seed = static_cast<uint64_t>(r.i64("rng.seed"));
  if (seed != settings_.seed) fail("checkpoint", "rng.seed " + std::to_string(seed) + " is not the run's seed " + std::to_string(settings_.seed));
  // version 2: the generator's words, restored as they are; version 1: a count of draws,
  // replayed up to Generator::kMaxReplayDraws (core/rng.hpp)
  Generator::State g;
  if (r.version() >= 2) {
    const std::vector<int32_t> words = r.ints("rng.words");
    if (words.size() != g.words.size()) {
      fail("checkpoint", "record 'rng.words' holds " + std::to_string(words.size()) + " values, expected " + std::to_string(g.words.size()));
    }
    for (size_t i = 0; i < words.size(); ++i) g.words[i] = static_cast<uint32_t>(words[i]);
    g.index = static_cast<uint32_t>(r.count("rng.index", 0, Generator::kWords));
    g.seed = seed;
    g.draws = static_cast<uint64_t>(r.count("rng.draws", 0, INT64_MAX));
  }
  // subtle: version 1 replays after every other check, so a file refused anyway costs no replay
  const int64_t legacy_draws = r.version() >= 2 ? -1 : r.count("rng.draws", 0, INT64_MAX);
  const bool has_cached = r.count("rng.has_cached", 0, 1) != 0;
  const double cached = r.f64("rng.cached");
  if (!std::isfinite(cached)) fail("checkpoint", "rng.cached " + format_number(cached) + " must be finite");
  // every length is checked before anything is copied, so a bad file leaves the run as it was
  if (r.float_count("syn0") != syn0_.size() || r.float_count("syn1neg") != syn1neg_.size()) {
    fail("checkpoint", "tables of " + std::to_string(r.float_count("syn0")) + " and " + std::to_string(r.float_count("syn1neg")) +
                           " values, this run has " + std::to_string(syn0_.size()) + " each");
  }
  r.require_all_read();
  if (legacy_draws >= 0) g = Generator::replay("checkpoint", seed, static_cast<uint64_t>(legacy_draws));
  g.has_cached = has_cached;
  g.cached = cached;
  r.floats("syn0", syn0_);
  r.floats("syn1neg", syn1neg_);
  rng_.restore(g);
  epoch_ = epoch;
  job_in_epoch_ = job;
  total_steps_ = r.step();
}

TrainStats Word2Vec::train_all() { return step(total_jobs() - total_steps_); }

}  // namespace embedlab
