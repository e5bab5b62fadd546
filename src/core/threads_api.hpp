// How many threads the engine may use: the count a caller asks for (CLI --threads, M.setThreads)
// and the most this build and machine allow. It only stores the count; it starts no thread and
// runs no loop (the deterministic pool of issue 25, src/core/parallel.*, replaces this file's
// implementation and keeps these declarations).
//
//   threads_max()   -> the most threads this build can run: 1 in a build without threads (the
//                      single-thread wasm), else the logical cores (std::thread::hardware_concurrency;
//                      in the threaded wasm, navigator.hardwareConcurrency or Node's os.cpus(), the
//                      same figure the wasm's pthread pool is sized from), capped at kThreadsLimit.
//   threads()       -> the count in use, in [1, threads_max()]; threads_max() until set.
//   set_threads(n)  -> n outside [1, kThreadsLimit] throws Error
//                      "setThreads: threads 0 out of range [1, 64]"; else the count in use becomes
//                      min(n, threads_max()), which it returns.
//
// Intended usage:
//   set_threads(4);              // asks for 4; gets 2 on a 2-core machine, 1 in the 1-thread wasm
//   const int in_use = threads();
#pragma once

namespace embedlab {

// The largest count anyone may ask for (a request above it is an error, not a clamp).
inline constexpr int kThreadsLimit = 64;

int threads_max();
int threads();
int set_threads(int n);

}  // namespace embedlab
