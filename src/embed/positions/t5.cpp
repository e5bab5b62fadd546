// Positional kind "t5": T5's relative position bias (Raffel et al. 2020, sec. 2.1), causal as
// in a decoder. Each head learns one scalar per distance bucket and adds it to its attention
// logits: S[h, i, j] += B[bucket(i - j), h] for j <= i. Buckets (HF transformers
// T5Attention._relative_position_bucket, bidirectional=False), for n = i - j >= 0:
//   max_exact = num_buckets / 2
//   bucket(n) = n                                                            if n < max_exact
//   (computed in float32, as torch computes it: see bucket_of_distance)
//             = min(num_buckets - 1, max_exact + floor(log(n / max_exact)
//                   / log(max_distance / max_exact) * (num_buckets - max_exact)))   otherwise
// so near distances get a bucket each and far ones share log-spaced buckets; every distance
// from max_distance on shares the last bucket, which is how T5 runs past its training length.
// Example (num_buckets 32, max_distance 128): bucket(15) = 15, bucket(16) = 16, bucket(20) = 17,
// bucket(127) = 31, bucket(5000) = 31.
// B is drawn like nn.Embedding(num_buckets, H) (N(0, 1)) right after the token table.
// Backward: dB[bucket(i - j), h] += dS[h, i, j], summed over the batch.
#include <algorithm>
#include <cmath>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "embed/positions/registry.hpp"

namespace embedlab {

namespace {

struct Buckets {
  int64_t count, max_distance;
};

Buckets buckets_of(const PositionValues& v) {
  const Buckets b{static_cast<int64_t>(v.at("num_buckets")), static_cast<int64_t>(v.at("max_distance"))};
  if (b.max_distance <= b.count / 2) {
    fail("t5", "max_distance " + std::to_string(b.max_distance) + " must be greater than num_buckets / 2 = " +
                   std::to_string(b.count / 2));
  }
  return b;
}

// bucket(n) for n = i - j in [0, T): (T) int32
// subtle: in float32, as torch runs HF's code: r = float(n) / max_exact, log of that float32
// (correctly rounded here), divided by math.log(max_distance / max_exact) (a double, applied as a
// float32 scalar), times (num_buckets - max_exact), truncated by .to(long). float64 arithmetic
// gives other buckets for some settings (9 buckets, max_distance 128: distance 8 is bucket 5 in
// float32, 4 in float64); tests/reference/t5_buckets_torch.json holds torch's buckets.
std::vector<int32_t> bucket_of_distance(const Buckets& b, int64_t T) {
  std::vector<int32_t> out(plan("t5", "relative position buckets", {T}, kInt32));
  const int64_t max_exact = b.count / 2;
  const float log_range = static_cast<float>(detmath::log(static_cast<double>(b.max_distance) / static_cast<double>(max_exact)));
  const float spread = static_cast<float>(b.count - max_exact);
  for (int64_t n = 0; n < T; ++n) {
    int64_t k = n;
    if (n >= max_exact) {
      const float r = static_cast<float>(n) / static_cast<float>(max_exact);
      const float log_r = static_cast<float>(detmath::log(static_cast<double>(r)));
      const float f = log_r / log_range * spread;
      k = std::min(b.count - 1, max_exact + static_cast<int64_t>(f));
    }
    out[n] = static_cast<int32_t>(k);
  }
  return out;
}

class T5Bias : public PositionEncoding {
 public:
  T5Bias(const PositionShape& s, const Buckets& b, Generator& g)
      : T_(s.T), H_(s.heads), rows_(b.count), bucket_(bucket_of_distance(b, s.T)) {
    B_.resize(static_cast<size_t>(b.count * s.heads));  // planned by the kind's plan()
    g.normal(B_.data(), B_.size());
    dB_.assign(B_.size(), 0.0f);
  }
  void add_bias(int64_t h, int64_t i, float* scores) const override {
    for (int64_t j = 0; j <= i; ++j) scores[j] = scores[j] + B_[bucket_[i - j] * H_ + h];
  }
  void zero_grad() override { std::fill(dB_.begin(), dB_.end(), 0.0f); }
  void backward_bias(int64_t h, const float* dS) override {
    for (int64_t i = 0; i < T_; ++i)
      for (int64_t j = 0; j <= i; ++j) dB_[bucket_[i - j] * H_ + h] += dS[i * T_ + j];
  }
  std::vector<ParamView> params() override {
    return {{"relative position bias", B_.data(), dB_.data(), B_.size(), rows_, H_}};
  }
  const std::vector<float>* table(int64_t* rows, int64_t* cols) const override {
    *rows = rows_, *cols = H_;
    return &B_;
  }

 private:
  int64_t T_, H_, rows_;
  std::vector<int32_t> bucket_;  // (T): distance -> bucket
  std::vector<float> B_, dB_;    // (num_buckets, H) each, nn.Embedding layout
};

}  // namespace

const PositionKind& t5_positions() {
  static const PositionKind k{
      .name = "t5",
      .label = "T5 relative bias",
      .description = "Learns one logit bias per head for each log-spaced distance bucket (Raffel et al. 2020); far distances share buckets.",
      .provides = PositionRole::Bias,
      .params = {{"num_buckets", 32, 2, 1024, true, "distance buckets (half exact, half log-spaced)"},
                 {"max_distance", 128, 2, 1 << 20, true, "distances from here on share the last bucket"}},
      .trainable = true,
      .even_dim = false,
      .plan = [](MemoryPlan& p, const PositionShape& s, const PositionValues& v, int moments) {
        const Buckets b = buckets_of(v);
        p.add("relative position biases", {b.count, s.heads}, kFloat32);
        p.add("relative position bias gradient", {b.count, s.heads}, kFloat32);
        if (moments >= 1) p.add("relative position bias Adam moment m", {b.count, s.heads}, kFloat32);
        if (moments >= 2) p.add("relative position bias Adam moment v", {b.count, s.heads}, kFloat32);
        p.add("relative position buckets", {s.T}, kInt32);
      },
      .make = [](const PositionShape& s, const PositionValues& v, Generator& g) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<T5Bias>(s, buckets_of(v), g);
      },
      .draw = [](const PositionShape& s, const PositionValues& v, Generator& g) {
        const Buckets b = buckets_of(v);
        check_at_least("t5", "heads", s.heads, 1);
        std::vector<float> B(plan("t5", "relative position biases", {b.count, s.heads}, kFloat32));
        g.normal(B.data(), B.size());
        const std::vector<int32_t> bucket = bucket_of_distance(b, s.T);
        return causal_bias_table("t5", s.heads, s.T, [&](int64_t h, int64_t i, int64_t j) {
          return B[bucket[i - j] * s.heads + h];
        });
      },
  };
  return k;
}

}  // namespace embedlab
