#include "bench/bench_tokenize.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "bench/bench.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {
double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
}  // namespace

TokenizeBench bench_tokenize(std::string_view text, const std::function<Tokenizer()>& make, int reps) {
  check_at_least("bench tokenize", "reps", reps, 1);
  TokenizeBench r;
  r.reps = reps;
  r.bytes = static_cast<int64_t>(text.size());
  Tokenizer warm = make();
  r.encoding = warm.kind();
  r.tokens = static_cast<int64_t>(warm.encode(text).size());  // warm-up (pages in the text and tables)
  plan("bench tokenize", "timings", {3, reps}, kFloat64);
  std::vector<double> construct, cold, hot;
  for (int k = 0; k < reps; ++k) {
    double t0 = now_ms();
    Tokenizer fresh = make();
    construct.push_back(now_ms() - t0);
    t0 = now_ms();
    const size_t n = fresh.encode(text).size();
    cold.push_back(now_ms() - t0);
    if (static_cast<int64_t>(n) != r.tokens) fail("bench tokenize", "token count changed between runs");
    t0 = now_ms();
    warm.encode(text);
    hot.push_back(now_ms() - t0);
  }
  r.construct_ms = median(construct);
  r.median_ms = median(cold);
  r.warm_ms = median(hot);
  r.mb_per_s = r.median_ms > 0 ? static_cast<double>(r.bytes) / r.median_ms / 1000.0 : 0;
  r.warm_mb_per_s = r.warm_ms > 0 ? static_cast<double>(r.bytes) / r.warm_ms / 1000.0 : 0;
  return r;
}

std::string to_json(const TokenizeBench& b) {
  std::ostringstream os;
  os.precision(6);
  os << "{\"bench\":\"tokenize\",\"encoding\":\"" << b.encoding << "\",\"bytes\":" << b.bytes
     << ",\"tokens\":" << b.tokens << ",\"reps\":" << b.reps << ",\"construct_ms\":" << b.construct_ms
     << ",\"median_ms\":" << b.median_ms << ",\"mb_per_s\":" << b.mb_per_s << ",\"warm_ms\":" << b.warm_ms
     << ",\"warm_mb_per_s\":" << b.warm_mb_per_s << "}";
  return os.str();
}

}  // namespace embedlab
