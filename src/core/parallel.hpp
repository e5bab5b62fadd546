// Deterministic parallel loops (issue 25, "Every core, the same bits"): one thread pool for the
// whole engine, and loops whose results do not depend on how many threads run them.
//
// The recipe (as Box2D's determinism test requires of its solver): work is cut into fixed
// blocks whose number and bounds depend only on the problem size and the block size the caller
// chooses, never on the thread count; each block writes only its own outputs; a reduction keeps
// one partial per block and combines the partials in block order on the calling thread. So 1, 2,
// 3 or 8 threads compute the same bytes, and the single-thread path runs the same blocks in order
// and gives the same bytes too. What a caller must not do: let a block's result depend on which
// thread ran it or on another block's progress (no shared accumulators, no hogwild updates).
//
// Not here: the choice of blocks for each algorithm (its own file), the CLI's --threads flag and
// the bindings' M.threads() / M.setThreads() (entry points, which call set_threads).
//
// Builds: natively the pool uses std::thread; the wasm build with -pthread (Emscripten's
// __EMSCRIPTEN_PTHREADS__) the same; the single-thread wasm build runs every loop on the calling
// thread, and threads() is 1 there whatever set_threads() asked for.
//
//   set_threads(4);                                  // [1, kMaxThreads], else Error; 2 on 2 cores
//   parallel_for(n, 1024, [&](int64_t begin, int64_t end, int64_t block) { ... });
//   double s = parallel_reduce(n, 4096, 0.0,
//       [&](int64_t b, int64_t e) { double t = 0; for (auto i = b; i < e; ++i) t += x[i]; return t; },
//       [](double a, double p) { return a + p; });   // ((0 + p0) + p1) + ... in block order
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/memory.hpp"

namespace embedlab {

inline constexpr int kMaxThreads = 64;

// The cores this process may run on, in [1, kMaxThreads]: natively the CPUs of its affinity mask
// (taskset, a container's cpuset), else std::thread::hardware_concurrency; in the threaded wasm
// the logical cores its pthread pool was made for (one worker per core but the calling thread's);
// 1 in the single-thread wasm build.
int max_threads();

// The threads a parallel loop uses now: min(the count asked for, max_threads()), >= 1. Asking
// for more threads than cores never adds a thread: an oversubscribed pool only waits on
// descheduled workers at every join (measured: next-token steps at 4 threads on 2 cores were
// slower than at 1), and the bytes are the same at any count anyway.
int threads();

// Asks for n threads for the loops that start from now on and returns threads(). n outside
// [1, kMaxThreads] fails, naming `where`: "set_threads: threads 0 out of range [1, 64]", and
// the count in use stays. Must not be called from inside a parallel loop.
int set_threads(int n, const char* where = "set_threads");

// Tests only: runs exactly n threads (n in [1, kMaxThreads]) even above the cores, so that the
// pool's determinism is exercised with more threads than a small machine has. Natively only.
void set_threads_oversubscribed(int n);

// The count a process starts with: EMBEDLAB_THREADS when it is set (text: its value, which must
// be an integer in [1, kMaxThreads], else "EMBEDLAB_THREADS: 'abc' is not an integer in [1, 64]"),
// else max_threads().
int default_threads(const std::optional<std::string>& text);

// [0, n) cut into blocks of `block` items (the last one shorter): count() blocks, block k is
// [k * block, min(n, (k + 1) * block)). n >= 0 and block >= 1, else Error naming where.
struct Blocks {
  int64_t n = 0;
  int64_t block = 1;
  int64_t count() const { return n == 0 ? 0 : (n - 1) / block + 1; }
  int64_t begin(int64_t k) const { return k * block; }
  int64_t end(int64_t k) const { return k + 1 == count() ? n : (k + 1) * block; }
};
Blocks plan_blocks(const char* where, int64_t n, int64_t block);

// body(begin, end, k) for every block k of [0, n); blocks run on up to threads() threads (the
// calling thread is one of them) in any order, and the call returns when all have run. A body
// that throws: the exception of the lowest block that threw is rethrown here, the same whatever
// the thread count (with several threads every block still runs; on one thread the loop stops at
// the first throw, so the outputs of a loop that failed are unspecified); the pool stays usable.
// A parallel_for inside a body runs its blocks on the calling thread, in order.
void parallel_for(int64_t n, int64_t block, const std::function<void(int64_t, int64_t, int64_t)>& body);

// One partial per block (map(begin, end) -> T), combined in block order on the calling thread:
// combine(...combine(combine(identity, p0), p1)..., p_last). The partials are planned through
// core/memory.hpp's planner as `what` before they are allocated.
template <class T, class Map, class Combine>
T parallel_reduce(int64_t n, int64_t block, T identity, Map map, Combine combine) {
  const Blocks blocks = plan_blocks("parallel_reduce", n, block);
  plan("parallel_reduce", "block partials", {blocks.count(), static_cast<int64_t>(sizeof(T))}, kBytes);
  std::vector<T> partials(static_cast<size_t>(blocks.count()), identity);
  parallel_for(n, block, [&](int64_t b, int64_t e, int64_t k) { partials[static_cast<size_t>(k)] = map(b, e); });
  T acc = identity;
  for (const T& p : partials) acc = combine(acc, p);
  return acc;
}

}  // namespace embedlab
