// core/threads_api: the thread count's state (the count only; the pool of issue 25 replaces the
// implementation and keeps these behaviours). Natively the maximum is the logical cores.
#include <catch2/catch.hpp>
#include <thread>

#include "core/threads_api.hpp"

using namespace embedlab;

TEST_CASE("set_threads validates, clamps to the cores and threads() reports the count in use", "[threads]") {
  const int cores = std::max(1, std::min(kThreadsLimit, static_cast<int>(std::thread::hardware_concurrency())));
  const int before = threads();

  SECTION("the maximum is the logical cores, at most 64") { CHECK(threads_max() == cores); }

  SECTION("one thread is always possible and is what threads() then says") {
    CHECK(set_threads(1) == 1);
    CHECK(threads() == 1);
  }

  SECTION("asking for more than the cores gives the cores") {
    CHECK(set_threads(kThreadsLimit) == cores);
    CHECK(threads() == cores);
  }

  SECTION("a count outside [1, 64] is an error naming it, and the count in use stays") {
    set_threads(1);
    REQUIRE_THROWS_WITH(set_threads(0), "setThreads: threads 0 out of range [1, 64]");
    REQUIRE_THROWS_WITH(set_threads(65), "setThreads: threads 65 out of range [1, 64]");
    REQUIRE_THROWS_WITH(set_threads(-3), "setThreads: threads -3 out of range [1, 64]");
    CHECK(threads() == 1);
  }
  set_threads(before);
}
