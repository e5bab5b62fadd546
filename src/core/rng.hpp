// A random generator that reproduces PyTorch's CPU generator (torch 1.13):
// torch.manual_seed(s) followed by nn.Embedding / nn.Linear / torch.randn draws
// gives the same tables here.
//
// What torch does (aten/src/ATen/core/DistributionsHelper.h,
// aten/src/ATen/native/cpu/DistributionTemplates.h, verified against the
// reference tables in shared/reference/torch_embedding_init.json):
//   * the engine is mt19937 seeded with init_genrand(seed & 0xffffffff);
//     manual_seed also clears the cached Box-Muller sample;
//   * a float uniform in [0,1) is (u32 & 0xFFFFFF) * 2^-24 (one 32-bit draw);
//   * a double uniform is (random64 & (2^53-1)) * 2^-53, where random64 draws
//     two u32 and puts the first in the high word;
//   * normal_ on a contiguous float tensor with numel >= 16 ("normal_fill"):
//       1. fill all numel slots with float uniforms, in order;
//       2. for each full block of 16 at i: for j in 0..7,
//            u1 = 1 - d[i+j], u2 = d[i+j+8], r = sqrt(-2 ln u1), th = 2 pi u2,
//            d[i+j] = r cos th, d[i+j+8] = r sin th;
//       3. if numel % 16 != 0, draw 16 NEW uniforms into the last 16 slots
//          (overwriting values already transformed) and transform that block;
//   * normal_ with numel < 16: per element, the scalar Box-Muller of
//     at::normal_distribution<double>: u1, u2 double uniforms,
//     r = sqrt(-2 ln(1 - u2)), th = 2 pi u1, return r cos th and cache r sin th
//     for the next scalar draw (the cache survives across tensors);
//   * uniform_(lo, hi) on floats: u * (hi - lo) + lo in float, one u32 each;
//   * nn.Linear(in, out).weight = kaiming_uniform_(a=sqrt(5)) which is
//     uniform_(-1/sqrt(in), 1/sqrt(in)).
// Transcendentals come from core/detmath (not libm), so native and wasm builds
// give bit-identical tables. torch's AVX2 build uses Sleef float logf/sinf/cosf
// on the numel >= 16 path, so those values can differ from torch by ~2e-6;
// the numel < 16 path and the uniforms match torch exactly.
//
// Intended usage:
//   Generator g(42);                         // torch.manual_seed(42)
//   std::vector<float> w(6 * 3);
//   g.normal(w.data(), w.size());            // nn.Embedding(6, 3).weight
//   // w[0..2] == 1.9269, 1.4873, -0.4974
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>

namespace embedlab {

class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ull) { manual_seed(seed); }

  // torch.manual_seed(seed): reseeds the engine and clears the Box-Muller cache.
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const { return seed_; }

  uint32_t random();     // one mt19937 output
  uint64_t random64();   // two outputs, first in the high word
  float uniform_float();     // [0, 1), 24 bits
  double uniform_double();   // [0, 1), 53 bits

  // torch.Tensor.normal_(mean, std) on a contiguous float tensor of n elements: out[n].
  void normal(float* out, size_t n, float mean = 0.0f, float std = 1.0f);
  // torch.Tensor.uniform_(lo, hi): out[n].
  void uniform(float* out, size_t n, float lo, float hi);
  // nn.Linear(in_features, out_features, bias=False).weight: out[out_features * in_features].
  void kaiming_uniform(float* out, size_t out_features, size_t in_features);

  // An integer in [0, n) from one draw (for shuffling and sampling; not a torch API).
  uint32_t below(uint32_t n);

  // The generator's state, portable between builds and standard libraries: the seed, mt19937's
  // 624 state words and its position in them, the number of outputs drawn since seeding (for
  // information), and the Box-Muller cache. restore() copies it back in constant time, so a
  // checkpoint (train/checkpoint.hpp) resumes the same random stream in the native and the wasm
  // build, however many numbers were drawn.
  static constexpr int kWords = 624;  // mt19937's n
  struct State {
    uint64_t seed = 0, draws = 0;
    std::array<uint32_t, kWords> words{};
    uint32_t index = kWords;  // the next word to temper, in [0, 624]; 624: twist first
    bool has_cached = false;
    double cached = 0.0;
  };
  State state() const { return {seed_, draws_, words_, index_, has_cached_, cached_}; }
  // Fails (Error naming the value) unless index is in [0, 624] and cached is finite.
  void restore(const State& s);
  // The state after seeding with `seed` and drawing `draws` outputs (older checkpoints store only
  // these): mt19937 has no cheap jump, so this takes time in proportion to draws (about 2 ns
  // each) and refuses more than kMaxReplayDraws (2^28, well under a second).
  static constexpr uint64_t kMaxReplayDraws = uint64_t{1} << 28;
  static State replay(const char* where, uint64_t seed, uint64_t draws);

 private:
  double normal_scalar();
  void normal_block16(float* d);

  void twist();

  // mt19937 (Matsumoto & Nishimura 1998; the same outputs as std::mt19937), its state open
  std::array<uint32_t, kWords> words_{};
  uint32_t index_ = kWords;
  uint64_t seed_ = 0;
  uint64_t draws_ = 0;  // mt19937 outputs since the last manual_seed
  bool has_cached_ = false;
  double cached_ = 0.0;
};

}  // namespace embedlab
