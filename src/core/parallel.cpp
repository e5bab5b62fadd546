// The engine's thread pool and its deterministic loops (contract in parallel.hpp).
//
// One pool per process, grown on demand to threads() - 1 workers (the calling thread is the
// last one) and kept until exit. A loop hands the pool a job (the body and its blocks); each
// participating worker and the caller take block indices from one atomic counter until none is
// left, then the caller waits until every participant has checked in. Which thread runs which
// block varies from run to run; what a block computes does not (parallel.hpp), so neither do the
// results.
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#if defined(__EMSCRIPTEN__)
#include <emscripten/threading.h>
#elif defined(__linux__)
#include <sched.h>
#endif

#include "core/error.hpp"

namespace embedlab {
namespace {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool kThreaded = false;  // the single-thread wasm build: no std::thread
#else
constexpr bool kThreaded = true;
#endif

thread_local bool t_in_loop = false;  // this thread is running a block: nested loops run serially
std::atomic<int> g_threads{0};        // the count asked for; 0: not set yet (default_threads(nullopt))
std::atomic<bool> g_oversubscribed{false};  // set_threads_oversubscribed: no cap at the cores

using Body = std::function<void(int64_t, int64_t, int64_t)>;

// One loop's shared state. The lowest block that threw wins, so the error a loop reports does
// not depend on the thread count either (every block runs).
struct Job {
  const Body* body = nullptr;
  Blocks blocks;
  std::atomic<int64_t> next{0};
  std::mutex error_mutex;
  int64_t error_block = INT64_MAX;
  std::exception_ptr error;

  void work() {
    t_in_loop = true;
    for (int64_t k = next.fetch_add(1); k < blocks.count(); k = next.fetch_add(1)) {
      try {
        (*body)(blocks.begin(k), blocks.end(k), k);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (k < error_block) {
          error_block = k;
          error = std::current_exception();
        }
      }
    }
    t_in_loop = false;
  }
};

class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  // Runs job on the caller and `helpers` workers.
  void run(Job& job, int helpers) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (static_cast<int>(workers_.size()) < helpers) {
      const int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { loop(index); });
    }
    job_ = &job;
    participants_ = helpers;
    active_ = helpers;
    ++generation_;
    lock.unlock();
    work_.notify_all();
    job.work();
    lock.lock();
    done_.wait(lock, [this] { return active_ == 0; });
    job_ = nullptr;
  }

 private:
  void loop(int index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stop_ || (generation_ != seen && index < participants_); });
      if (stop_) return;
      seen = generation_;
      Job* job = job_;
      lock.unlock();
      job->work();
      lock.lock();
      if (--active_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  int participants_ = 0;
  int active_ = 0;
  bool stop_ = false;
};

}  // namespace

int max_threads() {
  static const int cores = [] {
    int n = 1;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    n = 1;
#elif defined(__EMSCRIPTEN__)
    n = emscripten_num_logical_cores();  // the figure PTHREAD_POOL_SIZE was computed from
#elif defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : static_cast<int>(std::thread::hardware_concurrency());
#else
    n = static_cast<int>(std::thread::hardware_concurrency());  // 0 when unknown
#endif
    return std::clamp(n, 1, kMaxThreads);
  }();
  return cores;
}

int default_threads(const std::optional<std::string>& text) {
  if (text) {
    const std::string& s = *text;
    char* end = nullptr;
    const long v = s.empty() ? 0 : std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < 1 || v > kMaxThreads) {
      fail("EMBEDLAB_THREADS", "'" + s.substr(0, 40) + "' is not an integer in [1, " + std::to_string(kMaxThreads) + "]");
    }
    return static_cast<int>(v);
  }
  return max_threads();
}

int threads() {
  int n = g_threads.load();
  if (n == 0) {
    n = default_threads(std::nullopt);
    g_threads.store(n);
  }
  if (g_oversubscribed.load()) return kThreaded ? n : 1;
  return std::min(n, max_threads());
}

int set_threads(int n, const char* where) {
  if (n < 1 || n > kMaxThreads) {
    fail(where, "threads " + std::to_string(n) + " out of range [1, " + std::to_string(kMaxThreads) + "]");
  }
  if (t_in_loop) fail(where, "called inside a parallel loop");
  g_oversubscribed.store(false);
  g_threads.store(n);
  return threads();
}

void set_threads_oversubscribed(int n) {
#if defined(__EMSCRIPTEN__)
  fail("set_threads_oversubscribed", "native builds only (the wasm pool has one worker per core)");
#endif
  set_threads(n, "set_threads_oversubscribed");
  g_oversubscribed.store(true);
}

Blocks plan_blocks(const char* where, int64_t n, int64_t block) {
  check_at_least(where, "item count", n, 0);
  check_at_least(where, "block size", block, 1);
  return Blocks{n, block};
}

void parallel_for(int64_t n, int64_t block, const Body& body) {
  const Blocks blocks = plan_blocks("parallel_for", n, block);
  const int64_t count = blocks.count();
  const int helpers = static_cast<int>(std::min<int64_t>(threads(), count)) - 1;
  if (helpers <= 0 || t_in_loop) {
    // the same blocks in order on this thread: the single-thread path gives the same bytes
    for (int64_t k = 0; k < count; ++k) body(blocks.begin(k), blocks.end(k), k);
    return;
  }
  Job job;
  job.body = &body;
  job.blocks = blocks;
  if constexpr (kThreaded) Pool::get().run(job, helpers);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace embedlab
