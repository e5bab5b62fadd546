// embedlab init | lookup | posenc: tables as JSON, the same numbers as torch.
#include <climits>
#include <ostream>

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

int cmd_init(Args& a, std::ostream& out);
int cmd_lookup(Args& a, std::ostream& out);
int cmd_posenc(Args& a, std::ostream& out);

}  // namespace

const CommandSpec kInit{
    "init",
    "A table initialised as torch.nn.Embedding(V, D) after torch.manual_seed(S): {shape, data}.",
    {{"seed", "S", "the torch seed (default 0)"},
     {"num-embeddings", "V", "rows", true},
     {"embedding-dim", "D", "columns", true},
     {"padding-idx", "P", "a row kept at zero (negative counts from the end, as in torch)"}},
    {},
    cmd_init};

const CommandSpec kLookup{
    "lookup",
    "Rows of the table for --ids, as torch's forward: {shape, data}.",
    {{"seed", "S", "the torch seed (default 0)"},
     {"num-embeddings", "V", "rows", true},
     {"embedding-dim", "D", "columns", true},
     {"ids", "2,3,1", "token ids, comma-separated", true},
     {"scale", nullptr, "multiply by sqrt(D)"},
     {"padding-idx", "P", "a row kept at zero"},
     {"max-norm", "M", "renormalise looked-up rows to at most this norm (0: off)"}},
    {},
    cmd_lookup};

const CommandSpec kPosenc{
    "posenc",
    "A positional-encoding table: {shape, data, kind}; alibi reads --dim as heads and prints (H, T, T).",
    {{"kind", "sinusoidal|learned|rope|alibi", "the encoding", true},
     {"positions", "T", "positions", true},
     {"dim", "D", "width (heads for alibi)", true},
     {"seed", "S", "the seed of learned positions (default 0)"},
     {"base", "10000", "the frequency base of sinusoidal and rope"}},
    {},
    cmd_posenc};

namespace {

int cmd_init(Args& a, std::ostream& out) {
  const TableArgs t = table_args(a);
  EmbeddingOptions opts;
  if (a.has("padding-idx")) opts.padding_idx = a.integer("padding-idx", INT32_MIN, INT32_MAX);
  a.finish();
  Generator g(t.seed);
  Embedding emb(t.V, t.D, g, opts);
  write_table_open(out, {t.V, t.D}, emb.weight());
  out << "}\n";
  return 0;
}

int cmd_lookup(Args& a, std::ostream& out) {
  const TableArgs t = table_args(a);
  EmbeddingOptions opts;
  opts.scale = a.flag("scale");
  if (a.has("padding-idx")) opts.padding_idx = a.integer("padding-idx", INT32_MIN, INT32_MAX);
  opts.max_norm = static_cast<float>(a.number_or("max-norm", 0.0, 0.0, 3.4e38));
  const std::vector<int32_t> ids = a.int_list("ids");
  a.finish();
  Generator g(t.seed);
  Embedding emb(t.V, t.D, g, opts);
  const std::vector<float> rows = emb.forward(ids);
  write_table_open(out, {static_cast<int64_t>(ids.size()), t.D}, rows);
  out << "}\n";
  return 0;
}

int cmd_posenc(Args& a, std::ostream& out) {
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
  write_table_open(out, shape, table);
  out << ",\"kind\":" << json_string(position_kind_name(kind)) << "}\n";
  return 0;
}

}  // namespace
}  // namespace embedlab::cli
