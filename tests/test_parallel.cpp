// The deterministic loops of src/core/parallel.hpp: every index once, reductions whose bits do
// not depend on the thread count (float sums, which are not associative, over 1..8 threads
// equal the serial blocked sum), errors that name the value and the range, the lowest failing
// block's exception at every thread count, nested loops, and the pool after a failure.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "core/parallel.hpp"

using namespace embedlab;

namespace {

// Restores the thread count a test changed.
struct KeepThreads {
  int saved = threads();
  ~KeepThreads() { set_threads(saved); }
};

// These tests run the pool at up to 8 real threads, above the cores of a small machine.
void run_threads(int n) { set_threads_oversubscribed(n); }

std::vector<float> noise(int64_t n) {
  std::vector<float> x(static_cast<size_t>(n));
  uint64_t s = 12345;
  for (auto& v : x) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<float>(static_cast<int64_t>(s >> 11) % 2000001 - 1000000) * 1e-3f * ((s >> 7) % 7 == 0 ? 1e4f : 1.f);
  }
  return x;
}

float blocked_sum(const std::vector<float>& x, int64_t block) {
  float acc = 0;
  for (int64_t b = 0; b < static_cast<int64_t>(x.size()); b += block) {
    float part = 0;
    for (int64_t i = b; i < std::min<int64_t>(b + block, x.size()); ++i) part += x[i];
    acc += part;
  }
  return acc;
}

}  // namespace

TEST_CASE("plan_blocks cuts [0, n) into fixed blocks and refuses bad sizes", "[parallel]") {
  const Blocks b = plan_blocks("test", 10, 4);
  CHECK(b.count() == 3);
  CHECK((b.begin(0) == 0 && b.end(0) == 4 && b.begin(2) == 8 && b.end(2) == 10));
  CHECK(plan_blocks("test", 0, 4).count() == 0);
  CHECK(plan_blocks("test", 8, 4).count() == 2);
  CHECK_THROWS_WITH(plan_blocks("test", 10, 0), Catch::Contains("test: block size must be >= 1, got 0"));
  CHECK_THROWS_WITH(plan_blocks("test", -1, 4), Catch::Contains("test: item count must be >= 0, got -1"));
}

TEST_CASE("set_threads takes [1, 64], names a value outside it and keeps the count; the cores cap it", "[parallel]") {
  KeepThreads keep;
  const int cores = max_threads();
  CHECK((cores >= 1 && cores <= kMaxThreads));
  CHECK(set_threads(1) == 1);
  CHECK_THROWS_WITH(set_threads(0), "set_threads: threads 0 out of range [1, 64]");
  CHECK_THROWS_WITH(set_threads(65, "setThreads"), "setThreads: threads 65 out of range [1, 64]");
  CHECK_THROWS_WITH(set_threads(-3), "set_threads: threads -3 out of range [1, 64]");
  CHECK(threads() == 1);
  // more than the cores: the cores (an oversubscribed pool only waits on descheduled workers)
  CHECK(set_threads(kMaxThreads) == cores);
  CHECK(threads() == cores);
  CHECK(set_threads(2) == std::min(2, cores));
  set_threads_oversubscribed(3);
  CHECK(threads() == 3);
  set_threads(3);
  CHECK(threads() == std::min(3, cores));
}

TEST_CASE("EMBEDLAB_THREADS: an integer in [1, 64], else an error naming the text", "[parallel]") {
  CHECK(default_threads(std::string("3")) == 3);
  CHECK(default_threads(std::string("64")) == 64);
  CHECK(default_threads(std::nullopt) == max_threads());
  for (const char* bad : {"0", "65", "abc", "", "3x", "-2"}) {
    CHECK_THROWS_WITH(default_threads(std::string(bad)), Catch::Contains(std::string("EMBEDLAB_THREADS: '") + bad + "' is not an integer in [1, 64]"));
  }
}

TEST_CASE("parallel_for runs every index exactly once at 1 to 8 threads", "[parallel]") {
  KeepThreads keep;
  for (int t : {1, 2, 3, 4, 8}) {
    run_threads(t);
    for (int64_t n : {0, 1, 7, 1000, 4097}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
      std::vector<int64_t> block_of(static_cast<size_t>(n), -1);
      parallel_for(n, 64, [&](int64_t b, int64_t e, int64_t k) {
        for (int64_t i = b; i < e; ++i) {
          hits[i].fetch_add(1);
          block_of[i] = k;
        }
      });
      for (int64_t i = 0; i < n; ++i) {
        REQUIRE(hits[i].load() == 1);
        REQUIRE(block_of[i] == i / 64);
      }
    }
  }
}

TEST_CASE("parallel_reduce of a float sum has the same bits at every thread count, the blocked serial sum's", "[parallel]") {
  KeepThreads keep;
  const std::vector<float> x = noise(100003);
  const float want = blocked_sum(x, 1000);
  float plain = 0;
  for (float v : x) plain += v;
  // the blocked order is an order of its own (else this test could not tell the two apart)
  CHECK(std::memcmp(&want, &plain, sizeof(float)) != 0);
  for (int t : {1, 2, 3, 4, 8}) {
    run_threads(t);
    for (int rep = 0; rep < 5; ++rep) {
      const float got = parallel_reduce(static_cast<int64_t>(x.size()), 1000, 0.0f,
                                        [&](int64_t b, int64_t e) { float s = 0; for (int64_t i = b; i < e; ++i) s += x[i]; return s; },
                                        [](float a, float p) { return a + p; });
      INFO("threads " << t << " rep " << rep);
      REQUIRE(std::memcmp(&got, &want, sizeof(float)) == 0);
    }
  }
}

TEST_CASE("a block that throws: the lowest failing block's error at every thread count, and the pool goes on", "[parallel]") {
  KeepThreads keep;
  for (int t : {1, 2, 4}) {
    run_threads(t);
    CHECK_THROWS_WITH(parallel_for(1000, 10, [](int64_t, int64_t, int64_t k) {
                        if (k == 17 || k == 60 || k == 99) throw Error("block " + std::to_string(k) + " failed");
                      }),
                      "block 17 failed");
    std::atomic<int64_t> total{0};
    parallel_for(1000, 10, [&](int64_t b, int64_t e, int64_t) { total += e - b; });
    CHECK(total.load() == 1000);
  }
}

TEST_CASE("a loop inside a block runs its blocks on that thread, in order", "[parallel]") {
  KeepThreads keep;
  run_threads(4);
  std::vector<std::vector<int64_t>> order(8);
  parallel_for(8, 1, [&](int64_t, int64_t, int64_t k) {
    parallel_for(5, 1, [&](int64_t b, int64_t, int64_t) { order[k].push_back(b); });
  });
  for (const auto& o : order) CHECK(o == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK_THROWS_WITH(parallel_for(2, 1, [](int64_t, int64_t, int64_t) { set_threads(2); }),
                    Catch::Contains("set_threads: called inside a parallel loop"));
}
