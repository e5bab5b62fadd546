// Checkpoints (train/checkpoint.hpp): a run saved at step N and loaded into a fresh trainer
// continues bit for bit as the uninterrupted run; the generator's position survives; settings,
// text and damaged files are refused by name, leaving the trainer unchanged.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "next_token_fixtures.hpp"
#include "reference.hpp"
#include "train/checkpoint.hpp"
#include "train/next_token.hpp"
#include "train/word2vec.hpp"

using namespace embedlab;
using embedlab::testing::all_params;
using embedlab::testing::same_bits;
using Catch::Matchers::Contains;

namespace {

// V 13, T 6, seed 7 (next_token_fixtures.hpp)
NextTokenSettings next_settings(OptimizerKind opt, const std::string& pos) { return testing::small_settings(13, 6, pos, 7, opt); }

}  // namespace

TEST_CASE("Generator state: restore() continues the same stream", "[checkpoint]") {
  Generator a(123);
  float buf[7];
  a.normal(buf, 7);  // numel < 16: leaves a Box-Muller value cached
  for (int i = 0; i < 1000; ++i) a.random();
  const Generator::State st = a.state();
  CHECK(st.draws > 1000);
  Generator b(5);
  b.restore(st);
  for (int i = 0; i < 100; ++i) REQUIRE(a.random() == b.random());
  float x[3], y[3];
  a.normal(x, 3);
  b.normal(y, 3);
  CHECK(std::memcmp(x, y, sizeof x) == 0);
}

TEST_CASE("next-token: save at step N, load into a new trainer, continue = the uninterrupted run", "[checkpoint]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  for (OptimizerKind opt : {OptimizerKind::Adam, OptimizerKind::Sgd, OptimizerKind::AdamW}) {
    for (const char* pos : {"learned", "rope"}) {
      INFO(optimizer_kind_name(opt) << " " << pos);
      const NextTokenSettings s = next_settings(opt, pos);
      NextTokenTrainer whole(ids, s);
      // 400 ids / 6 per window / 4 per batch: 16 batches an epoch, so 40 steps cross epochs
      whole.step(23);
      const std::vector<uint8_t> saved = whole.save_state();
      whole.step(17);

      NextTokenTrainer resumed(ids, s);
      resumed.step(3);  // whatever it did before is replaced
      resumed.load_state(saved);
      CHECK(resumed.steps_done() == 23);
      CHECK(resumed.epoch() == 1);
      resumed.step(17);
      CHECK(resumed.steps_done() == 40);
      CHECK(same_bits(all_params(whole), all_params(resumed)));
      // the same run saves the same bytes
      CHECK(whole.save_state() == resumed.save_state());
    }
  }
}

TEST_CASE("word2vec: save mid-epoch, load, continue = the uninterrupted run", "[checkpoint]") {
  const testing::IdSentences c = testing::id_sentences(300);
  Word2VecSettings s;
  s.vector_size = 8;
  s.min_count = 2;
  s.epochs = 3;
  s.batch_words = 200;
  s.seed = 4;
  for (bool sg : {true, false}) {
    s.sg = sg;
    INFO((sg ? "skip-gram" : "CBOW"));
    Word2Vec whole(c.ids, c.starts, {}, s);
    REQUIRE(whole.jobs_per_epoch() > 5);
    whole.step(whole.jobs_per_epoch() + 2);
    const std::vector<uint8_t> saved = whole.save_state();
    whole.train_all();

    Word2Vec resumed(c.ids, c.starts, {}, s);
    resumed.load_state(saved);
    CHECK(resumed.jobs_done() == whole.jobs_per_epoch() + 2);
    CHECK(resumed.epoch() == 1);
    resumed.train_all();
    CHECK(resumed.finished());
    CHECK(same_bits(whole.input_table(), resumed.input_table()));
    CHECK(same_bits(whole.output_table(), resumed.output_table()));
  }
}

TEST_CASE("checkpoints of another run, another text or damaged files are refused by name", "[checkpoint]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  const NextTokenSettings s = next_settings(OptimizerKind::Adam, "learned");
  NextTokenTrainer tr(ids, s);
  tr.step(5);
  const std::vector<uint8_t> saved = tr.save_state();

  NextTokenTrainer fresh(ids, s);
  fresh.step(2);
  const std::vector<float> before = all_params(fresh);
  auto unchanged = [&] {
    CHECK(fresh.steps_done() == 2);
    CHECK(same_bits(all_params(fresh), before));
  };

  SECTION("another learning rate") {
    NextTokenSettings t = s;
    t.optimizer.lr = 0.001;
    NextTokenTrainer other(ids, t);
    CHECK_THROWS_WITH(other.load_state(saved), Contains("saved with lr=0.01") && Contains("this run has lr=0.001"));
  }
  SECTION("another text") {
    std::vector<int32_t> ids2 = ids;
    ids2[10] = (ids2[10] + 1) % 13;
    NextTokenTrainer other(ids2, s);
    CHECK_THROWS_WITH(other.load_state(saved), Contains("another training text"));
  }
  SECTION("a word2vec trainer") {
    const testing::IdSentences c = testing::id_sentences(50);
    Word2VecSettings w;
    w.min_count = 1;
    Word2Vec w2v(c.ids, c.starts, {}, w);
    CHECK_THROWS_WITH(w2v.load_state(saved), Contains("holds a next-token run, not a word2vec run"));
  }
  SECTION("cut short") {
    const std::vector<uint8_t> cut(saved.begin(), saved.begin() + static_cast<std::ptrdiff_t>(saved.size() / 2));
    CHECK_THROWS_WITH(fresh.load_state(cut), Contains("checksum mismatch"));
    unchanged();
  }
  SECTION("one flipped byte") {
    std::vector<uint8_t> bad = saved;
    bad[bad.size() / 2] ^= 0x40;
    CHECK_THROWS_WITH(fresh.load_state(bad), Contains("checksum mismatch"));
    unchanged();
  }
  SECTION("not a checkpoint") {
    const std::vector<uint8_t> junk{'h', 'e', 'l', 'l', 'o'};
    CHECK_THROWS_WITH(fresh.load_state(junk), Contains("not an embedlab checkpoint"));
    CHECK_THROWS_WITH(fresh.load_state({}), Contains("not an embedlab checkpoint"));
  }
  SECTION("a wider model's checkpoint leaves the trainer as it was") {
    NextTokenSettings t = s;
    t.model.dim = 10;
    NextTokenTrainer wide(ids, t);
    CHECK_THROWS_WITH(fresh.load_state(wide.save_state()), Contains("saved with dim=10, this run has dim=8"));
    unchanged();
  }
  SECTION("a length claimed past the end of the file") {
    CheckpointWriter w("next-token", "a=1\n", 7, 0);
    w.floats("param.token", std::vector<float>(4, 1.0f));
    std::vector<uint8_t> b = w.finish();
    // the float record's u64 length sits 8 + 16 bytes before the checksum: make it huge, re-sum
    const size_t len_at = b.size() - 8 - 16 - 8;
    const uint64_t huge = uint64_t{1} << 40;
    std::memcpy(b.data() + len_at, &huge, 8);
    const uint64_t sum = fnv1a64(b.data(), b.size() - 8);
    std::memcpy(b.data() + b.size() - 8, &sum, 8);
    CHECK_THROWS_WITH(CheckpointReader(b, "next-token", "a=1\n", 7), Contains("claims 1099511627776 bytes"));
  }
  SECTION("a record the trainer does not know is refused, the trainer unchanged") {
    std::vector<uint8_t> b(saved.begin(), saved.end() - 8);
    const std::string name = "extra";
    b.push_back(1);  // an i64 record
    const uint16_t len = static_cast<uint16_t>(name.size());
    b.insert(b.end(), reinterpret_cast<const uint8_t*>(&len), reinterpret_cast<const uint8_t*>(&len) + 2);
    b.insert(b.end(), name.begin(), name.end());
    const uint64_t bytes = 8, value = 42;
    b.insert(b.end(), reinterpret_cast<const uint8_t*>(&bytes), reinterpret_cast<const uint8_t*>(&bytes) + 8);
    b.insert(b.end(), reinterpret_cast<const uint8_t*>(&value), reinterpret_cast<const uint8_t*>(&value) + 8);
    uint32_t count;
    std::memcpy(&count, b.data() + 12, 4);
    ++count;
    std::memcpy(b.data() + 12, &count, 4);
    const uint64_t sum = fnv1a64(b.data(), b.size());
    b.insert(b.end(), reinterpret_cast<const uint8_t*>(&sum), reinterpret_cast<const uint8_t*>(&sum) + 8);
    CHECK_THROWS_WITH(fresh.load_state(b), Contains("record 'extra' is not part of a next-token checkpoint"));
    unchanged();
  }
  SECTION("after all that, the right checkpoint still loads") {
    CHECK_NOTHROW(fresh.load_state(saved));
    CHECK(fresh.steps_done() == 5);
  }
}
