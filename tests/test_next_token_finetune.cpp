// The next-token fine-tune (NextTokenTrainer::start_finetune): the run continues at a longer
// context with its parameters, optimizer state and batch stream; what it learns there; its
// refusals; checkpoints that record the phase; the same bytes at 1 and 2 threads.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/parallel.hpp"
#include "limits.hpp"
#include "next_token_fixtures.hpp"
#include "reference.hpp"
#include "train/next_token.hpp"

using namespace embedlab;
using embedlab::testing::all_params;
using embedlab::testing::cyclic;
using embedlab::testing::same_bits;

namespace {

// V 11, T 8, seed 3, Adam lr 0.01 (next_token_fixtures.hpp)
NextTokenSettings small(const char* pos) { return testing::small_settings(11, 8, pos, 3); }

}  // namespace

TEST_CASE("fine-tune: the run continues at a longer context", "[next-token][finetune]") {
  const std::vector<int32_t> ids = cyclic(11, 1200), valid = cyclic(11, 400);

  SECTION("the parameters carry over and the steps go on at 2T") {
    NextTokenTrainer tr(ids, small("rope"));
    tr.step(30);
    const std::vector<float> before = all_params(tr);
    tr.start_finetune(16);
    CHECK(tr.context() == 16);
    CHECK(tr.settings().model.context == 8);
    CHECK(tr.finetune_context() == 16);
    CHECK(tr.finetune_step() == 30);
    CHECK(same_bits(all_params(tr), before));
    const TrainStats st = tr.step(5);
    CHECK(st.tokens == 5 * 4 * 16);  // windows of 16 positions now
    CHECK(tr.steps_done() == 35);
    CHECK(tr.evaluate(valid) == tr.evaluate_at(valid, 16).loss);
    CHECK(std::isfinite(tr.evaluate_at(valid, 8).loss));
  }

  SECTION("on a cyclic stream the loss at 2T beats the same number of steps at T alone") {
    for (const char* pos : {"rope", "sinusoidal"}) {
      INFO("pos " << pos);
      NextTokenTrainer tuned(ids, small(pos)), plain(ids, small(pos));
      tuned.step(150);
      plain.step(200);
      const double untuned_2t = tuned.evaluate_at(valid, 16).loss;
      tuned.start_finetune(16);
      tuned.step(50);
      const double tuned_2t = tuned.evaluate_at(valid, 16).loss;
      CHECK(tuned_2t < untuned_2t);
      CHECK(tuned_2t < plain.evaluate_at(valid, 16).loss);
    }
  }

  SECTION("reset() returns the run to its training context") {
    NextTokenTrainer tr(ids, small("alibi")), fresh(ids, small("alibi"));
    tr.step(3);
    tr.start_finetune(24);
    tr.step(2);
    tr.reset();
    CHECK(tr.context() == 8);
    CHECK(tr.finetune_context() == 0);
    tr.step(4);
    fresh.step(4);
    CHECK(same_bits(all_params(tr), all_params(fresh)));
  }
}

TEST_CASE("fine-tune refusals name the value and the limit", "[next-token][finetune]") {
  const std::vector<int32_t> ids = cyclic(11, 300);

  SECTION("a context that is not longer") {
    NextTokenTrainer tr(ids, small("rope"));
    REQUIRE_THROWS_WITH(tr.start_finetune(8), "next-token fine-tune: context 8 must be > the training context 8");
    REQUIRE_THROWS_WITH(tr.start_finetune(4), "next-token fine-tune: context 4 must be > the training context 8");
  }
  SECTION("learned positions: a table of T rows is refused, not extended") {
    NextTokenTrainer tr(ids, small("learned"));
    REQUIRE_THROWS_WITH(tr.start_finetune(16),
                        "next-token fine-tune: learned positions have no rows beyond T = 8 (asked for 16): "
                        "fine-tune a kind without a position table, such as rope or alibi");
    CHECK(tr.context() == 8);
  }
  SECTION("a training stream shorter than one window of the new context") {
    NextTokenTrainer tr(ids, small("rope"));
    REQUIRE_THROWS_WITH(tr.start_finetune(300),
                        "next-token fine-tune: 300 training tokens make no window of context 300: need at least 301");
  }
  SECTION("a second fine-tune") {
    NextTokenTrainer tr(ids, small("rope"));
    tr.start_finetune(16);
    REQUIRE_THROWS_WITH(tr.start_finetune(32), "next-token fine-tune: the run is already fine-tuning at context 16 (asked for 32)");
  }
  SECTION("the longer context's buffers are planned before allocation") {
    testing::WasmLimits wasm;
    NextTokenSettings s = small("rope");
    s.model.vocab_size = 5;
    s.model.context = 4;
    s.batch_size = 256;
    NextTokenTrainer tr(cyclic(5, 5000), s);
    REQUIRE_THROWS_WITH(tr.start_finetune(4096),
                        "next-token fine-tune: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB");
    CHECK(tr.context() == 4);
    CHECK(std::isfinite(tr.step(1).loss));
  }
  SECTION("the plan counts the model of T, alive while the longer one is built") {
    NextTokenSettings s = small("rope");
    s.model.vocab_size = 5;
    s.model.context = 64;
    s.batch_size = 32;
    NextTokenConfig longer = s.model, before = s.model;
    longer.context = 128;
    MemoryPlan alone("test"), old("test");
    plan_model(alone, longer, 2);
    plan_run(alone, longer, 32, true);
    plan_model(old, before);
    plan_run(old, before, 32, true);
    REQUIRE(old.bytes() > (1u << 20));  // more than the slack below
    // room for the longer trainer alone (its ids and batches fit in 1 MiB), not for both models
    testing::WasmLimits limits(alone.bytes() + (1u << 20), alone.bytes() + (1u << 20));
    NextTokenSettings s_longer = s;
    s_longer.model.context = 128;
    REQUIRE_NOTHROW(validate(s_longer));
    NextTokenTrainer tr(cyclic(5, 5000), s);
    REQUIRE_THROWS_WITH(tr.start_finetune(128), Catch::StartsWith("next-token fine-tune: its buffers need "));
  }
}

TEST_CASE("fine-tune checkpoints record the phase", "[next-token][finetune][checkpoint]") {
  const std::vector<int32_t> ids = cyclic(11, 700);
  for (OptimizerKind opt : {OptimizerKind::Adam, OptimizerKind::Sgd}) {
    INFO(optimizer_kind_name(opt));
    NextTokenSettings s = small("rope");
    s.optimizer.kind = opt;
    // 700 ids: 87 windows of 8 (21 batches), 43 of 16 (10 batches): both phases cross epochs
    NextTokenTrainer whole(ids, s);
    whole.step(30);
    const std::vector<uint8_t> at_t = whole.save_state();
    whole.start_finetune(16);
    whole.step(13);
    const std::vector<uint8_t> mid = whole.save_state();
    whole.step(12);

    SECTION("save mid fine-tune, load into a new trainer, continue = the uninterrupted run") {
      NextTokenTrainer resumed(ids, s);
      resumed.step(2);
      resumed.load_state(mid);
      CHECK(resumed.context() == 16);
      CHECK(resumed.finetune_step() == 30);
      CHECK(resumed.steps_done() == 43);
      resumed.step(12);
      CHECK(same_bits(all_params(whole), all_params(resumed)));
      CHECK(whole.save_state() == resumed.save_state());
    }
    SECTION("a state saved before the fine-tune returns a fine-tuned trainer to T") {
      NextTokenTrainer other(ids, s);
      other.start_finetune(24);
      other.load_state(at_t);
      CHECK(other.context() == 8);
      CHECK(other.finetune_context() == 0);
      other.start_finetune(16);
      other.step(25);
      CHECK(same_bits(all_params(whole), all_params(other)));
    }
  }
}

TEST_CASE("fine-tuning gives the same bytes at 1 and 2 threads", "[next-token][finetune][threads]") {
  const std::vector<int32_t> ids = cyclic(11, 2000);
  struct Saved {
    int n = threads();
    ~Saved() { set_threads(n); }
  } saved;
  NextTokenSettings s = small("rope");
  s.batch_size = 16;
  std::vector<float> params;
  double loss = 0;
  for (int t : {1, 2}) {
    set_threads_oversubscribed(t);
    NextTokenTrainer tr(ids, s);
    tr.step(4);
    tr.start_finetune(32);
    const double l = tr.step(3).loss;
    INFO("threads " << t);
    if (t == 1) {
      params = all_params(tr);
      loss = l;
      continue;
    }
    CHECK(std::memcmp(&l, &loss, sizeof loss) == 0);
    CHECK(same_bits(all_params(tr), params));
  }
}
