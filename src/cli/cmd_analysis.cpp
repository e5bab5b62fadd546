// embedlab neighbours | analogy | pca: inspect a table: the .npy `embedlab train --out` writes
// (optionally with the metadata.tsv `--out-tsv` writes for labels), or any format
// io/formats.hpp reads, PATH:TENSOR picking a safetensors tensor; word2vec and GloVe files
// bring their words as labels (--vocab replaces them).
//
// neighbours --table T.npy (--id N | --word W) [--vocab metadata.tsv] [--k 10] [--metric cosine|euclidean]
//   -> {"metric":"cosine","query":{"id":N,"label":W},"neighbours":[{"id","score","label"},...]}
// analogy --table T.npy --positive a,b [--negative c] [--vocab metadata.tsv] [--k 10]
//   ids, or words when --vocab is given: king - man + woman is --positive king,woman --negative man
// pca --table T.npy [--k 2] [--ids 1,2,3]
//   -> {"n","k","dim","solver","explained":[...],"variance":[...],"components":{shape,data},"points":{shape,data}}
// It does not train or write tables (see cmd_train.cpp).
#include <climits>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/file.hpp"
#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"
#include "io/projector_tsv.hpp"

namespace embedlab::cli {

namespace {

struct Loaded {
  ImportedTable table;
  std::vector<std::string> labels;  // --vocab's, else the file's own (word2vec, GloVe), else empty
};

Loaded load(Args& a, const char* where) {
  Loaded l;
  l.table = load_table_arg(a.text("table"));
  l.labels = l.table.labels;
  if (a.has("vocab")) {
    const std::string vocab = a.text("vocab");
    l.labels = parse_labels(read_file("--vocab", vocab));
    if (static_cast<int64_t>(l.labels.size()) != l.table.rows) {
      fail(where, vocab + " has " + std::to_string(l.labels.size()) + " labels for a table of " +
                      std::to_string(l.table.rows) + " rows");
    }
  }
  return l;
}

int32_t row_of(const Loaded& l, const std::string& word, const char* where) {
  for (size_t i = 0; i < l.labels.size(); ++i) {
    if (l.labels[i] == word) return static_cast<int32_t>(i);
  }
  fail(where, "word '" + word + "' is not in the vocabulary (" + std::to_string(l.labels.size()) + " labels)");
}

// "a,b,c" -> rows: words through the labels, else integers.
std::vector<int32_t> rows_of(const Loaded& l, Args& a, const std::string& flag, const char* where) {
  if (!a.has(flag)) return {};
  if (l.labels.empty()) return a.int_list(flag);
  const std::string s = a.text(flag);
  std::vector<int32_t> out;
  size_t p = 0;
  while (p <= s.size()) {
    size_t e = s.find(',', p);
    if (e == std::string::npos) e = s.size();
    if (e > p) out.push_back(row_of(l, s.substr(p, e - p), where));
    p = e + 1;
  }
  return out;
}

void write_neighbours(std::ostream& out, const Loaded& l, const Neighbours& n) {
  out << "\"neighbours\":[";
  for (size_t i = 0; i < n.ids.size(); ++i) {
    out << (i ? "," : "") << "{\"id\":" << n.ids[i] << ",\"score\":" << json_number(n.scores[i]);
    if (!l.labels.empty()) out << ",\"label\":" << json_string(l.labels[static_cast<size_t>(n.ids[i])]);
    out << "}";
  }
  out << "]";
}

int cmd_neighbours(Args& a, std::ostream& out) {
  const Loaded l = load(a, "neighbours");
  const int64_t k = a.integer_or("k", 10, 1, INT32_MAX);
  const Metric metric = parse_metric(a.text_or("metric", "cosine"));
  if (a.has("id") == a.has("word")) fail("neighbours", "give the query as --id N or as --word W (with --vocab), one of them");
  int32_t id;
  if (a.has("word")) {
    if (l.labels.empty()) fail("neighbours", "--word needs --vocab metadata.tsv (or a table with words) to look words up");
    id = row_of(l, a.text("word"), "neighbours");
  } else {
    id = static_cast<int32_t>(a.integer("id", 0, l.table.rows - 1));
  }
  a.finish();
  const NeighbourIndex index(l.table.data, l.table.rows, l.table.cols);
  const Neighbours n = index.nearest(id, k, metric);
  out << "{\"metric\":" << json_string(metric_name(metric)) << ",\"query\":{\"id\":" << id;
  if (!l.labels.empty()) out << ",\"label\":" << json_string(l.labels[static_cast<size_t>(id)]);
  out << "},";
  write_neighbours(out, l, n);
  out << "}\n";
  return 0;
}

int cmd_analogy(Args& a, std::ostream& out) {
  const Loaded l = load(a, "analogy");
  const int64_t k = a.integer_or("k", 10, 1, INT32_MAX);
  const std::vector<int32_t> pos = rows_of(l, a, "positive", "analogy");
  const std::vector<int32_t> neg = rows_of(l, a, "negative", "analogy");
  a.finish();
  const NeighbourIndex index(l.table.data, l.table.rows, l.table.cols);
  const Neighbours n = index.analogy(pos, neg, k);
  out << "{\"metric\":\"cosine\",\"positive\":";
  write_ints(out, pos);
  out << ",\"negative\":";
  write_ints(out, neg);
  out << ",";
  write_neighbours(out, l, n);
  out << "}\n";
  return 0;
}

int cmd_pca(Args& a, std::ostream& out) {
  const ImportedTable t = load_table_arg(a.text("table"));
  PcaOptions o;
  o.k = a.integer_or("k", 2, INT32_MIN, INT32_MAX);  // pca() names the valid range
  std::vector<int32_t> ids;
  if (a.has("ids")) ids = a.int_list("ids");
  o.ids = ids;
  a.finish();
  // points (n, k) and components (k, dim)
  if (o.k > 0) check_printed_values("pca", "the points and components", {(ids.empty() ? t.rows : static_cast<int64_t>(ids.size())) + t.cols, o.k});
  const PcaResult r = pca(t.data, t.rows, t.cols, o);
  out << "{\"n\":" << r.n << ",\"k\":" << r.k << ",\"dim\":" << r.dim << ",\"solver\":"
            << json_string(pca_solver_name(r.solver)) << ",\"explained\":[";
  for (int64_t c = 0; c < r.k; ++c) out << (c ? "," : "") << json_number(r.explained[c]);
  out << "],\"variance\":[";
  for (int64_t c = 0; c < r.k; ++c) out << (c ? "," : "") << json_number(r.variance[c]);
  out << "],\"components\":";
  write_table_open(out, {r.k, r.dim}, r.components);
  out << "},\"points\":";
  write_table_open(out, {r.n, r.k}, r.points);
  out << "}}\n";
  return 0;
}

}  // namespace

const CommandSpec kNeighbours{
    "neighbours",
    "The k rows nearest to one row of a table: {metric, query, neighbours: [{id, score, label}]}.",
    {{"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
     {"id", "N", "the query row"},
     {"word", "W", "the query word (with --vocab)"},
     {"vocab", "metadata.tsv", "one label per row, as train --out-tsv writes it"},
     {"k", "10", "how many neighbours"},
     {"metric", "cosine|euclidean", "the distance (default cosine)"}},
    {},
    cmd_neighbours};

const CommandSpec kAnalogy{
    "analogy",
    "gensim's most_similar(positive, negative): king - man + woman is --positive king,woman --negative man.",
    {{"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
     {"positive", "a,b", "rows (or words with --vocab) to add"},
     {"negative", "c", "rows (or words with --vocab) to subtract"},
     {"vocab", "metadata.tsv", "one label per row"},
     {"k", "10", "how many answers"}},
    {},
    cmd_analogy};

const CommandSpec kPca{
    "pca",
    "PCA of a table's rows: {n, k, dim, solver, explained, variance, components, points}.",
    {{"table", "T.npy", "the table: .npy, .safetensors (PATH:TENSOR), vectors.tsv, word2vec .txt/.bin, GloVe", true},
     {"k", "2", "components"},
     {"ids", "1,2,3", "only these rows (default all)"}},
    {},
    cmd_pca};

}  // namespace embedlab::cli
