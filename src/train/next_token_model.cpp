#include "train/next_token_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"
#include "core/rng.hpp"
#include "core/parallel.hpp"
#include "kernels/dense.hpp"
#include "train/train_stats.hpp"

namespace embedlab {

namespace {

constexpr int64_t kHeadChunk = 32;  // rows of logits per block of the pool (32 x V floats: fastest in Node 20)
constexpr int64_t kHeadGroup = 8 * kHeadChunk;  // rows of logits kept at once (256 x V floats): 8 blocks, up to 8 threads

void zero(std::vector<float>& v, size_t n) { v.assign(n, 0.0f); }

// C (n,m) = A (n,k) @ B (k,m), from zero.
void matmul(size_t n, size_t k, size_t m, const float* A, const float* B, float* C) {
  dense::gemm(n, k, m, A, k, B, m, C, m);
}

// The factor on the raw scores q.k: 1/sqrt(D), times the position kind's attention scale when it
// has one (rope-yarn's (0.1 ln factor + 1)^2; YaRN sec. 3.4). subtle: applied only when it is not
// 1, so every other kind keeps the same float bits.
float score_scale(size_t D, const PositionEncoding& pos) {
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(D));
  const double a = pos.attention_scale();
  return a == 1.0 ? inv_sqrt_d : static_cast<float>(static_cast<double>(inv_sqrt_d) * a);
}

}  // namespace

void plan_model(MemoryPlan& p, const NextTokenConfig& c, int moments) {
  const int64_t V = c.vocab_size, D = c.dim, T = c.context;
  static const char* const kMoment[2] = {"Adam moment m", "Adam moment v"};
  auto param = [&](const std::string& name, int64_t rows, int64_t cols) {
    p.add(name, {rows, cols}, kFloat32);
    p.add(name + " gradient", {rows, cols}, kFloat32);
    for (int m = 0; m < moments && m < 2; ++m) p.add(name + " " + kMoment[m], {rows, cols}, kFloat32);
  };
  param("token table", V, D);
  const PositionKind& kind = find_position_kind(c.pos);
  kind.plan(p, {T, D, 1}, kind.resolve("next-token", c.pos_params), moments);
  param("query weight", D, D);
  param("key weight", D, D);
  param("value weight", D, D);
  if (!c.tie_head) param("head table", V, D);
}

void plan_run(MemoryPlan& p, const NextTokenConfig& c, int64_t B, bool backward) {
  const int64_t V = c.vocab_size, D = c.dim, T = c.context;
  for (const char* w : {"transposed query weight", "transposed key weight", "transposed value weight"}) {
    p.add(w, {D, D}, kFloat32);
  }
  p.add("transposed head", {D, V}, kFloat32);
  for (const char* a : {"embedded inputs", "queries", "keys", "values", "attention outputs"}) {
    p.add(a, {B, T, D}, kFloat32);
  }
  p.add("attention scores", {B, T, T}, kFloat32);
  p.add("attention scratch per thread", {threads(), T, D + 2 * T}, kFloat32);  // v^T or k^T, S, S^T
  p.add("logits", {kHeadGroup, V}, kFloat32);
  p.add("transposed rows", {D, kHeadGroup}, kFloat32);
  // the tied head's backward reuses the (T, D) scratch for its (V, D) gradient
  p.add("transposed scratch", {c.tie_head && backward ? std::max(T, V) : T, D}, kFloat32);
  if (!backward) return;
  for (const char* g : {"attention output gradients", "embedded input gradients", "query gradients",
                        "key gradients", "value gradients"}) {
    p.add(g, {B, T, D}, kFloat32);
  }
  p.add("transposed head gradient", {D, V}, kFloat32);
  p.add("score gradients", {B, T, T}, kFloat32);
  p.add("transposed gradients", {D, B, T}, kFloat32);
  p.add("touched rows", {c.tie_head ? std::max(V, B * T) : B * T}, kInt32);  // B * T: planned above
}

void check_config(const NextTokenConfig& c) {
  check_at_least("next-token", "vocabulary size", c.vocab_size, 2);
  // token ids are int32
  if (c.vocab_size > INT32_MAX) {
    fail("next-token", "vocabulary size must be <= 2147483647, got " + std::to_string(c.vocab_size));
  }
  check_at_least("next-token", "dimension", c.dim, 1);
  check_at_least("next-token", "context", c.context, 1);
  if (c.context > 4096) fail("next-token", "context must be <= 4096, got " + std::to_string(c.context));
  const PositionKind& kind = find_position_kind(c.pos);
  kind.check_shape("next-token", {c.context, c.dim, 1});
  kind.resolve("next-token", c.pos_params);
}

void validate(const NextTokenConfig& c) {
  check_config(c);
  MemoryPlan p("next-token");
  plan_model(p, c);
  p.check();
}

NextTokenModel::NextTokenModel(const NextTokenConfig& c) : c_(c) {
  validate(c_);
  kind_ = &find_position_kind(c_.pos);
  c_.pos_params = kind_->resolve("next-token", c_.pos_params);
  init();
}

void NextTokenModel::init() {
  const int64_t V = c_.vocab_size, D = c_.dim, T = c_.context;
  Generator g(c_.seed);
  E_.resize(static_cast<size_t>(V * D));
  g.normal(E_.data(), E_.size());
  pos_ = kind_->make({T, D, 1}, c_.pos_params, g);
  for (auto* W : {&Wq_, &Wk_, &Wv_}) {
    W->resize(static_cast<size_t>(D * D));
    g.kaiming_uniform(W->data(), static_cast<size_t>(D), static_cast<size_t>(D));
  }
  H_.clear();
  if (!c_.tie_head) {
    H_.resize(static_cast<size_t>(V * D));
    g.kaiming_uniform(H_.data(), static_cast<size_t>(V), static_cast<size_t>(D));
  }
  zero(dE_, E_.size());
  zero(dWq_, Wq_.size());
  zero(dWk_, Wk_.size());
  zero(dWv_, Wv_.size());
  zero(dH_, H_.size());
  touched_.clear();
}

std::vector<ParamView> NextTokenModel::params() {
  const int64_t V = c_.vocab_size, D = c_.dim;
  std::vector<ParamView> p;
  p.push_back({"token", E_.data(), dE_.data(), E_.size(), V, D});
  for (const ParamView& v : pos_->params()) p.push_back(v);
  p.push_back({"query", Wq_.data(), dWq_.data(), Wq_.size(), D, D});
  p.push_back({"key", Wk_.data(), dWk_.data(), Wk_.size(), D, D});
  p.push_back({"value", Wv_.data(), dWv_.data(), Wv_.size(), D, D});
  if (!c_.tie_head) p.push_back({"head", H_.data(), dH_.data(), H_.size(), V, D});
  return p;
}

void NextTokenModel::load_parameters(NextTokenModel& from) {
  std::vector<ParamView> to = params(), src = from.params();
  if (to.size() != src.size()) fail("next-token", "the models have different parameters");
  for (size_t i = 0; i < to.size(); ++i) {
    if (std::string(to[i].name) != src[i].name || to[i].size != src[i].size) {
      fail("next-token", std::string("parameter ") + src[i].name + " (" + std::to_string(src[i].rows) + " x " +
                             std::to_string(src[i].cols) + ") does not fit " + to[i].name + " (" +
                             std::to_string(to[i].rows) + " x " + std::to_string(to[i].cols) + ")");
    }
    std::copy(src[i].data, src[i].data + src[i].size, to[i].data);
  }
}

void NextTokenModel::check_batch(std::span<const int32_t> inputs, std::span<const int32_t> targets,
                                 int64_t B) const {
  check_at_least("next-token", "batch rows", B, 1);
  uint64_t n = 0;  // B x T in 64 bits
  const bool overflow = __builtin_mul_overflow(static_cast<uint64_t>(B), static_cast<uint64_t>(c_.context), &n);
  if (overflow || inputs.size() != n || targets.size() != n) {
    fail("next-token", "a batch of " + std::to_string(B) + " x " + std::to_string(c_.context) + " needs " +
                           (overflow ? std::string("more than 2^64") : std::to_string(n)) +
                           " inputs and targets, got " +
                           std::to_string(inputs.size()) + " and " + std::to_string(targets.size()));
  }
  for (int32_t id : inputs) check_index("next-token", "token id", id, 0, c_.vocab_size);
  for (int32_t id : targets) check_index("next-token", "token id", id, 0, c_.vocab_size);
}

double NextTokenModel::forward_backward(std::span<const int32_t> inputs,
                                        std::span<const int32_t> targets, int64_t B) {
  check_batch(inputs, targets, B);
  return run(inputs, targets, B, true);
}

double NextTokenModel::loss(std::span<const int32_t> inputs, std::span<const int32_t> targets,
                            int64_t B) {
  check_batch(inputs, targets, B);
  return run(inputs, targets, B, false);
}

void NextTokenModel::plan_for(int64_t B, bool backward) {
  // Plan the run buffers once for the largest batch seen (they are kept between calls).
  if (B > planned_rows_ || (backward && !planned_backward_)) {
    MemoryPlan p("next-token");
    plan_run(p, c_, std::max(B, planned_rows_), backward || planned_backward_);
    p.check();
    planned_rows_ = std::max(B, planned_rows_);
    planned_backward_ = planned_backward_ || backward;
  }
}

void NextTokenModel::logits(std::span<const int32_t> window, int64_t at, std::span<float> out) {
  const int64_t T = c_.context;
  if (static_cast<int64_t>(window.size()) != T || static_cast<int64_t>(out.size()) != c_.vocab_size) {
    fail("next-token logits", "a window of " + std::to_string(T) + " ids and " + std::to_string(c_.vocab_size) +
                                  " logits expected, got " + std::to_string(window.size()) + " and " + std::to_string(out.size()));
  }
  check_index("next-token logits", "position", at, 0, T);
  for (int32_t id : window) check_index("next-token logits", "token id", id, 0, c_.vocab_size);
  plan_for(1, false);
  forward(window, 1);
  const size_t V = static_cast<size_t>(c_.vocab_size), D = static_cast<size_t>(c_.dim);
  HT_.resize(D * V);
  dense::transpose(V, D, c_.tie_head ? E_.data() : H_.data(), HT_.data());
  matmul(1, D, V, h_.data() + static_cast<size_t>(at) * D, HT_.data(), out.data());
}

void NextTokenModel::forward(std::span<const int32_t> inputs, int64_t B) {
  const size_t D = static_cast<size_t>(c_.dim), T = static_cast<size_t>(c_.context), N = static_cast<size_t>(B) * T;
  const float inv_sqrt_d = score_scale(D, *pos_);  // 1/sqrt(D) (x rope-yarn's attention scale)
  const float escale = c_.scale_embeddings ? std::sqrt(static_cast<float>(D)) : 1.0f;
  // ---- embedding + positions
  x0_.resize(N * D);
  kernels::gather_scale_add(x0_.data(), E_.data(), D, inputs.data(), N, escale, pos_->additive(), T);
  // ---- q, k, v
  WqT_.resize(D * D), WkT_.resize(D * D), WvT_.resize(D * D);
  dense::transpose(D, D, Wq_.data(), WqT_.data());
  dense::transpose(D, D, Wk_.data(), WkT_.data());
  dense::transpose(D, D, Wv_.data(), WvT_.data());
  q_.resize(N * D), k_.resize(N * D), v_.resize(N * D);
  matmul(N, D, D, x0_.data(), WqT_.data(), q_.data());
  matmul(N, D, D, x0_.data(), WkT_.data(), k_.data());
  matmul(N, D, D, x0_.data(), WvT_.data(), v_.data());
  pos_->rotate(q_.data(), B, false);
  pos_->rotate(k_.data(), B, false);
  // ---- causal attention per sequence, the sequences on the engine's threads (core/parallel.hpp):
  // a sequence writes only its own rows of A_ and h_ and has its own scratch, so the bytes do not
  // depend on the thread count (add_bias is const)
  A_.assign(static_cast<size_t>(B) * T * T, 0.0f);
  h_ = x0_;
  parallel_for(B, 1, [&](int64_t b0, int64_t b1, int64_t) {
    std::vector<float> kT(D * T), S(T * T);
    for (size_t b = static_cast<size_t>(b0); b < static_cast<size_t>(b1); ++b) {
      const float* qb = q_.data() + b * T * D;
      const float* kb = k_.data() + b * T * D;
      float* Ab = A_.data() + b * T * T;
      dense::transpose(T, D, kb, kT.data());
      matmul(T, D, T, qb, kT.data(), S.data());
      for (size_t i = 0; i < T; ++i) {
        float* s = S.data() + i * T;
        for (size_t j = 0; j <= i; ++j) s[j] = s[j] * inv_sqrt_d;
        pos_->add_bias(0, static_cast<int64_t>(i), s);
        float mx = s[0];
        for (size_t j = 1; j <= i; ++j) mx = mx < s[j] ? s[j] : mx;
        float sum = 0;
        for (size_t j = 0; j <= i; ++j) {
          s[j] = dense::exp_float(s[j] - mx);
          sum = sum + s[j];
        }
        const float inv = 1.0f / sum;
        for (size_t j = 0; j <= i; ++j) Ab[i * T + j] = s[j] * inv;
      }
      dense::gemm_acc(T, T, D, Ab, T, v_.data() + b * T * D, D, h_.data() + b * T * D, D);
    }
  });
}

double NextTokenModel::run(std::span<const int32_t> inputs, std::span<const int32_t> targets,
                           int64_t B, bool backward) {
  plan_for(B, backward);
  forward(inputs, B);
  const size_t V = static_cast<size_t>(c_.vocab_size), D = static_cast<size_t>(c_.dim),
               T = static_cast<size_t>(c_.context), N = static_cast<size_t>(B) * T;
  const float inv_sqrt_d = score_scale(D, *pos_);  // 1/sqrt(D) (x rope-yarn's attention scale)
  const float escale = c_.scale_embeddings ? std::sqrt(static_cast<float>(D)) : 1.0f;
  const float* Hw = c_.tie_head ? E_.data() : H_.data();  // (V, D)
  // ---- head + softmax cross-entropy, in row chunks
  HT_.resize(D * V);
  dense::transpose(V, D, Hw, HT_.data());
  if (backward) {
    dh_.assign(N * D, 0.0f);
    dHT_.assign(D * V, 0.0f);
  }
  // Groups of kHeadGroup rows: their chunks of kHeadChunk rows on the engine's threads (logits,
  // softmax, dh: each chunk writes its own rows), each chunk's loss kept and added in chunk order
  // (the serial sum's order), then dHT += h_g^T logits_g over the group's rows in row order, split
  // by columns (dense.hpp: blocking never reorders). The same bytes at every thread count.
  logits_.resize(static_cast<size_t>(kHeadGroup) * V);
  chunkT_.resize(D * static_cast<size_t>(kHeadGroup));
  double total = 0;
  const float grad_scale = 1.0f / static_cast<float>(N);
  double chunk_loss[kHeadGroup / kHeadChunk];
  for (size_t g0 = 0; g0 < N; g0 += static_cast<size_t>(kHeadGroup)) {
    const size_t group_rows = std::min(static_cast<size_t>(kHeadGroup), N - g0);
    parallel_for(static_cast<int64_t>(group_rows), kHeadChunk, [&](int64_t c0, int64_t c1, int64_t k) {
      const size_t r0 = g0 + static_cast<size_t>(c0), rows = static_cast<size_t>(c1 - c0);
      float* lc = logits_.data() + static_cast<size_t>(c0) * V;
      matmul(rows, D, V, h_.data() + r0 * D, HT_.data(), lc);
      chunk_loss[k] = dense::softmax_xent(rows, V, lc, targets.data() + r0, grad_scale);
      if (backward) dense::gemm_acc(rows, V, D, lc, V, Hw, D, dh_.data() + r0 * D, D);
    });
    const int64_t chunks = plan_blocks("next-token head", static_cast<int64_t>(group_rows), kHeadChunk).count();
    for (int64_t k = 0; k < chunks; ++k) total += chunk_loss[k];
    if (!backward) continue;
    dense::transpose(group_rows, D, h_.data() + g0 * D, chunkT_.data());
    dense::gemm_acc(D, group_rows, V, chunkT_.data(), group_rows, logits_.data(), V, dHT_.data(), V);
  }
  const double mean = total / static_cast<double>(N);
  if (!backward) return mean;

  // ---- backward through attention
  dx0_ = dh_;
  dq_.assign(N * D, 0.0f), dk_.assign(N * D, 0.0f), dv_.assign(N * D, 0.0f);
  pos_->zero_grad();
  // the sequences on the engine's threads, each with its own scratch; the bias gradients (shared
  // by every sequence) are accumulated afterwards from the kept dS, in sequence order, so their
  // bytes do not depend on the thread count either
  dS_.resize(static_cast<size_t>(B) * T * T);
  parallel_for(B, 1, [&](int64_t b0, int64_t b1, int64_t) {
    std::vector<float> vT(D * T), S(T * T), S2(T * T);
    for (size_t b = static_cast<size_t>(b0); b < static_cast<size_t>(b1); ++b) {
      const float* Ab = A_.data() + b * T * T;
      const float* dhb = dh_.data() + b * T * D;
      // dA = dh_b v_b^T
      dense::transpose(T, D, v_.data() + b * T * D, vT.data());
      matmul(T, D, T, dhb, vT.data(), S.data());
      // dv_b = A_b^T dh_b
      dense::transpose(T, T, Ab, S2.data());
      dense::gemm_acc(T, T, D, S2.data(), T, dhb, D, dv_.data() + b * T * D, D);
      // dS = A * (dA - rowsum(A * dA)): the gradient of the (biased) scaled scores, causal
      for (size_t i = 0; i < T; ++i) {
        float* ds = S.data() + i * T;
        const float* a = Ab + i * T;
        float dot = 0;
        for (size_t j = 0; j <= i; ++j) dot = dot + a[j] * ds[j];
        for (size_t j = 0; j <= i; ++j) ds[j] = a[j] * (ds[j] - dot);
        for (size_t j = i + 1; j < T; ++j) ds[j] = 0.0f;
      }
      std::copy(S.begin(), S.end(), dS_.begin() + static_cast<std::ptrdiff_t>(b * T * T));
      // ... through the 1/sqrt(D) scale to the raw scores q k^T
      for (size_t e = 0; e < T * T; ++e) S[e] = S[e] * inv_sqrt_d;
      // dq_b = dS k_b;  dk_b = dS^T q_b
      dense::gemm_acc(T, T, D, S.data(), T, k_.data() + b * T * D, D, dq_.data() + b * T * D, D);
      dense::transpose(T, T, S.data(), S2.data());
      dense::gemm_acc(T, T, D, S2.data(), T, q_.data() + b * T * D, D, dk_.data() + b * T * D, D);
    }
  });
  for (size_t b = 0; b < static_cast<size_t>(B); ++b) pos_->backward_bias(0, dS_.data() + b * T * T);
  pos_->rotate(dq_.data(), B, true);
  pos_->rotate(dk_.data(), B, true);
  // ---- projections: dW = d^T x0 (torch layout (out, in)), dx0 += d W
  chunkT_.resize(D * N);
  struct Proj { const std::vector<float>* d; std::vector<float>* dW; const std::vector<float>* W; };
  const Proj projs[3] = {{&dq_, &dWq_, &Wq_}, {&dk_, &dWk_, &Wk_}, {&dv_, &dWv_, &Wv_}};
  for (const Proj& p : projs) {
    dense::transpose(N, D, p.d->data(), chunkT_.data());
    matmul(D, N, D, chunkT_.data(), x0_.data(), p.dW->data());
    dense::gemm_acc(N, D, D, p.d->data(), D, p.W->data(), D, dx0_.data(), D);
  }
  // ---- embeddings: sparse rows of dE, dP summed over the batch
  std::fill(dE_.begin(), dE_.end(), 0.0f);
  kernels::scatter_add(dE_.data(), D, inputs.data(), N, dx0_.data(), escale);
  touched_.assign(inputs.begin(), inputs.end());
  std::sort(touched_.begin(), touched_.end());
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  pos_->backward_additive(dx0_.data(), B);
  // ---- head gradient (V, D) = dHT^T
  if (c_.tie_head) {
    tmpT_.resize(V * D);
    dense::transpose(D, V, dHT_.data(), tmpT_.data());
    kernels::axpy(V * D, 1.0f, tmpT_.data(), dE_.data());
    touched_.resize(V);
    for (size_t r = 0; r < V; ++r) touched_[r] = static_cast<int32_t>(r);
  } else {
    dense::transpose(D, V, dHT_.data(), dH_.data());
  }
  return mean;
}

}  // namespace embedlab
