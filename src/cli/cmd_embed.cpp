// embedlab init | lookup | posenc | kinds: tables as JSON, the same numbers as torch, and the
// positional-encoding registry.
#include <climits>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/positions.hpp"
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
int cmd_kinds(Args& a, std::ostream& out);

std::vector<FlagSpec> posenc_flags() {
  std::vector<FlagSpec> f{
      position_kind_flag("kind", "the encoding", true),
      {"positions", "T", "positions", true},
      {"dim", "D", "width (heads for kinds that provide an attention bias)", true},
      {"seed", "S", "the seed of learned tables (default 0)"},
      {"base", "10000", "the frequency base of the kinds that have one"}};
  const std::vector<FlagSpec> p = position_param_flags();
  f.insert(f.end(), p.begin(), p.end());
  return f;
}

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
    "A positional-encoding table: {shape, data, kind, params}; (T, D), or (H, T, T) for attention-bias kinds (--dim is H).",
    posenc_flags(),
    {},
    cmd_posenc};

const CommandSpec kKinds{
    "kinds",
    "The registry: every positional-encoding kind with its description, parameters and what it provides.",
    {},
    {},
    cmd_kinds};

namespace {

int cmd_init(Args& a, std::ostream& out) {
  const TableArgs t = table_args(a);
  EmbeddingOptions opts;
  if (a.has("padding-idx")) opts.padding_idx = a.integer("padding-idx", INT32_MIN, INT32_MAX);
  a.finish();
  check_printed_values("init", "the table", {t.V, t.D});
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
  check_printed_values("lookup", "the rows", {static_cast<int64_t>(ids.size()), t.D});
  Generator g(t.seed);
  Embedding emb(t.V, t.D, g, opts);
  const std::vector<float> rows = emb.forward(ids);
  write_table_open(out, {static_cast<int64_t>(ids.size()), t.D}, rows);
  out << "}\n";
  return 0;
}

int cmd_posenc(Args& a, std::ostream& out) {
  const PositionKind& kind = find_position_kind(a.text("kind"));
  const int64_t T = a.integer("positions", 0, kMaxPositions);
  const int64_t D = a.integer("dim", 1, INT32_MAX);
  const uint64_t seed = static_cast<uint64_t>(a.integer_or("seed", 0, 0, INT64_MAX));
  PositionValues values = position_values(a, kind, "kind");
  if (a.has("base")) {
    const double base = a.number_or("base", 10000.0, 1.0, 1e12);
    std::string with_base;  // the kinds that have a frequency base
    for (const PositionKind* k : position_kinds()) {
      for (const PositionParam& p : k->params) {
        if (std::string(p.name) == "base") with_base += (with_base.empty() ? "" : ", ") + std::string(k->name);
      }
    }
    if (!kind.resolve("posenc", {}).count("base")) {
      fail("--base", "applies to " + with_base + ", not --kind " + kind.name);
    }
    values["base"] = base;
  }
  a.finish();
  if (!kind.draw) fail("posenc", std::string("kind '") + kind.name + "' has no table");
  Generator g(seed);
  const bool bias = kind.provides == PositionRole::Bias;  // --dim is the number of heads
  if (bias) check_printed_values("posenc", "the table", {D, T, T});
  else check_printed_values("posenc", "the table", {T, D});
  const PositionTable t = kind.table({T, bias ? 0 : D, bias ? D : 1}, values, g);
  write_table_open(out, t.shape, t.data);
  if (kind.inv_freq) {  // rotation kinds: each pair's frequency, and the factor on q.k
    const PositionValues v = kind.resolve("posenc", values);
    const std::vector<double> w = kind.inv_freq(D, v);
    out << ",\"inv_freq\":[";
    for (size_t i = 0; i < w.size(); ++i) out << (i ? "," : "") << json_number(w[i]);
    out << "],\"attention_scale\":" << json_number(kind.attention_scale ? kind.attention_scale(v) : 1.0);
  }
  out << ",\"kind\":" << json_string(kind.name) << ",\"params\":" << json_object(kind.resolve("posenc", values)) << "}\n";
  return 0;
}

int cmd_kinds(Args& a, std::ostream& out) {
  a.finish();
  out << "{\"positional\":[";
  bool first = true;
  for (const PositionKind* k : position_kinds()) {
    out << (first ? "" : ",") << "{\"name\":" << json_string(k->name) << ",\"label\":" << json_string(k->label)
        << ",\"description\":" << json_string(k->description)
        << ",\"provides\":" << json_string(position_role_name(k->provides))
        << ",\"trainable\":" << (k->trainable ? "true" : "false") << ",\"even_dim\":" << (k->even_dim ? "true" : "false")
        << ",\"extrapolates\":" << (k->extrapolates ? "true" : "false")
        << ",\"params\":[";
    for (size_t i = 0; i < k->params.size(); ++i) {
      const PositionParam& p = k->params[i];
      out << (i ? "," : "") << "{\"name\":" << json_string(p.name) << ",\"default\":" << json_number(p.def)
          << ",\"min\":" << json_number(p.min) << ",\"max\":" << json_number(p.max)
          << ",\"integer\":" << (p.integer ? "true" : "false") << ",\"help\":" << json_string(p.help) << "}";
    }
    out << "]}";
    first = false;
  }
  out << "]}\n";
  return 0;
}

}  // namespace
}  // namespace embedlab::cli
