// The positional-encoding registry: every kind the engine knows, listed once (registry.cpp),
// each defined in its own file in this folder. The next-token model, the CLI (`--pos`,
// `posenc --kind`, the per-kind flags), the bindings (`M.positionalKinds()`) and the page (its
// selects, help text, URL values and the "compare encodings" run) all iterate over this list;
// nothing else names a kind.
//
// A kind declares its name, a one-line description, its parameters (name, default, range) and
// what it provides to the model:
//   additive  a (T, D) table added to the scaled token rows        x0 = E[ids] s + P
//   rotation  a rotation of the queries and keys per position      q, k <- R_p q, R_p k
//   bias      a bias on the attention logits per head              S[h, i, j] += b_h(i, j)
//   none      nothing (the model sees no order but the causal mask)
// with the forward and backward pass of that part (PositionEncoding below), and the table that
// `posenc` prints and the page draws: (T, D) for additive and rotation kinds, (H, T, T) for
// bias kinds (causal: -inf above the diagonal).
//
// Shapes: T positions (the context), D model width, H heads (the model has one), N = B*T rows.
//
// Intended usage:
//   const PositionKind& k = find_position_kind("rope");           // throws for unknown names
//   PositionValues v = k.resolve("next-token", {{"base", 500}});    // defaults filled, ranges checked
//   MemoryPlan p("next-token");  k.plan(p, {T, D, 1}, v, 2);  p.check();
//   Generator g(seed);  auto enc = k.make({T, D, 1}, v, g);        // draws its parameters from g
//   enc->rotate(q, B, false);  ...  enc->rotate(dq, B, true);       // model forward / backward
//   PositionTable t = k.table({T, D, 1}, v, g);                    // what `posenc` prints
//
// To add a kind: one file here that defines `const PositionKind& <name>_positions()`, one line
// in registry.cpp, its tests and its docs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/memory.hpp"
#include "core/rng.hpp"

namespace embedlab {

// The largest position any encoding accepts (keeps angle reduction exact).
inline constexpr int64_t kMaxPositions = 1 << 20;

// A trainable tensor and its gradient, for the optimizer and the gradient checks.
struct ParamView {
  const char* name;
  float* data;
  float* grad;
  size_t size;
  int64_t rows, cols;
};

enum class PositionRole { None, Additive, Rotation, Bias };
// "none", "additive", "rotation", "bias"
const char* position_role_name(PositionRole r);

// One parameter of a kind. Its CLI flag is --<kind>-<name with '_' as '-'> (--alibi-slope), its
// JS option <kind><CamelName> (alibiSlope) or posParams.<name>, its URL key <kind>.<name>.
struct PositionParam {
  const char* name;  // snake_case: "num_buckets"
  double def, min, max;
  bool integer;
  const char* help;  // one line
};

// Parameter values by name (defaults filled in by PositionKind::resolve).
using PositionValues = std::map<std::string, double>;

struct PositionShape {
  int64_t T = 0;      // positions
  int64_t D = 0;      // model width (additive and rotation kinds)
  int64_t heads = 1;  // attention heads (bias kinds)
};

// A table as printed by `posenc`: shape (T, D) or (H, T, T), row-major float32.
struct PositionTable {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

// A kind's part of one model. Every hook has a default that does nothing, so a kind overrides
// only what it provides.
class PositionEncoding {
 public:
  virtual ~PositionEncoding() = default;
  // additive: the (T, D) table added to the scaled token rows; nullptr otherwise.
  virtual const float* additive() const { return nullptr; }
  // rotation: x (rows, T, D) rotated in place; inverse rotates back (R^T), which is the
  // backward pass of a rotation.
  virtual void rotate(float* /*x*/, int64_t /*rows*/, bool /*inverse*/) const {}
  // rotation: the factor on the attention logits q.k (1 except rope-yarn); the model applies it
  // on top of its 1/sqrt(D).
  virtual double attention_scale() const { return 1.0; }
  // bias: row i of head h's scaled scores (T values) gets b_h(i, j) added for j <= i.
  virtual void add_bias(int64_t /*h*/, int64_t /*i*/, float* /*scores*/) const {}
  // Backward. zero_grad clears the gradients; backward_additive takes dL/dx0 (rows, T, D);
  // backward_bias takes dL/dS of one sequence and head (T, T), where S are the biased scores,
  // and accumulates.
  virtual void zero_grad() {}
  virtual void backward_additive(const float* /*dx0*/, int64_t /*rows*/) {}
  virtual void backward_bias(int64_t /*h*/, const float* /*dS*/) {}
  // Trainable tensors with their gradients (empty: nothing to train).
  virtual std::vector<ParamView> params() { return {}; }
  // The kind's own table of this model, as Trainer.table('position') returns it: additive kinds
  // their (T, D) table, trainable bias kinds their parameters; empty otherwise.
  virtual const std::vector<float>* table(int64_t* /*rows*/, int64_t* /*cols*/) const { return nullptr; }
};

struct PositionKind {
  const char* name;         // "rope": URL value, --pos, JS pos
  const char* label;        // "RoPE": for the page's selects
  const char* description;  // one line
  PositionRole provides;
  std::vector<PositionParam> params;
  bool trainable = false;  // the model learns parameters of this kind
  bool even_dim = false;   // needs an even D
  // The model can run on windows longer than the context it was made for (its parameters do
  // not depend on T); false for tables with one row per position.
  bool extrapolates = true;

  // Buffers make() allocates for a model: tables, their gradients and `moments` optimizer
  // buffers per trainable tensor (0 for SGD, 2 for Adam).
  void (*plan)(MemoryPlan& p, const PositionShape& s, const PositionValues& v, int moments) = nullptr;
  // The kind's part of a model; trainable parameters are drawn from g (the model calls this
  // right after drawing the token table, as torch modules draw in order of construction).
  std::unique_ptr<PositionEncoding> (*make)(const PositionShape& s, const PositionValues& v, Generator& g) = nullptr;
  // The table `posenc` prints: (T, D), or (heads, T, T) for bias kinds. Throws for "none".
  PositionTable (*draw)(const PositionShape& s, const PositionValues& v, Generator& g) = nullptr;
  // Rotation kinds: each pair's effective frequency, D -> (D/2) (a pair with 0 is not rotated),
  // and the factor on the attention logits q.k (nullptr: 1; rope-yarn's (0.1 ln factor + 1)^2).
  // `posenc` prints both; make() builds the model's part from the same functions.
  std::vector<double> (*inv_freq)(int64_t D, const PositionValues& v) = nullptr;
  double (*attention_scale)(const PositionValues& v) = nullptr;

  // values -> every parameter with defaults filled in; throws "<where>: <kind> has no parameter
  // 'x', expected a, b" or "<where>: <kind> <param> 5000 out of range [0, 1000]".
  PositionValues resolve(const char* where, const PositionValues& values) const;
  // Checks T, D and heads for this kind ("<where>: rope positions need an even dimension, got 7").
  void check_shape(const char* where, const PositionShape& s) const;
  PositionTable table(const PositionShape& s, const PositionValues& v, Generator& g) const;
};

// Every kind, in the order the page and the CLI list them.
const std::vector<const PositionKind*>& position_kinds();
// Throws "position kind: unknown kind 'spiral', expected one of none, sinusoidal, ...".
const PositionKind& find_position_kind(const std::string& name);
// "none, sinusoidal, learned, rope, ...": every name, in order
std::string position_kind_names(const char* separator = ", ");

// Shared by the kinds: validates a (T, D) position table and plans it; returns T x D.
size_t check_position_table(const char* where, int64_t T, int64_t D, bool even);
// Shared by the bias kinds: (heads, T, T) with bias(h, i, j) below and on the diagonal and
// -inf above it.
template <class Bias>
PositionTable causal_bias_table(const char* where, int64_t H, int64_t T, Bias bias) {
  check_position_table(where, T, 1, false);
  PositionTable t{{H, T, T}, std::vector<float>(plan(where, "bias tensor", {H, T, T}, kFloat32))};
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < T; ++i)
      for (int64_t j = 0; j < T; ++j) t.data[(h * T + i) * T + j] = j <= i ? bias(h, i, j) : neg_inf;
  return t;
}

}  // namespace embedlab
