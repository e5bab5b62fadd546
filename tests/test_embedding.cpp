// Embedding: lookup, batches, padding_idx, max_norm, sqrt(D) scale, pretrained/freeze,
// sparse and dense backward, and the error messages.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>

#include "core/error.hpp"
#include "embed/embedding.hpp"
#include "embed/linear.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

TEST_CASE("Embedding looks up rows", "[embedding]") {
  Generator g(123);
  Embedding emb(4, 5, g);  // LLMs-from-scratch embedding-vs-matmul: manual_seed(123); Embedding(4, 5)

  SECTION("forward returns the rows of the ids in order") {
    // idx = [2, 3, 1] -> rows 2, 3, 1 of the table
    const std::vector<float> out = emb.forward(std::vector<int32_t>{2, 3, 1});
    REQUIRE(out.size() == 15);
    for (int k = 0; k < 5; ++k) {
      CHECK(out[k] == emb.weight()[2 * 5 + k]);
      CHECK(out[5 + k] == emb.weight()[3 * 5 + k]);
      CHECK(out[10 + k] == emb.weight()[1 * 5 + k]);
    }
    CHECK(emb.weight()[0] == Approx(0.3374).margin(5e-5));  // the notebook's first value
  }

  SECTION("a [B, T] batch is the flat lookup reshaped to (B, T, D)") {
    const std::vector<int32_t> batch{0, 1, 2, 3, 3, 2, 1, 0};  // B=2, T=4
    const auto out = emb.forward(batch);
    REQUIRE(out.size() == 2 * 4 * 5);
    CHECK(out[(1 * 4 + 3) * 5 + 4] == emb.weight()[0 * 5 + 4]);
  }

  SECTION("an id out of range, negative included, fails with the limit") {
    REQUIRE_THROWS_WITH(emb.forward(std::vector<int32_t>{1, 4}), "lookup: token id 4 out of range [0, 4)");
    REQUIRE_THROWS_WITH(emb.forward(std::vector<int32_t>{-1}), "lookup: token id -1 out of range [0, 4)");
    Generator g10(0);
    Embedding ten(10, 10, g10);
    REQUIRE_THROWS_WITH(ten.forward(std::vector<int32_t>{10}), "lookup: token id 10 out of range [0, 10)");
  }

  SECTION("an empty id list gives an empty output") { CHECK(emb.forward(std::vector<int32_t>{}).empty()); }

  SECTION("bad shapes and sizes fail with clear messages") {
    Generator g2(0);
    REQUIRE_THROWS_WITH(Embedding(0, 3, g2), "Embedding: num_embeddings must be >= 1, got 0");
    REQUIRE_THROWS_WITH(Embedding(3, -2, g2), "Embedding: embedding_dim must be >= 1, got -2");
    {
      testing::WasmLimits wasm;
      REQUIRE_THROWS_WITH(Embedding(1000000000, 1000, g2),
                          "Embedding: table 1000000000 x 1000 float32 need 3.6 TiB; the limit here is 2.0 GiB");
    }
    REQUIRE_THROWS_WITH(Embedding(4, 3, g2, EmbeddingOptions{.padding_idx = 4}),
                        "Embedding: padding_idx 4 out of range [-4, 4)");
  }
}

TEST_CASE("Embedding options behave like torch", "[embedding]") {
  SECTION("padding_idx zeroes its row at init and gets no gradient") {
    Generator g(1);
    Embedding emb(5, 3, g, EmbeddingOptions{.padding_idx = 0});
    for (int k = 0; k < 3; ++k) CHECK(emb.weight()[k] == 0.0f);
    const std::vector<int32_t> ids{0, 2, 0};
    const std::vector<float> dout(9, 1.0f);
    const SparseGrad sg = emb.backward_sparse(ids, dout);
    CHECK(sg.rows == std::vector<int32_t>{2});
    const auto dense = emb.backward_dense(ids, dout);
    for (int k = 0; k < 3; ++k) CHECK(dense[k] == 0.0f);
  }

  SECTION("a negative padding_idx counts from the end, and none is the default") {
    Generator g(1);
    Embedding none(5, 3, g);
    CHECK_FALSE(none.options().padding_idx.has_value());
    Embedding last(5, 3, g, EmbeddingOptions{.padding_idx = -1});  // torch: -1 is row V-1
    CHECK(last.options().padding_idx == 4);
    Embedding second_last(5, 3, g, EmbeddingOptions{.padding_idx = -2});
    CHECK(second_last.options().padding_idx == 3);
  }

  SECTION("scale multiplies by float(sqrt(D)) like the seed notebook's Embeddings module") {
    Generator g(0);
    Embedding emb(500, 20, g, EmbeddingOptions{.scale = true});
    const float s = static_cast<float>(std::sqrt(20.0));
    const auto out = emb.forward(std::vector<int32_t>{7});
    for (int k = 0; k < 20; ++k) CHECK(out[k] == emb.weight()[7 * 20 + k] * s);
  }

  SECTION("max_norm renormalises the looked-up rows in place, as embedding_renorm_") {
    Generator g(3);
    Embedding emb(4, 8, g, EmbeddingOptions{.max_norm = 1.0f});
    const std::vector<float> before = emb.weight();
    const auto out = emb.forward(std::vector<int32_t>{1, 1});
    double n1 = 0;
    for (int k = 0; k < 8; ++k) n1 += double(out[k]) * out[k];
    CHECK(std::sqrt(n1) == Approx(1.0).epsilon(1e-5));
    for (int k = 0; k < 8; ++k) CHECK(emb.weight()[8 + k] == out[k]);  // mutated
    for (int k = 0; k < 8; ++k) CHECK(emb.weight()[k] == before[k]);   // row 0 untouched
  }

  SECTION("from_pretrained keeps the weights and freezing refuses gradients") {
    std::vector<float> w{1, 2, 3, 4, 5, 6};
    Embedding emb = Embedding::from_pretrained(w, 3, 2);
    CHECK(emb.forward(std::vector<int32_t>{2}) == std::vector<float>{5, 6});
    REQUIRE_THROWS_WITH(emb.backward_sparse(std::vector<int32_t>{0}, std::vector<float>{1, 1}),
                        "backward: the table is frozen (from_pretrained with freeze); it has no gradient");
    REQUIRE_THROWS_WITH(Embedding::from_pretrained(w, 4, 2),
                        "Embedding.from_pretrained: weights have 6 values, expected 4 x 2 = 8");
    Embedding open = Embedding::from_pretrained(w, 3, 2, {}, false);
    CHECK_NOTHROW(open.backward_sparse(std::vector<int32_t>{0}, std::vector<float>{1, 1}));
  }
}

TEST_CASE("Embedding backward sums repeated ids", "[embedding]") {
  Generator g(0);
  Embedding emb(6, 4, g, EmbeddingOptions{.scale = true});
  const std::vector<int32_t> ids{3, 1, 3, 5};
  std::vector<float> dout(16);
  for (size_t i = 0; i < dout.size(); ++i) dout[i] = 0.25f * float(i) - 1.0f;
  const float s = emb.scale_factor();

  SECTION("sparse gradients list each row once, ascending, with summed values") {
    const SparseGrad sg = emb.backward_sparse(ids, dout);
    CHECK(sg.rows == std::vector<int32_t>{1, 3, 5});
    for (int k = 0; k < 4; ++k) {
      CHECK(sg.values[0 * 4 + k] == dout[4 + k] * s);
      CHECK(sg.values[1 * 4 + k] == (0.0f + dout[k] * s) + dout[8 + k] * s);
      CHECK(sg.values[2 * 4 + k] == dout[12 + k] * s);
    }
  }

  SECTION("the dense gradient equals the sparse one scattered into (V, D)") {
    const SparseGrad sg = emb.backward_sparse(ids, dout);
    const auto dense = emb.backward_dense(ids, dout);
    REQUIRE(dense.size() == 24);
    for (size_t r = 0; r < sg.rows.size(); ++r)
      for (int k = 0; k < 4; ++k) CHECK(dense[sg.rows[r] * 4 + k] == sg.values[r * 4 + k]);
    CHECK(dense[0] == 0.0f);
  }

  SECTION("the gradient matches finite differences of sum(out * dout)") {
    auto loss = [&](Embedding& e) {
      const auto out = e.forward(ids);
      double L = 0;
      for (size_t i = 0; i < out.size(); ++i) L += double(out[i]) * dout[i];
      return L;
    };
    const auto dense = emb.backward_dense(ids, dout);
    const float h = 1e-2f;
    for (int idx : {4 * 3 + 1, 4 * 1 + 0, 4 * 5 + 3}) {
      Embedding plus = emb, minus = emb;
      plus.weight_mut()[idx] += h;
      minus.weight_mut()[idx] -= h;
      CHECK((loss(plus) - loss(minus)) / (2 * h) == Approx(dense[idx]).epsilon(1e-3));
    }
  }

  SECTION("dout of the wrong shape fails") {
    REQUIRE_THROWS_WITH(emb.backward_sparse(ids, std::vector<float>(15)),
                        "backward: dout has 15 values, expected 4 x 4");
  }
}

TEST_CASE("Lookup equals one-hot times W", "[embedding][linear]") {
  Generator g(123);
  Embedding emb(4, 5, g);
  const std::vector<int32_t> ids{2, 3, 1};
  const Linear lin = Linear::from_embedding(emb);
  const auto x = one_hot(ids, 4);

  SECTION("forward outputs are bit-identical") {
    CHECK(lin.forward(x, 3) == emb.forward(ids));
  }

  SECTION("weight gradients are bit-identical (transposed)") {
    std::vector<float> dout(15);
    for (size_t i = 0; i < dout.size(); ++i) dout[i] = std::sin(float(i));
    const auto dW_lookup = emb.backward_dense(ids, dout);          // (V, D)
    const auto dW_linear = lin.backward_weight(x, dout, 3);        // (D, V)
    for (int v = 0; v < 4; ++v)
      for (int d = 0; d < 5; ++d) CHECK(dW_linear[d * 4 + v] == dW_lookup[v * 5 + d]);
  }

  SECTION("one_hot rejects ids outside the vocabulary") {
    REQUIRE_THROWS_WITH(one_hot(std::vector<int32_t>{4}, 4), "one_hot: token id 4 out of range [0, 4)");
  }

  SECTION("Linear.forward agrees with Eigen's matrix product") {
    Generator g2(9);
    Linear l(7, 3, g2);
    std::vector<float> xin(2 * 7);
    for (size_t i = 0; i < xin.size(); ++i) xin[i] = 0.1f * float(i) - 0.4f;
    const auto y = l.forward(xin, 2);
    using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::Map<const RowMajor> X(xin.data(), 2, 7), W(l.weight().data(), 3, 7);
    const RowMajor want = X * W.transpose();
    for (int i = 0; i < 2; ++i)
      for (int o = 0; o < 3; ++o) CHECK(y[i * 3 + o] == Approx(want(i, o)).margin(1e-6));
  }
}

TEST_CASE("Embedding options match torch 1.13", "[embedding][reference]") {
  // tests/reference/embedding_options_torch.json (scripts/gen-embedding-options-reference.py).
  // Tolerance: 1e-5 on outputs and renormalised rows (the renorm factor's norm is summed in a
  // different order than torch's), 1e-5 on gradients (sums of a few dout rows times sqrt(D)).
  const auto ref = embedlab::testing::load_reference("embedding_options_torch.json");
  for (const auto& c : ref["cases"]) {
    const int64_t V = c["num_embeddings"], D = c["embedding_dim"];
    EmbeddingOptions o;
    if (!c["max_norm"].is_null()) o.max_norm = c["max_norm"].get<float>();
    if (!c["padding_idx"].is_null()) o.padding_idx = c["padding_idx"].get<int64_t>();
    o.scale = c["scale"].get<bool>();
    Generator g(c["seed"].get<uint64_t>());
    Embedding emb(V, D, g, o);
    const std::vector<int32_t> ids = c["ids"].get<std::vector<int32_t>>();
    INFO("seed " << c["seed"] << " " << V << "x" << D);

    {  // the lookup, the renormalised table and the weight gradient agree, for every case
      const auto out = emb.forward(ids);
      const auto want_out = c["output"].get<std::vector<double>>();
      CHECK(embedlab::testing::max_abs_diff(want_out, out.data(), out.size()) < 1e-5);
      const auto want_w = c["weight_after"].get<std::vector<double>>();
      CHECK(embedlab::testing::max_abs_diff(want_w, emb.weight().data(), emb.weight().size()) < 1e-5);
      std::vector<float> dout(out.size());
      for (size_t i = 0; i < dout.size(); ++i) dout[i] = static_cast<float>(i) / 10.0f - 1.0f;
      const auto grad = emb.backward_dense(ids, dout);
      const auto want_g = c["grad"].get<std::vector<double>>();
      CHECK(embedlab::testing::max_abs_diff(want_g, grad.data(), grad.size()) < 1e-5);
    }
  }
}

TEST_CASE("Embedding and Linear plan their buffers in 64 bits", "[embedding][linear][memory]") {
  testing::WasmLimits wasm;

  SECTION("a lookup output past the limit is refused, not wrapped to 0 in a 32-bit size_t") {
    // the Embedding(1, 2^26) with 64 ids, scaled down to a 16 MiB table: 1024 ids x 2^22
    // floats are the same 2^32 floats, which a 32-bit size_t (wasm) wraps to 0
    Generator g(0);
    Embedding wide(1, 1 << 22, g);
    const std::vector<int32_t> ids(1024, 0);
    REQUIRE_THROWS_WITH(wide.forward(ids),
                        "lookup: output 1024 x 4194304 float32 need 16.0 GiB; the limit here is 2.0 GiB");
  }

  Generator g(123);
  Embedding emb(4, 5, g);

  SECTION("the checked forward_with_positions equals the raw one and checks the table size") {
    const std::vector<int32_t> ids{2, 3, 1, 0};
    std::vector<float> pos(2 * 5);
    for (size_t k = 0; k < pos.size(); ++k) pos[k] = 0.25f * static_cast<float>(k);
    std::vector<float> raw(ids.size() * 5);
    emb.forward_with_positions(ids, pos.data(), 2, raw.data());
    CHECK(emb.forward_with_positions(ids, pos, 2) == raw);
    REQUIRE_THROWS_WITH(emb.forward_with_positions(ids, pos, 3), "lookup: positions have 10 values, expected 3 x 5");
    // 2^32 + 2 rows of 5: a 32-bit product would be 10, the size of pos
    REQUIRE_THROWS_WITH(emb.forward_with_positions(ids, pos, (int64_t{1} << 32) + 2),
                        "lookup: positions have 10 values, expected 4294967298 x 5");
    REQUIRE_THROWS_WITH(emb.forward_with_positions(ids, pos, 0), "lookup: position rows must be >= 1, got 0");
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(emb.forward_with_positions(std::vector<int32_t>(65536, 1), pos, 2),
                        "lookup: output 65536 x 5 float32 need 1.2 MiB; the limit here is 1.0 MiB");
  }

  SECTION("backward checks dout against n x D in 64 bits and plans the dense gradient") {
    REQUIRE_THROWS_WITH(emb.backward_sparse(std::vector<int32_t>{1}, std::vector<float>(4)),
                        "backward: dout has 4 values, expected 1 x 5");
    Generator g2(0);
    Embedding big(65536, 4, g2);  // 1 MiB: the dense gradient is one more table of that size
    testing::WasmLimits tiny(1 << 19, 1 << 19);
    REQUIRE_THROWS_WITH(big.backward_dense(std::vector<int32_t>{1}, std::vector<float>(4)),
                        "backward: dense gradient 65536 x 4 float32 need 1.0 MiB; the limit here is 512.0 KiB");
    CHECK(big.backward_sparse(std::vector<int32_t>{1}, std::vector<float>(4)).values.size() == 4);
  }

  SECTION("Linear.forward validates n before it sizes anything (the issue's 2^31)") {
    Generator g2(0);
    Linear lin(2, 2, g2);
    REQUIRE_THROWS_WITH(lin.forward(std::vector<float>{}, int64_t{1} << 31),
                        "Linear.forward: x has 0 values, expected 2147483648 x 2");
    REQUIRE_THROWS_WITH(lin.forward(std::vector<float>{}, -1), "Linear.forward: n must be >= 0, got -1");
    // 2^63 rows of 2 overflow 64 bits: refused as a mismatch, never wrapped
    REQUIRE_THROWS_WITH(lin.forward(std::vector<float>{}, INT64_MAX),
                        "Linear.forward: x has 0 values, expected 9223372036854775807 x 2");
    CHECK(lin.forward(std::vector<float>{}, 0).empty());
  }

  SECTION("matmul and one_hot plan their outputs") {
    REQUIRE_THROWS_WITH(matmul(std::vector<float>{}, std::vector<float>{}, 1 << 20, 0, 1 << 20),
                        "matmul: output 1048576 x 1048576 float32 need 4.0 TiB; the limit here is 2.0 GiB");
    REQUIRE_THROWS_WITH(one_hot(std::vector<int32_t>(1024, 0), 1 << 20),
                        "one_hot: one-hot matrix 1024 x 1048576 float32 need 4.0 GiB; the limit here is 2.0 GiB");
  }
}
