// Fuzz target: sliding windows and skip-gram pairs with random parameters (data/windows.hpp).
// Input (FuzzedDataProvider): max_length, stride, batch_size and the skip-gram window drawn from
// edge values (0, -1, INT32_MAX, INT64_MAX, INT64_MIN...) or small numbers, shuffle, seed,
// drop_last; the remaining bytes are the ids (one id per byte).
// Properties: bad parameters fail with an Error; num_samples == window_count; the batch count
// follows drop_last; the sample starts are a permutation of 0, stride, 2 stride...; each batch's
// rows are ids[s : s + L] and ids[s + 1 : s + L + 1]; batch indices outside the range fail; the
// skip-gram pairs number 2wn - w(w + 1) (w = min(window, n - 1)) and pair ids[i] with ids[j];
// input_tokens() counts the batched samples; samples() cuts the last ones to their first ids.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "data/windows.hpp"
#include "fuzz_common.hpp"

using namespace embedlab;

namespace {

int64_t pick(FuzzedDataProvider& in) {
  static constexpr int64_t kEdges[] = {0, -1, 1, 2, 3, 4, 5, 8, 16, 64, 255, 1000,
                                       std::numeric_limits<int32_t>::max(),
                                       int64_t{1} << 32,
                                       std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min()};
  if (in.ConsumeBool()) return in.PickValueInArray(kEdges);
  return in.ConsumeIntegralInRange<int64_t>(-2, 300);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  FuzzedDataProvider in(data, size);
  WindowOptions o;
  o.max_length = pick(in);
  o.stride = pick(in);
  o.batch_size = pick(in);
  o.shuffle = in.ConsumeBool();
  o.seed = in.ConsumeIntegral<uint64_t>();
  o.drop_last = in.ConsumeBool();
  const int64_t window = pick(in);
  const std::vector<uint8_t> bytes = in.ConsumeRemainingBytes<uint8_t>();
  const std::vector<int32_t> ids(bytes.begin(), bytes.end());
  const int64_t n = static_cast<int64_t>(ids.size());

  fuzz::expect_errors([&] {
    const SlidingWindows ds(ids, o);
    const int64_t count = window_count(n, o.max_length, o.stride);
    fuzz::require(count >= 1 && ds.num_samples() == count, "num_samples() == window_count()");
    const int64_t b = o.batch_size;
    fuzz::require(ds.num_batches() == count / b + (!o.drop_last && count % b != 0), "num_batches() follows drop_last");
    std::vector<int64_t> starts = ds.sample_starts();
    std::sort(starts.begin(), starts.end());
    for (int64_t k = 0; k < count; ++k) fuzz::require(starts[k] == k * o.stride, "sample starts are 0, stride, 2 stride...");
    const int64_t batches = ds.num_batches();
    for (int64_t k = 0; k < batches && k < 8; ++k) {
      const int64_t bi = k < 4 ? k : batches - 1 - (k - 4);  // the first and the last few
      if (bi < 0) break;
      const WindowBatch wb = ds.batch(bi);
      const int64_t L = o.max_length;
      fuzz::require(wb.rows >= 1 && wb.rows <= b && wb.max_length == L, "a batch has 1..batch_size rows of max_length");
      fuzz::require(static_cast<int64_t>(wb.inputs.size()) == wb.rows * L && wb.targets.size() == wb.inputs.size(),
                    "inputs and targets are (rows, max_length)");
      for (int64_t r = 0; r < wb.rows; ++r) {
        const int64_t s = wb.starts[r];
        fuzz::require(s == ds.sample_starts()[bi * b + r], "batch starts follow sample_starts()");
        for (int64_t t = 0; t < L; ++t) {
          fuzz::require(wb.inputs[r * L + t] == ids[s + t] && wb.targets[r * L + t] == ids[s + t + 1],
                        "inputs = ids[s : s + L], targets = ids[s + 1 : s + L + 1]");
        }
      }
    }
    for (const int64_t bad : {int64_t{-1}, batches}) {
      bool refused = false;
      try {
        (void)ds.batch(bad);
      } catch (const Error&) {
        refused = true;
      }
      fuzz::require(refused, "batch indices outside [0, num_batches) fail");
    }
    const int64_t batched = o.drop_last ? count - count % b : count;
    fuzz::require(ds.batched_samples() == batched, "batched_samples() is the samples in some batch");
    int64_t tokens = 0;
    if (!__builtin_mul_overflow(batched, o.max_length, &tokens)) {
      fuzz::require(ds.input_tokens() == tokens, "input_tokens() = batched_samples() x max_length");
    }
    // a viewer's slice: the last two samples, cut to 3 ids
    const int64_t first = std::max<int64_t>(0, count - 2), m = std::min<int64_t>(o.max_length, 3);
    const WindowBatch cut = ds.samples(first, 5, 3);
    fuzz::require(cut.rows == count - first && cut.max_length == m, "samples() stops at the last sample");
    for (int64_t r = 0; r < cut.rows; ++r) {
      const int64_t s = ds.sample_starts()[first + r];
      for (int64_t t = 0; t < m; ++t) {
        fuzz::require(cut.inputs[r * m + t] == ids[s + t] && cut.targets[r * m + t] == ids[s + t + 1],
                      "samples() rows are the windows' first ids");
      }
    }
  });
  fuzz::expect_errors([&] {
    const auto pairs = skipgram_pairs(ids, window);
    fuzz::require(window >= 1, "skipgram_pairs refuses a window < 1");
    const int64_t w = std::min(window, std::max<int64_t>(n - 1, 0));
    fuzz::require(static_cast<int64_t>(pairs.size()) == 2 * w * n - w * (w + 1), "skip-gram pairs number 2wn - w(w + 1)");
    size_t p = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = std::max<int64_t>(0, i - w); j <= std::min(n - 1, i + w); ++j) {
        if (j == i) continue;
        fuzz::require(pairs[p].first == ids[i] && pairs[p].second == ids[j], "pairs are (ids[i], ids[j]) in order");
        ++p;
      }
    }
  });
  return 0;
}
