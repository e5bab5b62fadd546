// The next-token model: dense kernels against references, gradients against finite
// differences, falling losses, determinism, and the messages for bad settings.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "core/detmath.hpp"
#include "core/parallel.hpp"
#include "kernels/kernels.hpp"
#include "core/rng.hpp"
#include "limits.hpp"
#include "next_token_fixtures.hpp"
#include "reference.hpp"
#include "kernels/dense.hpp"
#include "train/next_token.hpp"
#include "train/optimizer.hpp"

using namespace embedlab;
using embedlab::testing::cyclic;
using embedlab::testing::randn;
using embedlab::testing::same_bits;

TEST_CASE("dense kernels equal their scalar references bit for bit", "[train-kernels]") {
  Generator g(5);
  INFO("gemm isa " << dense::gemm_isa());

  SECTION("gemm_acc on shapes that leave row, column and block remainders (SSE2 and AVX2 paths)") {
    const size_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {6, 64, 16}, {7, 65, 33}, {13, 300, 9}, {5, 3, 600}, {4, 0, 5}, {2, 600, 1100}};
    for (int pass = 0; pass < 2; ++pass)
    for (const auto& s : shapes) {
      dense::detail::set_avx2_enabled(pass == 1);
      const size_t n = s[0], k = s[1], m = s[2];
      const auto A = randn(g, n * k), B = randn(g, k * m);
      auto C1 = randn(g, n * m), C2 = C1;
      dense::gemm_acc(n, k, m, A.data(), k, B.data(), m, C1.data(), m);
      dense::ref::gemm_acc(n, k, m, A.data(), k, B.data(), m, C2.data(), m);
      INFO("n " << n << " k " << k << " m " << m << " isa " << dense::gemm_isa());
      CHECK(same_bits(C1, C2));
      // gemm (C = A @ B) equals zeroing C, then gemm_acc
      auto C3 = randn(g, n * m);
      std::vector<float> C4(n * m, 0.0f);
      dense::gemm(n, k, m, A.data(), k, B.data(), m, C3.data(), m);
      dense::ref::gemm_acc(n, k, m, A.data(), k, B.data(), m, C4.data(), m);
      CHECK(same_bits(C3, C4));
    }
    dense::detail::set_avx2_enabled(true);
  }

  SECTION("dot_rows equals kernels::dot per row and sgns_update equals two axpy calls") {
    for (size_t n : {1u, 7u, 8u, 9u, 100u, 300u}) {
      const auto x = randn(g, n);
      std::vector<std::vector<float>> ys;
      std::vector<const float*> ptrs;
      for (int r = 0; r < 17; ++r) ys.push_back(randn(g, n));  // groups of 4 (SSE2/wasm) and 8 (AVX2) and their tails
      for (auto& y : ys) ptrs.push_back(y.data());
      for (bool avx2 : {true, false}) {
        dense::detail::set_avx2_enabled(avx2);
        for (size_t count = 0; count <= ptrs.size(); ++count) {
          std::vector<float> out(count);
          dense::dot_rows(n, x.data(), ptrs.data(), count, out.data());
          for (size_t r = 0; r < count; ++r) {
            const float want = kernels::dot(n, x.data(), ptrs[r]);
            CHECK(std::memcmp(&out[r], &want, 4) == 0);
          }
        }
      }
      dense::detail::set_avx2_enabled(true);
      auto l2a = randn(g, n), worka = randn(g, n);
      auto l2b = l2a, workb = worka;
      dense::sgns_update(n, 0.37f, x.data(), l2a.data(), worka.data());
      kernels::axpy(n, 0.37f, l2b.data(), workb.data());
      kernels::axpy(n, 0.37f, x.data(), l2b.data());
      CHECK(same_bits(l2a, l2b));
      CHECK(same_bits(worka, workb));
    }
  }

  SECTION("gemm_acc worked example: [[1,2]] @ [[3],[4]] added to [[10]] is [[21]]") {
    const float A[] = {1, 2}, B[] = {3, 4};
    float C[] = {10};
    dense::gemm_acc(1, 2, 1, A, 2, B, 1, C, 1);
    CHECK(C[0] == 21.0f);
  }

  SECTION("exp_float is within 3e-7 relative of exp and the SIMD version matches it") {
    std::vector<float> x;
    for (float v = -87.0f; v <= 88.0f; v += 0.01713f) x.push_back(v);
    std::vector<float> a(x.size()), b(x.size());
    dense::exp_floats(x.size(), x.data(), a.data());
    dense::ref::exp_floats(x.size(), x.data(), b.data());
    CHECK(same_bits(a, b));
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = detmath::exp(x[i]);
      worst = std::max(worst, std::abs(a[i] - want) / want);
    }
    CHECK(worst < 3e-7);
    CHECK(dense::exp_float(0.0f) == 1.0f);
  }

  SECTION("softmax_xent gives (p - onehot) * scale and the summed loss") {
    for (size_t V : {1u, 3u, 8u, 13u, 100u, 1001u}) {
      const size_t n = 3;
      auto z1 = randn(g, n * V), z2 = z1;
      const std::vector<float> z = z1;
      std::vector<int32_t> t(n);
      for (size_t i = 0; i < n; ++i) t[i] = static_cast<int32_t>((i * 5) % V);
      const double l1 = dense::softmax_xent(n, V, z1.data(), t.data(), 0.25f);
      const double l2 = dense::ref::softmax_xent(n, V, z2.data(), t.data(), 0.25f);
      INFO("V " << V);
      CHECK(same_bits(z1, z2));
      CHECK(l1 == l2);
      double want = 0;
      for (size_t i = 0; i < n; ++i) {
        double s = 0;
        for (size_t j = 0; j < V; ++j) s += std::exp(double(z[i * V + j]));
        want += std::log(s) - z[i * V + t[i]];
        for (size_t j = 0; j < V; ++j) {
          const double p = std::exp(double(z[i * V + j])) / s - (int32_t(j) == t[i] ? 1 : 0);
          CHECK(z1[i * V + j] == Approx(0.25 * p).margin(1e-6));
        }
      }
      CHECK(l1 == Approx(want).margin(1e-5));
    }
  }
}

TEST_CASE("NextTokenModel gradients match finite differences", "[next-token]") {
  for (const PositionKind* kind : position_kinds()) {  // every kind of the registry
    for (bool tie : {false, true}) {
      NextTokenConfig c;
      c.vocab_size = 7;
      c.dim = 6;
      c.context = 5;
      c.pos = kind->name;
      c.tie_head = tie;
      c.scale_embeddings = tie;  // exercise the sqrt(D) scale too
      c.seed = 3;
      NextTokenModel m(c);
      // shrink the tables so the softmaxes are not saturated
      for (ParamView p : m.params())
        for (size_t i = 0; i < p.size; ++i) p.data[i] *= 0.5f;
      const int64_t B = 2;
      const std::vector<int32_t> in{1, 2, 3, 4, 5, 6, 0, 1, 1, 2}, tg{2, 3, 4, 5, 6, 0, 1, 1, 2, 3};
      m.forward_backward(in, tg, B);
      INFO("pos " << kind->name << " tied " << tie);
      for (ParamView p : m.params()) {
        const std::vector<float> grad(p.grad, p.grad + p.size);
        double worst = 0;
        for (size_t i = 0; i < p.size; ++i) {
          const float keep = p.data[i];
          const float eps = 1e-2f;
          p.data[i] = keep + eps;
          const double up = m.loss(in, tg, B);
          p.data[i] = keep - eps;
          const double down = m.loss(in, tg, B);
          p.data[i] = keep;
          const double numeric = (up - down) / (2.0 * eps);
          worst = std::max(worst, std::abs(numeric - grad[i]) / (1e-2 + std::abs(numeric)));
        }
        INFO("parameter " << p.name);
        CHECK(worst < 2e-2);
      }
    }
  }
}

TEST_CASE("NextTokenModel matches torch 1.13 autograd and torch.optim.Adam", "[next-token]") {
  // tests/reference/next_token_torch.json, from scripts/gen-next-token-reference.py
  std::ifstream f(EMBEDLAB_SOURCE_DIR "/tests/reference/next_token_torch.json");
  REQUIRE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  const auto ref = nlohmann::json::parse(ss.str());
  for (const auto& c : ref["cases"]) {
    NextTokenConfig cfg;
    cfg.vocab_size = c["V"];
    cfg.dim = c["D"];
    cfg.context = c["T"];
    cfg.pos = c["pos"];
    if (c.contains("pos_params")) cfg.pos_params = c["pos_params"].get<PositionValues>();
    cfg.tie_head = c["tie"];
    cfg.scale_embeddings = c["scale"];
    cfg.seed = c["seed"];
    NextTokenModel m(cfg);
    const std::string pos = c["pos"];
    INFO("case pos " << pos);
    SECTION("the tables drawn from the seed are torch's (within Sleef's 2.4e-6) for pos " + pos) {
      for (ParamView p : m.params()) {
        const std::vector<float> want = c["init"][p.name];
        REQUIRE(want.size() == p.size);
        for (size_t i = 0; i < p.size; ++i) CHECK(p.data[i] == Approx(want[i]).margin(1e-5));
      }
    }
    SECTION("loss, gradients and one Adam step equal torch's for pos " + pos) {
      for (ParamView p : m.params()) {  // start from torch's exact tables
        const std::vector<float> want = c["init"][p.name];
        std::copy(want.begin(), want.end(), p.data);
      }
      const std::vector<int32_t> in = c["inputs"], tg = c["targets"];
      const int64_t B = c["B"];
      const double loss = m.forward_backward(in, tg, B);
      CHECK(loss == Approx(double(c["loss"])).epsilon(1e-5));
      for (ParamView p : m.params()) {
        const std::vector<float> want = c["grads"][p.name];
        INFO("gradient of " << p.name);
        for (size_t i = 0; i < p.size; ++i) CHECK(p.grad[i] == Approx(want[i]).margin(2e-6).epsilon(1e-4));
      }
      OptimizerSettings os;
      os.lr = c["lr"];
      Optimizer opt(os);
      opt.begin_step();
      size_t index = 0;
      for (ParamView p : m.params()) opt.update(p.data, p.grad, p.size, opt.state(index++, p.size));
      CHECK(m.loss(in, tg, B) == Approx(double(c["loss_after_adam_step"])).epsilon(1e-5));
    }
  }
}

TEST_CASE("NextTokenTrainer learns and is deterministic", "[next-token]") {
  NextTokenSettings s;
  s.model.vocab_size = 11;
  s.model.dim = 16;
  s.model.context = 8;
  s.model.pos = "learned";
  s.model.seed = 7;
  s.batch_size = 4;
  s.optimizer.lr = 0.01;
  const std::vector<int32_t> ids = cyclic(11, 400);

  SECTION("the loss falls with Adam, AdamW and SGD") {
    for (const char* opt : {"adam", "adamw", "sgd"}) {
      s.optimizer.kind = parse_optimizer_kind(opt);
      s.optimizer.lr = s.optimizer.kind == OptimizerKind::Sgd ? 0.5 : 0.01;
      s.optimizer.weight_decay = default_weight_decay(s.optimizer.kind);
      NextTokenTrainer tr(ids, s);
      const TrainStats first = tr.step(5);
      tr.step(150);
      const TrainStats last = tr.step(5);
      INFO(opt << " first " << first.loss << " last " << last.loss);
      CHECK(last.loss < 0.5 * first.loss);
      CHECK(last.total_steps == 160);
      CHECK(last.tokens == 5 * 4 * 8);
    }
  }

  SECTION("the same seed gives the same losses and tables, and reset replays the run") {
    NextTokenTrainer a(ids, s), b(ids, s);
    const TrainStats sa = a.step(20), sb = b.step(20);
    CHECK(sa.loss == sb.loss);
    CHECK(sa.last_loss == sb.last_loss);
    CHECK(same_bits(a.model().token_table(), b.model().token_table()));
    int64_t rows = 0, cols = 0;
    CHECK(same_bits(*a.model().position_table(&rows, &cols), *b.model().position_table(&rows, &cols)));
    a.reset();
    const TrainStats again = a.step(20);
    CHECK(again.loss == sa.loss);
    CHECK(same_bits(a.model().token_table(), b.model().token_table()));
  }

  SECTION("held-out loss is a forward pass over whole windows") {
    NextTokenTrainer tr(ids, s);
    const double before = tr.evaluate(cyclic(11, 100));
    tr.step(100);
    CHECK(tr.evaluate(cyclic(11, 100)) < before);
    CHECK(std::isfinite(before));
  }
}

TEST_CASE("NextTokenTrainer settings are validated with clear messages", "[next-token]") {
  NextTokenSettings s;
  s.model.vocab_size = 5;
  s.model.dim = 4;
  s.model.context = 4;
  const std::vector<int32_t> ids = cyclic(5, 50);

  SECTION("a dimension of 0 is refused") {
    s.model.dim = 0;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s), "next-token: dimension must be >= 1, got 0");
  }
  SECTION("a NaN learning rate is refused") {
    s.optimizer.lr = NAN;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s), "optimizer: learning rate must be finite and > 0, got nan");
  }
  SECTION("a vocabulary larger than memory is refused") {
    s.model.vocab_size = 2000000000;
    s.model.dim = 64;
    testing::WasmLimits wasm;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s),
                        "next-token: token table 2000000000 x 64 float32 need 476.8 GiB; the limit here is 2.0 GiB");
  }
  SECTION("rope needs an even dimension") {
    s.model.pos = "rope";
    s.model.dim = 5;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s), "next-token: rope positions need an even dimension, got 5");
  }
  SECTION("ids outside the vocabulary are refused") {
    std::vector<int32_t> bad = ids;
    bad[3] = 9;
    REQUIRE_THROWS_WITH(NextTokenTrainer(bad, s), "next-token: token id 9 out of range [0, 5)");
  }
  SECTION("a too short stream is refused") {
    REQUIRE_THROWS_WITH(NextTokenTrainer(std::vector<int32_t>{1, 2, 3}, s),
                        "next-token: 3 tokens make no window of context 4: need at least 5");
  }
  SECTION("a diverging run stops with the step and the learning rate") {
    s.optimizer.kind = OptimizerKind::Sgd;
    s.optimizer.lr = 1e30;
    NextTokenTrainer tr(ids, s);
    REQUIRE_THROWS_WITH(tr.step(10), "train: loss became nan at step 2 with learning rate 1e+30; lower the learning rate");
  }
  SECTION("unknown optimizer names are refused") {
    REQUIRE_THROWS_WITH(parse_optimizer_kind("lion"), "optimizer: unknown kind 'lion', expected sgd, adam or adamw");
  }
}

TEST_CASE("next-token plans every buffer of the model and the trainer at construction", "[next-token][memory]") {
  testing::WasmLimits wasm;
  NextTokenSettings s;
  s.model.vocab_size = 5;
  s.model.dim = 8;
  s.model.context = 4;
  const std::vector<int32_t> ids = cyclic(5, 5000);

  SECTION("the issue's attention scores are refused before anything is allocated") {
    s.model.context = 4096;
    s.batch_size = 256;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s),
                        "next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB");
    REQUIRE_THROWS_WITH(validate(s),
                        "next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("D x D weights are named (train --vector-size 30000)") {
    s.model.dim = 30000;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s),
                        "next-token: query weight 30000 x 30000 float32 need 3.4 GiB; the limit here is 2.0 GiB");
  }

  SECTION("buffers that fit alone but not together are refused by their sum") {
    // the attention scratch is planned per thread: one thread, so the sum is the same on every machine
    struct OneThread {
      int saved = threads();
      OneThread() { set_threads(1); }
      ~OneThread() { set_threads(saved); }
    } one_thread;
    s.model.dim = 16384;  // 1 GiB per D x D buffer: weights, gradients, Adam m and v, transposes;
                          // the head keeps 256 rows of logits and their (D, 256) transpose
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s),
                        "next-token: its buffers need 15.1 GiB together (largest: query weight 16384 x 16384 "
                        "float32, 1.0 GiB); the limit here is 4.0 GiB");
    s.optimizer.kind = OptimizerKind::Sgd;  // no moments: 9 GiB
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s),
                        "next-token: its buffers need 9.1 GiB together (largest: query weight 16384 x 16384 "
                        "float32, 1.0 GiB); the limit here is 4.0 GiB");
  }

  SECTION("a model run on a batch larger than planned plans its buffers first") {
    NextTokenConfig c = s.model;
    c.context = 4096;
    NextTokenModel m(c);
    const std::vector<int32_t> batch(static_cast<size_t>(256) * 4096, 1);
    REQUIRE_THROWS_WITH(m.forward_backward(batch, batch, 256),
                        "next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("a batch count whose B x T passes 64 bits is a size mismatch, not a wrap") {
    NextTokenModel m(s.model);
    REQUIRE_THROWS_WITH(m.loss({}, {}, int64_t{1} << 62),
                        "next-token: a batch of 4611686018427387904 x 4 needs more than 2^64 inputs and targets, got 0 and 0");
  }

  SECTION("a vocabulary beyond int32 ids is refused") {
    s.model.vocab_size = int64_t{1} << 31;
    s.model.dim = 1;
    REQUIRE_THROWS_WITH(NextTokenTrainer(ids, s), "next-token: vocabulary size must be <= 2147483647, got 2147483648");
  }

  SECTION("normal sizes still train") {
    NextTokenTrainer tr(ids, s);
    CHECK(std::isfinite(tr.step(2).loss));
  }
}

TEST_CASE("Length extrapolation: the trained model on longer windows", "[next-token][extrapolation]") {
  NextTokenSettings s;
  s.model.vocab_size = 11;
  s.model.dim = 8;
  s.model.context = 8;
  s.model.seed = 3;
  s.batch_size = 4;
  s.optimizer.lr = 0.01;
  const std::vector<int32_t> ids = cyclic(11, 300);

  SECTION("at T it is evaluate(), with the attention row of the last position") {
    s.model.pos = "rope";
    NextTokenTrainer tr(ids, s);
    tr.step(10);
    const auto e = tr.evaluate_at(ids, 8);
    CHECK(e.loss == tr.evaluate(ids));
    REQUIRE(e.attention.size() == 8);
    float sum = 0;
    for (float w : e.attention) sum += w;
    CHECK(sum == Approx(1.0).margin(1e-5));
  }
  SECTION("every kind that extrapolates runs at 2T and 4T; its parameters are the trained ones") {
    for (const PositionKind* k : position_kinds()) {
      if (!k->extrapolates) continue;
      s.model.pos = k->name;
      NextTokenTrainer tr(ids, s);
      tr.step(20);
      INFO("pos " << k->name);
      for (int64_t L : {16, 32}) {
        const auto e = tr.evaluate_at(ids, L, 5);
        CHECK(std::isfinite(e.loss));
        REQUIRE(e.attention.size() == static_cast<size_t>(L));
        for (int64_t j = 6; j < L; ++j) CHECK(e.attention[j] == 0.0f);  // causal: nothing after position 5
      }
      // a model of the same context with the trained parameters loaded gives the same loss
      NextTokenModel copy(tr.model().config());
      copy.load_parameters(tr.model());
      WindowOptions o;
      o.max_length = 8, o.stride = 8, o.batch_size = 4;
      const WindowBatch b = SlidingWindows(ids, o).batch(0);
      CHECK(copy.loss(b.inputs, b.targets, b.rows) == tr.model().loss(b.inputs, b.targets, b.rows));
    }
  }
  SECTION("learned positions have no rows beyond T, and say so") {
    s.model.pos = "learned";
    NextTokenTrainer tr(ids, s);
    REQUIRE_THROWS_WITH(tr.evaluate_at(ids, 16), "next-token evaluate: learned positions have no rows beyond T = 8 (asked for 16)");
    REQUIRE_THROWS_WITH(tr.evaluate_at(ids, 8, 8), "next-token evaluate: attention position 8 out of range [0, 8)");
    REQUIRE_THROWS_WITH(tr.evaluate_at(ids, 0), "next-token evaluate: length must be >= 1, got 0");
  }
}

TEST_CASE("next-token training gives the same bytes at 1, 2, 3 and 4 threads", "[next-token][threads]") {
  // shapes that use every parallel path: 576 rows of logits (two head groups and a partial one),
  // a (D, V) head gradient split by columns, attention over 48 sequences, bias gradients (t5,
  // alibi), rotations (rope) and the tied head
  NextTokenSettings s;
  s.model.vocab_size = 1500;
  s.model.dim = 24;
  s.model.context = 12;
  s.model.seed = 3;
  s.batch_size = 48;
  s.optimizer.lr = 0.01;
  const std::vector<int32_t> ids = cyclic(1500, 6000);
  struct Saved {
    int n = threads();
    ~Saved() { set_threads(n); }
  } saved;
  for (const char* pos : {"learned", "rope", "t5", "alibi"}) {
    for (bool tie : {false, true}) {
      s.model.pos = pos;
      s.model.tie_head = tie;
      std::vector<float> table;
      double loss = 0;
      for (int t : {1, 2, 3, 4}) {
        set_threads_oversubscribed(t);
        NextTokenTrainer tr(ids, s);
        const TrainStats st = tr.step(3);
        INFO(pos << (tie ? " tied" : "") << " threads " << t);
        if (t == 1) {
          table = tr.model().token_table();
          loss = st.loss;
          continue;
        }
        CHECK(std::memcmp(&st.loss, &loss, sizeof loss) == 0);
        CHECK(same_bits(tr.model().token_table(), table));
      }
    }
  }
}
