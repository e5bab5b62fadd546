#include "data/windows.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"

namespace embedlab {

int64_t window_count(int64_t n_tokens, int64_t max_length, int64_t stride) {
  check_at_least("windows", "max_length", max_length, 1);
  check_at_least("windows", "stride", stride, 1);
  check_at_least("windows", "token count", n_tokens, 0);
  const int64_t span = n_tokens - max_length;  // range(0, span, stride)
  // subtle: (span - 1) / stride + 1, not (span + stride - 1) / stride, which overflows for a huge stride
  return span <= 0 ? 0 : (span - 1) / stride + 1;
}

SlidingWindows::SlidingWindows(std::span<const int32_t> ids, const WindowOptions& options) : opt_(options) {
  const int64_t n = static_cast<int64_t>(ids.size());
  const int64_t count = window_count(n, opt_.max_length, opt_.stride);
  check_at_least("windows", "batch_size", opt_.batch_size, 1);
  if (count == 0) {
    // max_length + 1 in unsigned arithmetic: max_length may be INT64_MAX
    fail("windows", std::to_string(n) + " tokens make no window of max_length " + std::to_string(opt_.max_length) +
                        ": need at least " + std::to_string(static_cast<uint64_t>(opt_.max_length) + 1) +
                        " tokens (max_length + 1, for the shifted target)");
  }
  MemoryPlan p("windows");
  p.add("ids", {n}, kInt32);
  p.add("sample starts", {count}, kInt64);
  p.check();
  ids_.assign(ids.begin(), ids.end());
  order_.resize(static_cast<size_t>(count));
  for (int64_t k = 0; k < count; ++k) order_[k] = k * opt_.stride;
  if (opt_.shuffle) {
    if (count > static_cast<int64_t>(UINT32_MAX)) fail("windows", "too many samples to shuffle");
    Generator g(opt_.seed);
    for (int64_t k = count - 1; k >= 1; --k) {
      std::swap(order_[k], order_[g.below(static_cast<uint32_t>(k + 1))]);
    }
  }
}

int64_t SlidingWindows::num_batches() const {
  const int64_t n = num_samples(), b = opt_.batch_size;
  return opt_.drop_last ? n / b : n / b + (n % b != 0);  // not (n + b - 1) / b: b may be INT64_MAX
}

int64_t SlidingWindows::batched_samples() const {
  // n - n % b is num_batches() * b without the product (b may be INT64_MAX)
  const int64_t n = num_samples(), b = opt_.batch_size;
  return opt_.drop_last ? n - n % b : n;
}

int64_t SlidingWindows::input_tokens() const {
  // N * L may pass int64 only for absurd L (N <= n_tokens); checked rather than wrapped
  int64_t out = 0;
  if (__builtin_mul_overflow(batched_samples(), opt_.max_length, &out)) {
    fail("windows", "input tokens " + std::to_string(batched_samples()) + " x " + std::to_string(opt_.max_length) +
                        " overflow int64");
  }
  return out;
}

WindowBatch SlidingWindows::batch(int64_t b) const {
  check_index("windows batch", "batch index", b, 0, num_batches());
  return samples(b * opt_.batch_size, opt_.batch_size, opt_.max_length);
}

WindowBatch SlidingWindows::samples(int64_t first, int64_t count, int64_t max_ids) const {
  check_index("windows samples", "first sample", first, 0, num_samples() + 1);
  check_at_least("windows samples", "count", count, 0);
  check_at_least("windows samples", "max_ids", max_ids, 1);
  const int64_t L = std::min(opt_.max_length, max_ids);
  WindowBatch wb;
  wb.rows = std::min(count, num_samples() - first);
  wb.max_length = L;
  MemoryPlan p("windows batch");
  p.add("starts", {wb.rows}, kInt64);
  const size_t n = p.add("inputs", {wb.rows, L}, kInt32);
  p.add("targets", {wb.rows, L}, kInt32);
  p.check();
  wb.starts.assign(order_.begin() + first, order_.begin() + first + wb.rows);
  wb.inputs.resize(n);
  wb.targets.resize(n);
  for (int64_t r = 0; r < wb.rows; ++r) {
    const int32_t* src = ids_.data() + wb.starts[r];
    for (int64_t t = 0; t < L; ++t) {
      wb.inputs[r * L + t] = src[t];
      wb.targets[r * L + t] = src[t + 1];
    }
  }
  return wb;
}

std::vector<std::pair<int32_t, int32_t>> skipgram_pairs(std::span<const int32_t> ids, int64_t window) {
  check_at_least("skipgram_pairs", "window", window, 1);
  const int64_t n = static_cast<int64_t>(ids.size());
  std::vector<std::pair<int32_t, int32_t>> pairs;
  const int64_t w = std::min(window, std::max<int64_t>(n - 1, 0));
  // exactly sum_i (min(n-1, i+w) - max(0, i-w)) = 2wn - w(w+1) pairs, for w <= n - 1
  // (n = 3, w = 1: 6 - 2 = 4); 2wn is planned before it is formed in size_t.
  plan("skipgram_pairs", "(center, context) pairs", {n, 2 * w, 2}, kInt32);
  pairs.reserve(static_cast<size_t>(2 * w * n - w * (w + 1)));
  for (int64_t i = 0; i < n; ++i) {
    // w, not window: i + window overflows int64 for a huge window (found by fuzz_windows)
    const int64_t lo = std::max<int64_t>(0, i - w), hi = std::min(n - 1, i + w);
    for (int64_t j = lo; j <= hi; ++j) {
      if (j != i) pairs.emplace_back(ids[i], ids[j]);
    }
  }
  return pairs;
}

}  // namespace embedlab
