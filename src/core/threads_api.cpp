// The thread count's state (see threads_api.hpp): one atomic int, validated and clamped here.
// It does not start threads; the build decides the maximum (__EMSCRIPTEN__ without
// __EMSCRIPTEN_PTHREADS__ is the single-thread wasm, where the maximum is 1).
#include "core/threads_api.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "core/error.hpp"

namespace embedlab {
namespace {

int logical_cores() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#else
  return static_cast<int>(std::thread::hardware_concurrency());  // 0 when unknown
#endif
}

std::atomic<int> requested{0};  // 0: never set, use threads_max()

}  // namespace

int threads_max() { return std::clamp(logical_cores(), 1, kThreadsLimit); }

int threads() {
  const int n = requested.load();
  return n == 0 ? threads_max() : std::min(n, threads_max());
}

int set_threads(int n) {
  if (n < 1 || n > kThreadsLimit) {
    fail("setThreads", "threads " + std::to_string(n) + " out of range [1, " + std::to_string(kThreadsLimit) + "]");
  }
  requested.store(std::min(n, threads_max()));
  return threads();
}

}  // namespace embedlab
