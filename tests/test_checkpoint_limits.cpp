// Checkpoint limits (train/checkpoint.hpp): every count a checkpoint holds is bounded or checked
// against the others, the generator is restored from its state in constant time (version 2) or
// replayed up to a limit (version 1), and what loading or saving allocates is planned first.
// The crafted files are real checkpoints re-written record by record (rewrite() below) with one
// value changed and a fresh checksum, so each test reaches the check it names.
#include <catch2/catch.hpp>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "reference.hpp"
#include "train/checkpoint.hpp"
#include "train/next_token.hpp"
#include "train/word2vec.hpp"

using namespace embedlab;
using embedlab::testing::same_bits;

namespace {

// One record of a checkpoint file, as laid out in train/checkpoint.hpp.
struct Rec {
  uint8_t type;
  std::string name;
  std::vector<uint8_t> payload;
};

// The records of a well-formed checkpoint (the tests only take apart files the writer made).
std::vector<Rec> records_of(const std::vector<uint8_t>& b) {
  std::vector<Rec> out;
  uint32_t count;
  std::memcpy(&count, b.data() + 12, 4);
  size_t at = 16;
  for (uint32_t r = 0; r < count; ++r) {
    Rec rec;
    rec.type = b[at];
    uint16_t name_len;
    std::memcpy(&name_len, b.data() + at + 1, 2);
    rec.name.assign(reinterpret_cast<const char*>(b.data() + at + 3), name_len);
    at += 3 + name_len;
    uint64_t len;
    std::memcpy(&len, b.data() + at, 8);
    at += 8;
    rec.payload.assign(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + len));
    at += len;
    out.push_back(std::move(rec));
  }
  return out;
}

// A checkpoint file of `version` holding `recs` (the header's record count may be overridden),
// with its checksum.
std::vector<uint8_t> file_of(uint32_t version, const std::vector<Rec>& recs, std::optional<uint32_t> count = {}) {
  std::vector<uint8_t> b{'E', 'M', 'B', 'L', 'C', 'K', 'P', 'T'};
  auto put = [&](const void* p, size_t n) { b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); };
  const uint32_t n = count.value_or(static_cast<uint32_t>(recs.size()));
  put(&version, 4);
  put(&n, 4);
  for (const Rec& r : recs) {
    b.push_back(r.type);
    const uint16_t len = static_cast<uint16_t>(r.name.size());
    put(&len, 2);
    put(r.name.data(), r.name.size());
    const uint64_t bytes = r.payload.size();
    put(&bytes, 8);
    put(r.payload.data(), r.payload.size());
  }
  const uint64_t sum = fnv1a64(b.data(), b.size());
  put(&sum, 8);
  return b;
}

std::vector<uint8_t> i64_payload(int64_t v) {
  std::vector<uint8_t> p(8);
  std::memcpy(p.data(), &v, 8);
  return p;
}

std::vector<uint8_t> f64_payload(double v) {
  std::vector<uint8_t> p(8);
  std::memcpy(p.data(), &v, 8);
  return p;
}

// The file with record `name`'s payload replaced (or removed when payload is empty and type 0).
std::vector<uint8_t> with(const std::vector<uint8_t>& file, const std::string& name, std::vector<uint8_t> payload) {
  std::vector<Rec> recs = records_of(file);
  for (Rec& r : recs) {
    if (r.name == name) r.payload = std::move(payload);
  }
  uint32_t version;
  std::memcpy(&version, file.data() + 8, 4);
  return file_of(version, recs);
}

NextTokenSettings next_settings() {
  NextTokenSettings s;
  s.model.vocab_size = 13;
  s.model.dim = 8;
  s.model.context = 6;
  s.model.pos = "learned";
  s.model.seed = 7;
  s.batch_size = 4;
  s.optimizer.kind = OptimizerKind::Adam;
  s.optimizer.lr = 0.01;
  s.optimizer.weight_decay = default_weight_decay(OptimizerKind::Adam);
  return s;
}

Word2VecSettings w2v_settings() {
  Word2VecSettings s;
  s.vector_size = 8;
  s.min_count = 2;
  s.epochs = 3;
  s.batch_words = 200;
  s.seed = 4;
  return s;
}

}  // namespace

TEST_CASE("Generator: its own mt19937 gives std::mt19937's outputs, and its state restores them", "[checkpoint][rng]") {
  for (uint64_t seed : {uint64_t{0}, uint64_t{5489}, uint64_t{42}, (uint64_t{1} << 32) + 7}) {
    INFO("seed " << seed);
    Generator g(seed);
    std::mt19937 ref(static_cast<uint32_t>(seed & 0xffffffffu));
    for (int i = 0; i < 3000; ++i) REQUIRE(g.random() == ref());  // crosses four twists
    const Generator::State st = g.state();
    CHECK(st.draws == 3000);
    CHECK(st.index == 3000 - 4 * 624);
    Generator h(1);
    h.restore(st);
    for (int i = 0; i < 1000; ++i) REQUIRE(h.random() == ref());
  }
  SECTION("a bad state is refused by name") {
    Generator::State st = Generator(3).state();
    st.index = 625;
    CHECK_THROWS_WITH(Generator().restore(st), "checkpoint: rng.index 625 out of range [0, 624]");
  }
}

TEST_CASE("word2vec checkpoints: the generator's state restores, version 1 files replay a bounded count", "[checkpoint]") {
  const testing::IdSentences c = testing::id_sentences(300);
  const Word2VecSettings s = w2v_settings();
  Word2Vec whole(c.ids, c.starts, {}, s);
  whole.step(whole.jobs_per_epoch() + 2);
  const std::vector<uint8_t> saved = whole.save_state();
  uint32_t version;
  std::memcpy(&version, saved.data() + 8, 4);
  CHECK(version == kCheckpointVersion);
  whole.train_all();

  // A version 1 file of the same run: the words and index out, version 1 in the header.
  std::vector<Rec> v1;
  for (const Rec& r : records_of(saved)) {
    if (r.name != "rng.words" && r.name != "rng.index") v1.push_back(r);
  }
  auto v1_with_draws = [&](int64_t draws) {
    std::vector<Rec> recs = v1;
    for (Rec& r : recs) {
      if (r.name == "rng.draws") r.payload = i64_payload(draws);
    }
    return file_of(1, recs);
  };

  SECTION("a version 2 file resumes to the uninterrupted run") {
    Word2Vec resumed(c.ids, c.starts, {}, s);
    resumed.load_state(saved);
    resumed.train_all();
    CHECK(same_bits(whole.input_table(), resumed.input_table()));
  }
  SECTION("a version 1 file (a count of draws) still resumes to the uninterrupted run") {
    Word2Vec resumed(c.ids, c.starts, {}, s);
    resumed.load_state(file_of(1, v1));
    resumed.train_all();
    CHECK(same_bits(whole.input_table(), resumed.input_table()));
  }
  SECTION("a version 1 count of draws past the replay limit is refused, not replayed") {
    Word2Vec resumed(c.ids, c.starts, {}, s);
    CHECK_THROWS_WITH(resumed.load_state(v1_with_draws(int64_t{1} << 28 | 1)),
                      "checkpoint: rng.draws 268435457 exceeds 268435456, the most this build replays (a checkpoint saved since stores the generator's state)");
    CHECK_THROWS_WITH(resumed.load_state(v1_with_draws(int64_t{1} << 62)),
                      "checkpoint: rng.draws 4611686018427387904 exceeds 268435456, the most this build replays (a checkpoint saved since stores the generator's state)");
    CHECK_THROWS_WITH(resumed.load_state(v1_with_draws(-1)), "checkpoint: rng.draws -1 out of range [0, 9223372036854775807]");
    CHECK(resumed.jobs_done() == 0);
  }
  SECTION("a version 2 file with 2^62 draws loads at once: the count is not replayed") {
    Word2Vec resumed(c.ids, c.starts, {}, s);
    resumed.load_state(with(saved, "rng.draws", i64_payload(int64_t{1} << 62)));
    resumed.train_all();
    CHECK(same_bits(whole.input_table(), resumed.input_table()));
  }
  SECTION("a bad generator state, epoch or flag is refused by name") {
    Word2Vec resumed(c.ids, c.starts, {}, s);
    CHECK_THROWS_WITH(resumed.load_state(with(saved, "rng.index", i64_payload(625))), "checkpoint: rng.index 625 out of range [0, 624]");
    CHECK_THROWS_WITH(resumed.load_state(with(saved, "rng.words", std::vector<uint8_t>(8))),
                      "checkpoint: record 'rng.words' holds 2 values, expected 624");
    CHECK_THROWS_WITH(resumed.load_state(with(saved, "rng.has_cached", i64_payload(2))), "checkpoint: rng.has_cached 2 out of range [0, 1]");
    CHECK_THROWS_WITH(resumed.load_state(with(saved, "rng.cached", f64_payload(NAN))), "checkpoint: rng.cached nan must be finite");
    CHECK_THROWS_WITH(resumed.load_state(with(saved, "epoch", i64_payload(INT64_MAX))),
                      "checkpoint: epoch 9223372036854775807 out of range [0, 3]");
    CHECK(resumed.jobs_done() == 0);
  }
}

TEST_CASE("next-token checkpoints: step and the counts that follow from it are bounded", "[checkpoint]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  const NextTokenSettings s = next_settings();
  NextTokenTrainer tr(ids, s);
  tr.step(5);
  const std::vector<uint8_t> saved = tr.save_state();
  NextTokenTrainer fresh(ids, s);

  SECTION("a step of 2^63 - 1 is refused, naming the limit") {
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "step", i64_payload(INT64_MAX))),
                      "checkpoint: step 9223372036854775807 out of range [0, 9007199254740991]");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "step", i64_payload(-1))), "checkpoint: step -1 out of range [0, 9007199254740991]");
    CHECK(fresh.steps_done() == 0);
  }
  SECTION("a step that disagrees with the epoch, the batch or the optimizer is refused") {
    // 400 ids, windows of 6, batches of 4: 16 batches an epoch; step 5 is epoch 0, next_batch 5
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "step", i64_payload(6))),
                      "checkpoint: step 6 does not match epoch 0 and next_batch 5 (16 batches per epoch)");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "epoch", i64_payload(INT64_MAX))),
                      "checkpoint: epoch 9223372036854775807 out of range [0, 5]");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "optimizer.t", i64_payload(int64_t{1} << 62))),
                      "checkpoint: optimizer.t 4611686018427387904 out of range [0, 9007199254740991]");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "optimizer.t", i64_payload(4))), "checkpoint: optimizer.t 4 does not match step 5");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "optimizer.b1t", f64_payload(2.0))), "checkpoint: optimizer.b1t 2 out of range [0, 1]");
    CHECK_THROWS_WITH(fresh.load_state(with(saved, "optimizer.states", i64_payload(int64_t{1} << 40))),
                      "checkpoint: optimizer.states 1099511627776 out of range [0, 6]");
    CHECK(fresh.steps_done() == 0);
    CHECK_NOTHROW(fresh.load_state(saved));
    CHECK(fresh.steps_done() == 5);
  }
  SECTION("a trainer does not step past the limit") {
    CHECK_THROWS_WITH(fresh.step(kMaxSteps + 1),
                      "next-token step: n 9007199254740992 would take the run from step 0 past step 9007199254740991, the most a run has");
    CHECK(fresh.steps_done() == 0);
  }
}

TEST_CASE("checkpoint bytes are planned: the header's record count, the index and the writer's buffer", "[checkpoint]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  NextTokenTrainer tr(ids, next_settings());
  tr.step(2);
  const std::vector<uint8_t> saved = tr.save_state();
  const std::vector<Rec> recs = records_of(saved);

  SECTION("a record count past the limit or past what the file can hold is refused before parsing") {
    const std::vector<uint8_t> many = file_of(2, recs, kMaxCheckpointRecords + 1);
    CHECK_THROWS_WITH(CheckpointReader(many, "next-token"), "checkpoint: record count 4097 exceeds 4096, the most a checkpoint has");
    const std::vector<uint8_t> more = file_of(2, recs, 4000);
    CHECK_THROWS_WITH(CheckpointReader(more, "next-token"),
                      "checkpoint: record count 4000 does not fit in a file of " + std::to_string(more.size()) + " bytes (at most " +
                          std::to_string((more.size() - 24) / 12) + " records of 12 bytes or more)");
  }
  SECTION("reading plans the record index, writing plans the file, against the memory limit") {
    set_memory_limit_override(MemoryLimits{1024, 1024});
    CHECK_THROWS_WITH(CheckpointReader(saved, "next-token"),
                      "checkpoint: record index " + std::to_string(recs.size()) + " x 128 bytes need " +
                          format_bytes(recs.size() * 128) + "; the limit here is 1.0 KiB");
    CHECK_THROWS_WITH(tr.save_state(), Catch::Matchers::StartsWith("checkpoint: checkpoint file ") &&
                                           Catch::Matchers::EndsWith("; the limit here is 1.0 KiB"));
    set_memory_limit_override(std::nullopt);
    CHECK_NOTHROW(CheckpointReader(saved, "next-token"));
  }
}

TEST_CASE("next-token checkpoints: the fine-tune phase is bounded and checked like the rest", "[checkpoint][finetune]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  NextTokenSettings s = next_settings();
  s.model.pos = "rope";
  NextTokenTrainer tr(ids, s);
  tr.step(5);
  tr.start_finetune(12);
  tr.step(3);  // 400 ids, windows of 12, batches of 4: 8 batches an epoch; epoch 0, next_batch 3
  const std::vector<uint8_t> saved = tr.save_state();
  NextTokenTrainer fresh(ids, s);

  CHECK_THROWS_WITH(fresh.load_state(with(saved, "finetune.context", i64_payload(6))),
                    "next-token fine-tune: context 6 must be > the training context 6");
  CHECK_THROWS_WITH(fresh.load_state(with(saved, "finetune.context", i64_payload(400))),
                    "next-token fine-tune: 400 training tokens make no window of context 400: need at least 401");
  CHECK_THROWS_WITH(fresh.load_state(with(saved, "finetune.step", i64_payload(9))), "checkpoint: finetune.step 9 out of range [0, 8]");
  CHECK_THROWS_WITH(fresh.load_state(with(saved, "finetune.step", i64_payload(4))),
                    "checkpoint: step 8 does not match epoch 0 and next_batch 3 (8 batches per epoch, fine-tune from step 4 and epoch 0)");
  CHECK_THROWS_WITH(fresh.load_state(with(saved, "finetune.epoch", i64_payload(1))), "checkpoint: finetune.epoch 1 out of range [0, 0]");
  CHECK(fresh.steps_done() == 0);
  CHECK(fresh.context() == 6);
  CHECK_NOTHROW(fresh.load_state(saved));
  CHECK(fresh.context() == 12);
  CHECK(fresh.steps_done() == 8);
}
