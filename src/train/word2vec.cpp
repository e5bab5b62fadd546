// word2vec's setup and state (see word2vec.hpp for the gensim port as a whole): the settings'
// checks, the vocabulary (min_count, sub-sampling thresholds, the noise cum_table and its
// guide), the jobs an epoch is cut into, reset, and the checkpoint (save_state / load_state).
// Not here: the tables' init and the updates (gensim's inner loop, the step): word2vec_update.cpp.
#include "train/word2vec.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "train/checkpoint.hpp"

namespace embedlab {

namespace {

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

void Word2Vec::reset() {
  rng_.manual_seed(settings_.seed);
  init_tables();
  epoch_ = 0;
  job_in_epoch_ = 0;
  total_steps_ = 0;
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
