// Bindings for embed/: nn.Embedding (lookup, one-hot x W, sparse and dense backward), Linear,
// the seeded generator (manualSeed) and the lookup benchmark. The JS API is api/embed.post.js.
#include "bindings/common.hpp"

#include "bench/bench.hpp"
#include "embed/embedding.hpp"
#include "embed/linear.hpp"
#include "kernels/kernels.hpp"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// ---- Embedding ---------------------------------------------------------------------------
class EmbeddingHandle {
 public:
  // padding_idx: NaN for none, else an integer in [-V, V) (negative counts from the end)
  bool init(double V, double D, double padding_idx, double max_norm, bool scale) {
    return guard("Embedding", [&] {
      const EmbeddingOptions o = options("Embedding", padding_idx, max_norm, scale);
      e_ = std::make_unique<Embedding>(size_arg("Embedding", "numEmbeddings", V),
                                       size_arg("Embedding", "embeddingDim", D), generator(), o);
      return true;
    });
  }
  bool init_pretrained(val weights, double V, double D, double padding_idx, double max_norm,
                       bool scale, bool freeze) {
    const char* where = "Embedding.fromPretrained";
    return guard(where, [&] {
      const EmbeddingOptions o = options(where, padding_idx, max_norm, scale);
      const int64_t rows = size_arg(where, "numEmbeddings", V), dim = size_arg(where, "embeddingDim", D);
      e_ = std::make_unique<Embedding>(
          Embedding::from_pretrained(copy_in<float>(where, "weights", weights), rows, dim, o, freeze));
      return true;
    });
  }
  double rows() const { return e_ ? static_cast<double>(e_->rows()) : 0; }
  double dim() const { return e_ ? static_cast<double>(e_->dim()) : 0; }
  // the resolved padding row, or -1 for none
  double padding_idx() const {
    return e_ && e_->options().padding_idx ? static_cast<double>(*e_->options().padding_idx) : -1;
  }
  double scale_factor() const { return e_ ? e_->scale_factor() : 1; }
  val weight() const {
    return guard("weight", [&] { return copy_out(live().weight()); });
  }
  // ids (n) -> (n, D)
  val forward(val ids) {
    return guard("lookup", [&] {
      const std::vector<int32_t> v = copy_in<int32_t>("lookup", "ids", ids);  // arguments first, then the table
      return copy_out(live().forward(v));
    });
  }
  // ids (n), positions (T, D) -> (n, D) = W[ids]*s + pos[i % T]
  val forward_with_positions(val ids, val pos, double T) {
    const char* where = "forwardWithPositions";
    return guard(where, [&] {
      const int64_t t = size_arg(where, "positions", T);
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      const std::vector<float> p = copy_in<float>(where, "position table", pos);
      const int64_t D = live().dim();
      if (static_cast<uint64_t>(p.size()) != static_cast<uint64_t>(t) * static_cast<uint64_t>(D)) {
        fail(where, "positions have " + std::to_string(p.size()) + " values, expected " +
                        std::to_string(t) + " x " + std::to_string(D));
      }
      std::vector<float> out(plan(where, "output", {static_cast<int64_t>(v.size()), D}, kFloat32));
      live().forward_with_positions(v, p.data(), static_cast<size_t>(t), out.data());
      return copy_out(out);
    });
  }
  // one_hot(ids, V) @ W computed through a bias-free Linear(V, D) whose weight is W^T.
  val forward_one_hot(val ids) {
    const char* where = "oneHotForward";
    return guard(where, [&] {
      const std::vector<int32_t> v = copy_in<int32_t>(where, "ids", ids);
      live().check_ids(v, where);
      const int64_t n = static_cast<int64_t>(v.size());
      MemoryPlan p(where);
      p.add("one-hot matrix", {n, live().rows()}, kFloat32);
      p.add("weight copy", {live().rows(), live().dim()}, kFloat32);
      p.add("output", {n, live().dim()}, kFloat32);
      p.check();
      const Linear lin = Linear::from_embedding(live());
      return copy_out(lin.forward(one_hot(v, live().rows()), n));
    });
  }
  // {rows: Int32Array, values: Float32Array} or a dense Float32Array (V*D)
  val backward(val ids, val dout, bool sparse) {
    return guard("backward", [&] {
      const std::vector<int32_t> v = copy_in<int32_t>("backward", "ids", ids);
      const std::vector<float> g = copy_in<float>("backward", "dout", dout);
      if (!sparse) return copy_out(live().backward_dense(v, g));
      const SparseGrad sg = live().backward_sparse(v, g);
      val out = val::object();
      out.set("rows", copy_out(sg.rows));
      out.set("values", copy_out(sg.values));
      return out;
    });
  }

 private:
  static EmbeddingOptions options(const char* where, double padding_idx, double max_norm, bool scale) {
    EmbeddingOptions o;
    if (!std::isnan(padding_idx)) o.padding_idx = int32_arg(where, "paddingIdx", padding_idx);
    o.max_norm = float_arg(where, "maxNorm", max_norm);
    o.scale = scale;
    return o;
  }
  Embedding& live() const {
    if (!e_) fail("Embedding", "this table was not created (its constructor failed)");
    return *e_;
  }
  std::unique_ptr<Embedding> e_;
};

// ---- Linear --------------------------------------------------------------------------------
class LinearHandle {
 public:
  bool init(double in, double out) {
    return guard("Linear", [&] {
      l_ = std::make_unique<Linear>(size_arg("Linear", "inFeatures", in),
                                    size_arg("Linear", "outFeatures", out), generator());
      return true;
    });
  }
  double in_features() const { return l_ ? static_cast<double>(l_->in_features()) : 0; }
  double out_features() const { return l_ ? static_cast<double>(l_->out_features()) : 0; }
  val weight() const {
    return guard("Linear.weight", [&] { return copy_out(live().weight()); });
  }
  // x (n * in) -> (n * out)
  val forward(val x, double n) {
    const char* where = "Linear.forward";
    return guard(where, [&] {
      const int64_t rows = size_arg(where, "n", n, 0);
      const std::vector<float> in = copy_in<float>(where, "x", x);
      return copy_out(live().forward(in, rows));
    });
  }

 private:
  Linear& live() const {
    if (!l_) fail("Linear", "this layer was not created (its constructor failed)");
    return *l_;
  }
  std::unique_ptr<Linear> l_;
};

// ---- benchmarks ----------------------------------------------------------------------------
val bench_lookup_js(double V, double D, double B, double T, double reps) {
  const char* where = "benchLookup";
  return guard(where, [&] {
    const LookupBench b = bench_lookup(size_arg(where, "numEmbeddings", V), size_arg(where, "embeddingDim", D),
                                       size_arg(where, "batch", B), size_arg(where, "context", T),
                                       static_cast<int>(int_arg(where, "reps", reps, 1, 1000)));
    return val::global("JSON").call<val>("parse", to_json(b));
  });
}

std::string isa() { return kernels::isa(); }

}  // namespace

EMSCRIPTEN_BINDINGS(embed) {
  using namespace emscripten;
  function("_takeError", &take_error);
  function("_manualSeed", &manual_seed);
  function("_isa", &isa);

  class_<EmbeddingHandle>("_Embedding")
      .constructor<>()
      .function("init", &EmbeddingHandle::init)
      .function("initPretrained", &EmbeddingHandle::init_pretrained)
      .function("rows", &EmbeddingHandle::rows)
      .function("dim", &EmbeddingHandle::dim)
      .function("paddingIdx", &EmbeddingHandle::padding_idx)
      .function("scaleFactor", &EmbeddingHandle::scale_factor)
      .function("weight", &EmbeddingHandle::weight)
      .function("forward", &EmbeddingHandle::forward)
      .function("forwardWithPositions", &EmbeddingHandle::forward_with_positions)
      .function("forwardOneHot", &EmbeddingHandle::forward_one_hot)
      .function("backward", &EmbeddingHandle::backward);

  class_<LinearHandle>("_Linear")
      .constructor<>()
      .function("init", &LinearHandle::init)
      .function("inFeatures", &LinearHandle::in_features)
      .function("outFeatures", &LinearHandle::out_features)
      .function("weight", &LinearHandle::weight)
      .function("forward", &LinearHandle::forward);

  function("_benchLookup", &bench_lookup_js);
}
