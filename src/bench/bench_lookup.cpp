#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>
#include <vector>

#include "bench/bench.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"
#include "embed/embedding.hpp"
#include "embed/positional.hpp"

namespace embedlab {

namespace {

template <class F>
double median_ms(int reps, F&& f) {
  f();  // warm-up: page in buffers, fill caches
  std::vector<double> t(plan("bench", "timings", reps, kFloat64));
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_ms();
    f();
    t[r] = now_ms() - t0;
  }
  std::sort(t.begin(), t.end());
  return t[reps / 2];
}

}  // namespace

LookupBench bench_lookup(int64_t V, int64_t D, int64_t B, int64_t T, int reps) {
  check_at_least("bench lookup", "batch", B, 1);
  check_at_least("bench lookup", "context", T, 1);
  check_at_least("bench lookup", "reps", reps, 1);
  // ids are int32 drawn with a 32-bit generator
  check_index("bench lookup", "vocabulary size", V, 1, int64_t{INT32_MAX} + 1);
  check_at_least("bench lookup", "dim", D, 1);
  MemoryPlan p("bench lookup");
  p.add("table", {V, D}, kFloat32);
  p.add("positions", {T, D}, kFloat32);
  p.add("ids", {B, T}, kInt32);
  p.add("output", {B, T, D}, kFloat32);
  p.add("memcpy source", {B, T, D}, kFloat32);
  p.add("memcpy destination", {B, T, D}, kFloat32);
  p.add("sparse gradient", {std::min(V, B * T), D}, kFloat32);  // B * T: planned above
  p.add("gradient rows and slots", {2, B, T}, kInt32);
  p.add("timings", {reps}, kFloat64);
  p.check();
  LookupBench r;
  r.V = V, r.D = D, r.B = B, r.T = T, r.reps = reps;
  r.isa = kernels::isa();
  Generator g(0);
  EmbeddingOptions opts;
  opts.scale = true;
  Embedding emb(V, D, g, opts);
  const std::vector<float> pos = sinusoidal(T, D);
  std::vector<int32_t> ids(plan("bench lookup", "ids", {B, T}, kInt32));
  for (auto& id : ids) id = static_cast<int32_t>(g.below(static_cast<uint32_t>(V)));
  std::vector<float> out(plan("bench lookup", "output", {B, T, D}, kFloat32));
  std::vector<float> src(out.size(), 1.0f), dst(out.size(), 0.0f);
  const double bytes = static_cast<double>(out.size()) * sizeof(float);

  r.median_ms = median_ms(reps, [&] { emb.forward_with_positions(ids, pos.data(), T, out.data()); });
  r.memcpy_ms = median_ms(reps, [&] { std::memcpy(dst.data(), src.data(), bytes); });
  // Sparse backward: coalesced row gradients of dout = out (same bytes read).
  r.backward_ms = median_ms(std::max(3, reps / 3), [&] {
    SparseGrad sg = emb.backward_sparse(ids, out);
    if (sg.rows.empty()) fail("bench lookup", "empty gradient");
  });
  r.gb_per_s = bytes / (r.median_ms * 1e6);
  r.memcpy_gb_per_s = bytes / (r.memcpy_ms * 1e6);
  r.backward_gb_per_s = bytes / (r.backward_ms * 1e6);
  r.ratio_to_memcpy = r.gb_per_s / r.memcpy_gb_per_s;
  return r;
}

std::string to_json(const LookupBench& b) {
  std::ostringstream os;
  os.precision(6);
  os << "{\"bench\":\"lookup\",\"isa\":\"" << b.isa << "\",\"num_embeddings\":" << b.V
     << ",\"embedding_dim\":" << b.D << ",\"batch\":" << b.B << ",\"context\":" << b.T
     << ",\"reps\":" << b.reps << ",\"median_ms\":" << b.median_ms << ",\"gb_per_s\":" << b.gb_per_s
     << ",\"memcpy_ms\":" << b.memcpy_ms << ",\"memcpy_gb_per_s\":" << b.memcpy_gb_per_s
     << ",\"ratio_to_memcpy\":" << b.ratio_to_memcpy << ",\"backward_ms\":" << b.backward_ms
     << ",\"backward_gb_per_s\":" << b.backward_gb_per_s << "}";
  return os.str();
}

}  // namespace embedlab
