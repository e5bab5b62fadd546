// A monotonic clock for training statistics and benchmarks.
//
//   now_ms() -> milliseconds since an arbitrary origin (std::chrono::steady_clock), as a double.
// Only differences of two readings mean anything.
//
// Intended usage:
//   const double t0 = now_ms();  work();  stats.elapsed_ms = now_ms() - t0;
#pragma once

namespace embedlab {

double now_ms();

}  // namespace embedlab
