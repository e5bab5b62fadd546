// Sliding-window datasets (LLMs-from-scratch create_dataloader_v1) and skip-gram pairs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/error.hpp"
#include "data/windows.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

nlohmann::json reference() { return testing::load_reference("gpt2_the_verdict.json"); }

std::vector<int32_t> flat(const nlohmann::json& rows) {
  std::vector<int32_t> out;
  for (const auto& r : rows)
    for (const auto& v : r) out.push_back(v.get<int32_t>());
  return out;
}

}  // namespace

TEST_CASE("SlidingWindows reproduces create_dataloader_v1 on the-verdict", "[windows]") {
  const auto ref = reference();
  const auto& sw = ref["sliding_window"];
  const auto ids = ref["ids"].get<std::vector<int32_t>>();
  WindowOptions o;
  o.max_length = 4, o.stride = 4, o.batch_size = 4, o.drop_last = true;
  SlidingWindows ds(ids, o);

  SECTION("sample, batch and token counts match the reference") {
    CHECK(ds.num_samples() == sw["n_samples"].get<int64_t>());
    CHECK(ds.num_samples() == 1286);
    CHECK(ds.num_batches() == 321);
    int64_t tokens = 0;
    for (int64_t b = 0; b < ds.num_batches(); ++b) tokens += static_cast<int64_t>(ds.batch(b).inputs.size());
    CHECK(tokens == 5136);
  }
  SECTION("token 40 occurs 29 times, first at flat positions 0, 379, 736, 882, 895") {
    std::vector<int64_t> where;
    int64_t flat_pos = 0;
    for (int64_t b = 0; b < ds.num_batches(); ++b)
      for (int32_t id : ds.batch(b).inputs) {
        if (id == 40) where.push_back(flat_pos);
        ++flat_pos;
      }
    CHECK(where.size() == 29);
    REQUIRE(where.size() >= 5);
    CHECK(std::vector<int64_t>(where.begin(), where.begin() + 5) ==
          sw["token40_first5_flat_positions"].get<std::vector<int64_t>>());
  }
  SECTION("the first and last full batches are the reference's, targets shifted by one") {
    const WindowBatch first = ds.batch(0), last = ds.batch(320);
    CHECK(first.rows == 4);
    CHECK(first.inputs == flat(sw["first_batch_inputs"]));
    CHECK(first.targets == flat(sw["first_batch_targets"]));
    CHECK(last.inputs == flat(sw["last_full_batch_inputs"]));
    CHECK(last.targets == flat(sw["last_full_batch_targets"]));
  }
  SECTION("without drop_last the two dropped samples form a last batch of 2 rows") {
    o.drop_last = false;
    SlidingWindows all(ids, o);
    REQUIRE(all.num_batches() == 322);
    const WindowBatch tail = all.batch(321);
    CHECK(tail.rows == 2);
    CHECK(tail.inputs == flat(sw["dropped_samples"]));
  }
}

TEST_CASE("SlidingWindows counts and shuffling", "[windows]") {
  SECTION("window_count equals len(range(0, n - L, stride)) for many (n, L, stride)") {
    for (int64_t n = 0; n <= 40; ++n)
      for (int64_t L = 1; L <= 12; ++L)
        for (int64_t s = 1; s <= 12; ++s) {
          int64_t expected = 0;
          for (int64_t i = 0; i < n - L; i += s) ++expected;  // the Python loop, literally
          INFO("n=" << n << " L=" << L << " stride=" << s);
          REQUIRE(window_count(n, L, s) == expected);
        }
  }
  SECTION("every sample's target is its input shifted by one, for overlapping strides") {
    std::vector<int32_t> ids(50);
    std::iota(ids.begin(), ids.end(), 100);
    WindowOptions o;
    o.max_length = 7, o.stride = 3, o.batch_size = 5, o.drop_last = false;
    SlidingWindows ds(ids, o);
    CHECK(ds.num_samples() == window_count(50, 7, 3));
    for (int64_t b = 0; b < ds.num_batches(); ++b) {
      const WindowBatch wb = ds.batch(b);
      for (int64_t r = 0; r < wb.rows; ++r)
        for (int64_t t = 0; t < 7; ++t) {
          REQUIRE(wb.inputs[r * 7 + t] == 100 + wb.starts[r] + t);
          REQUIRE(wb.targets[r * 7 + t] == 101 + wb.starts[r] + t);
        }
    }
  }
  SECTION("a shuffled dataset is a seeded permutation of the same samples") {
    std::vector<int32_t> ids(200);
    std::iota(ids.begin(), ids.end(), 0);
    WindowOptions o;
    o.max_length = 4, o.stride = 2, o.batch_size = 8, o.shuffle = true, o.seed = 123;
    SlidingWindows a(ids, o), b(ids, o);
    o.shuffle = false;
    SlidingWindows plain(ids, o);
    CHECK(a.sample_starts() == b.sample_starts());
    CHECK(a.sample_starts() != plain.sample_starts());
    auto sorted = a.sample_starts();
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == plain.sample_starts());
    o.shuffle = true, o.seed = 124;
    CHECK(SlidingWindows(ids, o).sample_starts() != a.sample_starts());
  }
}

TEST_CASE("SlidingWindows rejects bad settings with clear messages", "[windows]") {
  const std::vector<int32_t> ids = {1, 2, 3, 4};
  WindowOptions o;
  o.max_length = 4, o.stride = 1, o.batch_size = 1;
  SECTION("a stream shorter than one window says how long it must be") {
    REQUIRE_THROWS_WITH(SlidingWindows(ids, o),
                        "windows: 4 tokens make no window of max_length 4: need at least 5 tokens "
                        "(max_length + 1, for the shifted target)");
    REQUIRE_THROWS_WITH(SlidingWindows(std::vector<int32_t>{}, o),
                        "windows: 0 tokens make no window of max_length 4: need at least 5 tokens "
                        "(max_length + 1, for the shifted target)");
  }
  SECTION("max_length, stride and batch_size must be positive") {
    o.max_length = 2;
    o.stride = 0;
    REQUIRE_THROWS_WITH(SlidingWindows(ids, o), "windows: stride must be >= 1, got 0");
    o.stride = 1, o.max_length = -3;
    REQUIRE_THROWS_WITH(SlidingWindows(ids, o), "windows: max_length must be >= 1, got -3");
    o.max_length = 2, o.batch_size = 0;
    REQUIRE_THROWS_WITH(SlidingWindows(ids, o), "windows: batch_size must be >= 1, got 0");
  }
  SECTION("a batch index past the end is refused") {
    o.max_length = 2;
    SlidingWindows ds(ids, o);
    REQUIRE(ds.num_batches() == 2);
    REQUIRE_THROWS_WITH(ds.batch(2), "windows batch: batch index 2 out of range [0, 2)");
  }
}

TEST_CASE("skipgram_pairs lists (center, context) pairs within the window", "[windows][skipgram]") {
  SECTION("a window of 1 over three ids gives the four neighbour pairs") {
    const std::vector<int32_t> ids = {5, 6, 7};
    const auto p = skipgram_pairs(ids, 1);
    const std::vector<std::pair<int32_t, int32_t>> expected = {{5, 6}, {6, 5}, {6, 7}, {7, 6}};
    CHECK(p == expected);
  }
  SECTION("the pair count is sum over centers of the in-range neighbours") {
    std::vector<int32_t> ids(23);
    std::iota(ids.begin(), ids.end(), 0);
    for (int64_t w = 1; w <= 30; ++w) {
      int64_t expected = 0;
      for (int64_t i = 0; i < 23; ++i) expected += std::min<int64_t>(22, i + w) - std::max<int64_t>(0, i - w);
      REQUIRE(static_cast<int64_t>(skipgram_pairs(ids, w).size()) == expected);
    }
  }
  SECTION("an empty stream gives no pairs and a window below 1 is refused") {
    CHECK(skipgram_pairs(std::vector<int32_t>{}, 3).empty());
    REQUIRE_THROWS_WITH(skipgram_pairs(std::vector<int32_t>{1, 2}, 0), "skipgram_pairs: window must be >= 1, got 0");
  }
}

TEST_CASE("Sliding windows plan their buffers and never overflow", "[windows][memory]") {
  testing::WasmLimits wasm;

  SECTION("a huge stride or batch size does not overflow the counts") {
    CHECK(window_count(10, 2, INT64_MAX) == 1);
    std::vector<int32_t> ids(10, 1);
    WindowOptions o;
    o.max_length = 2;
    o.stride = INT64_MAX;
    o.batch_size = INT64_MAX;
    o.drop_last = false;
    SlidingWindows ds(ids, o);
    CHECK(ds.num_batches() == 1);
    CHECK(ds.batch(0).rows == 1);
  }

  SECTION("max_length + 1 is not formed in int64 for the message") {
    WindowOptions o;
    o.max_length = INT64_MAX;
    REQUIRE_THROWS_WITH(SlidingWindows(std::vector<int32_t>(5, 0), o),
                        "windows: 5 tokens make no window of max_length 9223372036854775807: need at least "
                        "9223372036854775808 tokens (max_length + 1, for the shifted target)");
  }

  SECTION("a batch is planned before it is cut") {
    std::vector<int32_t> ids(70000, 3);
    WindowOptions o;
    o.max_length = 60000;
    o.stride = 1;
    o.batch_size = 10000;
    SlidingWindows ds(ids, o);
    REQUIRE(ds.num_batches() == 1);
    REQUIRE_THROWS_WITH(ds.batch(0), "windows batch: inputs 10000 x 60000 int32 need 2.2 GiB; the limit here is 2.0 GiB");
  }

  SECTION("skip-gram pairs are planned, and reserved exactly") {
    {
      testing::WasmLimits tiny(1 << 20, 1 << 20);
      REQUIRE_THROWS_WITH(skipgram_pairs(std::vector<int32_t>(1000, 1), 1000),
                          "skipgram_pairs: (center, context) pairs 1000 x 1998 x 2 int32 need 15.2 MiB; "
                          "the limit here is 1.0 MiB");
    }
    // 2wn - w(w+1) pairs: n = 10, w = 3 -> 60 - 12 = 48
    CHECK(skipgram_pairs(std::vector<int32_t>(10, 1), 3).size() == 48);
  }
}

TEST_CASE("SlidingWindows cuts any run of samples and counts the input tokens", "[windows]") {
  // ids 0..19, L = 4, stride 3: starts 0, 3, 6, 9, 12, 15 (len(range(0, 16, 3)) = 6)
  std::vector<int32_t> ids(20);
  std::iota(ids.begin(), ids.end(), 0);
  WindowOptions o;
  o.max_length = 4;
  o.stride = 3;
  o.batch_size = 4;

  SECTION("input tokens count the samples in batches only: drop_last leaves the short batch out") {
    const SlidingWindows kept(ids, o);
    CHECK(kept.num_samples() == 6);
    CHECK(kept.batched_samples() == 4);
    CHECK(kept.input_tokens() == 16);
    o.drop_last = false;
    const SlidingWindows all(ids, o);
    CHECK(all.batched_samples() == 6);
    CHECK(all.input_tokens() == 24);
  }

  SECTION("samples cut windows to their first max_ids ids, targets shifted by one") {
    const SlidingWindows ds(ids, o);
    const WindowBatch w = ds.samples(1, 2, 2);
    CHECK(w.rows == 2);
    CHECK(w.max_length == 2);
    CHECK(w.starts == std::vector<int64_t>{3, 6});
    CHECK(w.inputs == std::vector<int32_t>{3, 4, 6, 7});
    CHECK(w.targets == std::vector<int32_t>{4, 5, 7, 8});
  }

  SECTION("samples stop at the last sample, dropped ones included; a batch is a run of samples") {
    const SlidingWindows ds(ids, o);
    const WindowBatch last = ds.samples(5, 10, 100);
    CHECK(last.rows == 1);
    CHECK(last.max_length == 4);
    CHECK(last.inputs == std::vector<int32_t>{15, 16, 17, 18});
    CHECK(last.targets == std::vector<int32_t>{16, 17, 18, 19});
    CHECK(ds.samples(6, 3, 4).rows == 0);
    const WindowBatch b = ds.batch(0), s = ds.samples(0, 4, 4);
    CHECK(b.starts == s.starts);
    CHECK(b.inputs == s.inputs);
    CHECK(b.targets == s.targets);
  }

  SECTION("the worked example: sample 1 of the-verdict, its first two ids") {
    const nlohmann::json ref = reference();
    WindowOptions v;
    v.max_length = 4;
    v.stride = 4;
    v.batch_size = 4;
    const SlidingWindows ds(ref["ids"].get<std::vector<int32_t>>(), v);
    CHECK(ds.input_tokens() == 5136);
    const WindowBatch w = ds.samples(1, 1, 2);
    CHECK(w.starts == std::vector<int64_t>{4});
    CHECK(w.inputs == std::vector<int32_t>{1807, 3619});
    CHECK(w.targets == std::vector<int32_t>{3619, 402});
  }

  SECTION("bad ranges are refused with their limits") {
    const SlidingWindows ds(ids, o);
    REQUIRE_THROWS_WITH(ds.samples(7, 1, 4), "windows samples: first sample 7 out of range [0, 7)");
    REQUIRE_THROWS_WITH(ds.samples(-1, 1, 4), "windows samples: first sample -1 out of range [0, 7)");
    REQUIRE_THROWS_WITH(ds.samples(0, -1, 4), "windows samples: count must be >= 0, got -1");
    REQUIRE_THROWS_WITH(ds.samples(0, 1, 0), "windows samples: max_ids must be >= 1, got 0");
    REQUIRE_THROWS_WITH(ds.batch(1), "windows batch: batch index 1 out of range [0, 1)");
  }
}
