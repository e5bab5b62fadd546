#include "embed/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/kernels.hpp"

namespace embedlab {
namespace {

std::optional<int64_t> resolve_padding(std::optional<int64_t> padding, int64_t V) {
  if (!padding) return std::nullopt;
  // torch: padding_idx in [-V, V); negative values count from the end.
  const int64_t padding_idx = *padding;
  if (padding_idx < -V || padding_idx >= V) {
    fail("Embedding", "padding_idx " + std::to_string(padding_idx) + " out of range [" +
                          std::to_string(-V) + ", " + std::to_string(V) + ")");
  }
  return padding_idx < 0 ? padding_idx + V : padding_idx;
}

// rows * cols == n, in 64 bits (false for a negative factor or a product past 64 bits).
bool is_product(uint64_t n, int64_t rows, int64_t cols) {
  uint64_t p = 0;
  return rows >= 0 && cols >= 0 &&
         !__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), &p) && p == n;
}

}  // namespace

Embedding::Embedding(int64_t V, int64_t D, const EmbeddingOptions& opts) : V_(V), D_(D), opts_(opts) {
  check_at_least("Embedding", "num_embeddings", V, 1);
  check_at_least("Embedding", "embedding_dim", D, 1);
  if (!(opts.max_norm >= 0.0f) || !std::isfinite(opts.max_norm)) {
    fail("Embedding", "max_norm must be a finite number >= 0, got " + format_number(opts.max_norm));
  }
  if (!(opts.norm_type > 0.0f) || !std::isfinite(opts.norm_type)) {
    fail("Embedding", "norm_type must be a finite number > 0, got " + format_number(opts.norm_type));
  }
  const size_t n = plan("Embedding", "table", {V, D}, kFloat32);
  opts_.padding_idx = resolve_padding(opts.padding_idx, V);
  W_.assign(n, 0.0f);
}

Embedding::Embedding(int64_t V, int64_t D, Generator& g, const EmbeddingOptions& opts)
    : Embedding(V, D, opts) {
  g.normal(W_.data(), W_.size());
  if (opts_.padding_idx) {
    std::fill_n(W_.begin() + *opts_.padding_idx * D_, D_, 0.0f);
  }
}

Embedding Embedding::from_pretrained(std::vector<float> weights, int64_t V, int64_t D,
                                     const EmbeddingOptions& opts, bool freeze) {
  Embedding e(V, D, opts);
  if (weights.size() != e.W_.size()) {
    fail("Embedding.from_pretrained", "weights have " + std::to_string(weights.size()) +
                                          " values, expected " + std::to_string(V) + " x " +
                                          std::to_string(D) + " = " + std::to_string(e.W_.size()));
  }
  e.W_ = std::move(weights);
  e.frozen_ = freeze;
  return e;
}

float Embedding::scale_factor() const {
  return opts_.scale ? static_cast<float>(std::sqrt(static_cast<double>(D_))) : 1.0f;
}

std::span<const float> Embedding::row(int64_t id) const {
  check_index("Embedding.row", "token id", id, 0, V_);
  return {W_.data() + id * D_, static_cast<size_t>(D_)};
}

void Embedding::check_ids(std::span<const int32_t> ids, const char* where) const {
  for (int32_t id : ids) check_index(where, "token id", id, 0, V_);
}

void Embedding::renorm(std::span<const int32_t> ids) {
  if (opts_.max_norm <= 0.0f) return;
  plan("lookup", "ids to renormalise", static_cast<int64_t>(ids.size()), kInt32);
  std::vector<int32_t> unique(ids.begin(), ids.end());
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  const double p = opts_.norm_type;
  for (int32_t id : unique) {
    float* r = W_.data() + static_cast<size_t>(id) * D_;
    double norm = 0.0;
    if (p == 2.0) {
      norm = std::sqrt(static_cast<double>(kernels::dot(D_, r, r)));
    } else {
      // subtle: a general p-norm needs pow; exp(p log a) from detmath keeps builds bit-identical.
      double acc = 0.0;
      for (int64_t j = 0; j < D_; ++j) {
        const double a = std::fabs(static_cast<double>(r[j]));
        if (a > 0) acc += detmath::exp(p * detmath::log(a));
      }
      norm = acc > 0 ? detmath::exp(detmath::log(acc) / p) : 0.0;
    }
    if (norm > opts_.max_norm) {
      const float s = static_cast<float>(opts_.max_norm / (norm + 1e-7));
      kernels::scale(D_, s, r, r);
    }
  }
}

void Embedding::forward(std::span<const int32_t> ids, float* out) {
  forward_with_positions(ids, nullptr, 0, out);
}

std::vector<float> Embedding::forward(std::span<const int32_t> ids) {
  // ids are checked by forward_with_positions
  std::vector<float> out(plan("lookup", "output", {static_cast<int64_t>(ids.size()), D_}, kFloat32));
  forward(ids, out.data());
  return out;
}

std::vector<float> Embedding::forward_with_positions(std::span<const int32_t> ids,
                                                     std::span<const float> pos, int64_t T) {
  check_at_least("lookup", "position rows", T, 1);
  if (!is_product(pos.size(), T, D_)) {
    fail("lookup", "positions have " + std::to_string(pos.size()) + " values, expected " +
                       std::to_string(T) + " x " + std::to_string(D_));
  }
  std::vector<float> out(plan("lookup", "output", {static_cast<int64_t>(ids.size()), D_}, kFloat32));
  forward_with_positions(ids, pos.data(), static_cast<size_t>(T), out.data());
  return out;
}

void Embedding::forward_with_positions(std::span<const int32_t> ids, const float* pos, size_t T,
                                       float* out) {
  check_ids(ids, "lookup");
  if (pos && T == 0) fail("lookup", "a position table needs at least 1 row, got 0");
  renorm(ids);
  kernels::gather_scale_add(out, W_.data(), D_, ids.data(), ids.size(), scale_factor(), pos, T);
}

void Embedding::check_backward(std::span<const int32_t> ids, std::span<const float> dout,
                               const char* where) const {
  if (frozen_) fail(where, "the table is frozen (from_pretrained with freeze); it has no gradient");
  check_ids(ids, where);
  if (!is_product(dout.size(), static_cast<int64_t>(ids.size()), D_)) {
    fail(where, "dout has " + std::to_string(dout.size()) + " values, expected " +
                    std::to_string(ids.size()) + " x " + std::to_string(D_));
  }
}

SparseGrad Embedding::backward_sparse(std::span<const int32_t> ids,
                                      std::span<const float> dout) const {
  check_backward(ids, dout, "backward");
  const int64_t n = static_cast<int64_t>(ids.size());
  MemoryPlan p("backward");
  p.add("gradient rows", {n}, kInt32);
  p.add("row slots", {n}, kInt32);
  p.check();
  SparseGrad g;
  g.rows.assign(ids.begin(), ids.end());
  std::sort(g.rows.begin(), g.rows.end());
  g.rows.erase(std::unique(g.rows.begin(), g.rows.end()), g.rows.end());
  if (opts_.padding_idx) {
    auto it = std::lower_bound(g.rows.begin(), g.rows.end(), static_cast<int32_t>(*opts_.padding_idx));
    if (it != g.rows.end() && *it == *opts_.padding_idx) g.rows.erase(it);
  }
  // row id -> slot in values
  std::vector<int32_t> slot(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = std::lower_bound(g.rows.begin(), g.rows.end(), ids[i]);
    slot[i] = (it != g.rows.end() && *it == ids[i]) ? static_cast<int32_t>(it - g.rows.begin()) : -1;
  }
  g.values.assign(plan("backward", "row gradients", {static_cast<int64_t>(g.rows.size()), D_}, kFloat32), 0.0f);
  const float s = scale_factor();
  for (size_t i = 0; i < ids.size(); ++i) {
    if (slot[i] < 0) continue;  // padding row
    kernels::scatter_add(g.values.data(), D_, &slot[i], 1, dout.data() + i * D_, s);
  }
  return g;
}

std::vector<float> Embedding::backward_dense(std::span<const int32_t> ids,
                                             std::span<const float> dout) const {
  const SparseGrad sg = backward_sparse(ids, dout);
  std::vector<float> g(plan("backward", "dense gradient", {V_, D_}, kFloat32), 0.0f);
  for (size_t k = 0; k < sg.rows.size(); ++k) {
    std::copy_n(sg.values.data() + k * D_, D_, g.data() + static_cast<size_t>(sg.rows[k]) * D_);
  }
  return g;
}

}  // namespace embedlab
