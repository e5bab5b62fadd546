// embedlab init | lookup | posenc: tables as JSON, the same numbers as torch.
#include <climits>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/error.hpp"
#include "embed/embedding.hpp"
#include "embed/positional.hpp"

namespace embedlab::cli {
namespace {

struct TableArgs {
  uint64_t seed;
  int64_t V, D;
};

TableArgs table_args(Args& a) {
  TableArgs t;
  t.seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  t.V = a.integer("num-embeddings", 1, INT32_MAX);
  t.D = a.integer("embedding-dim", 1, INT32_MAX);
  return t;
}

}  // namespace

int cmd_init(Args& a) {
  const TableArgs t = table_args(a);
  EmbeddingOptions opts;
  if (a.has("padding-idx")) opts.padding_idx = a.integer("padding-idx", INT32_MIN, INT32_MAX);
  a.finish();
  Generator g(t.seed);
  Embedding emb(t.V, t.D, g, opts);
  write_table_open(std::cout, {t.V, t.D}, emb.weight());
  std::cout << "}\n";
  return 0;
}

int cmd_lookup(Args& a) {
  const TableArgs t = table_args(a);
  EmbeddingOptions opts;
  opts.scale = a.flag("scale");
  if (a.has("padding-idx")) opts.padding_idx = a.integer("padding-idx", INT32_MIN, INT32_MAX);
  opts.max_norm = static_cast<float>(a.number_or("max-norm", 0.0, 0.0, 3.4e38));
  const std::vector<int32_t> ids = a.int_list("ids");
  a.finish();
  Generator g(t.seed);
  Embedding emb(t.V, t.D, g, opts);
  const std::vector<float> out = emb.forward(ids);
  write_table_open(std::cout, {static_cast<int64_t>(ids.size()), t.D}, out);
  std::cout << "}\n";
  return 0;
}

int cmd_posenc(Args& a) {
  const PositionKind kind = parse_position_kind(a.text("kind"));
  const int64_t T = a.integer("positions", 0, kMaxPositions);
  const int64_t D = a.integer("dim", 1, INT32_MAX);
  const uint64_t seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  const double base = a.number_or("base", 10000.0, 1.0, 1e12);
  a.finish();
  std::vector<float> table;
  std::vector<int64_t> shape{T, D};
  switch (kind) {
    case PositionKind::Sinusoidal: table = sinusoidal(T, D, base); break;
    case PositionKind::Learned: {
      Generator g(seed);
      table = LearnedPositions(T, D, g).table();
      break;
    }
    case PositionKind::Rope: table = rope_table(T, D, base); break;
    case PositionKind::Alibi: {
      // --dim is the number of heads here: (H, T, T) causal biases.
      table = alibi_bias(D, T);
      shape = {D, T, T};
      break;
    }
    case PositionKind::None: fail("posenc", "kind 'none' has no table; use sinusoidal, learned, rope or alibi");
  }
  write_table_open(std::cout, shape, table);
  std::cout << ",\"kind\":" << json_string(position_kind_name(kind)) << "}\n";
  return 0;
}

}  // namespace embedlab::cli
