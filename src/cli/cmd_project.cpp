// embedlab neighbours | analogy | pca: inspect a trained table (the .npy `embedlab train --out`
// writes, optionally with the metadata.tsv `--out-tsv` writes for labels).
//
// neighbours --table T.npy (--id N | --word W) [--vocab metadata.tsv] [--k 10] [--metric cosine|euclidean]
//   -> {"metric":"cosine","query":{"id":N,"label":W},"neighbours":[{"id","score","label"},...]}
// analogy --table T.npy --positive a,b [--negative c] [--vocab metadata.tsv] [--k 10]
//   ids, or words when --vocab is given: king - man + woman is --positive king,woman --negative man
// pca --table T.npy [--k 2] [--ids 1,2,3]
//   -> {"n","k","dim","solver","explained":[...],"variance":[...],"components":{shape,data},"points":{shape,data}}
// It does not train or write tables (see cmd_train.cpp).
#include <climits>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/error.hpp"
#include "project/neighbours.hpp"
#include "project/pca.hpp"
#include "project/table_file.hpp"

namespace embedlab::cli {

namespace {

struct Loaded {
  NpyTable table;
  std::vector<std::string> labels;  // empty without --vocab
};

Loaded load(Args& a, const char* where) {
  Loaded l;
  l.table = read_npy(a.text("table"));
  const std::string vocab = a.text_or("vocab", "");
  if (!vocab.empty()) {
    l.labels = read_labels(vocab);
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

void write_neighbours(const Loaded& l, const Neighbours& n) {
  std::cout << "\"neighbours\":[";
  for (size_t i = 0; i < n.ids.size(); ++i) {
    std::cout << (i ? "," : "") << "{\"id\":" << n.ids[i] << ",\"score\":" << json_number(n.scores[i]);
    if (!l.labels.empty()) std::cout << ",\"label\":" << json_string(l.labels[static_cast<size_t>(n.ids[i])]);
    std::cout << "}";
  }
  std::cout << "]";
}

}  // namespace

int cmd_neighbours(Args& a) {
  const Loaded l = load(a, "neighbours");
  const int64_t k = a.integer_or("k", 10, 1, INT32_MAX);
  const Metric metric = parse_metric(a.text_or("metric", "cosine"));
  int32_t id;
  if (a.has("word")) {
    if (l.labels.empty()) fail("neighbours", "--word needs --vocab metadata.tsv to look words up");
    id = row_of(l, a.text("word"), "neighbours");
  } else {
    id = static_cast<int32_t>(a.integer("id", 0, l.table.rows - 1));
  }
  a.finish();
  const NeighbourIndex index(l.table.data, l.table.rows, l.table.cols);
  const Neighbours n = index.nearest(id, k, metric);
  std::cout << "{\"metric\":" << json_string(metric_name(metric)) << ",\"query\":{\"id\":" << id;
  if (!l.labels.empty()) std::cout << ",\"label\":" << json_string(l.labels[static_cast<size_t>(id)]);
  std::cout << "},";
  write_neighbours(l, n);
  std::cout << "}\n";
  return 0;
}

int cmd_analogy(Args& a) {
  const Loaded l = load(a, "analogy");
  const int64_t k = a.integer_or("k", 10, 1, INT32_MAX);
  const std::vector<int32_t> pos = rows_of(l, a, "positive", "analogy");
  const std::vector<int32_t> neg = rows_of(l, a, "negative", "analogy");
  a.finish();
  const NeighbourIndex index(l.table.data, l.table.rows, l.table.cols);
  const Neighbours n = index.analogy(pos, neg, k);
  std::cout << "{\"metric\":\"cosine\",\"positive\":";
  write_ints(std::cout, pos);
  std::cout << ",\"negative\":";
  write_ints(std::cout, neg);
  std::cout << ",";
  write_neighbours(l, n);
  std::cout << "}\n";
  return 0;
}

int cmd_pca(Args& a) {
  const NpyTable t = read_npy(a.text("table"));
  PcaOptions o;
  o.k = a.integer_or("k", 2, INT32_MIN, INT32_MAX);  // pca() names the valid range
  std::vector<int32_t> ids;
  if (a.has("ids")) ids = a.int_list("ids");
  o.ids = ids;
  a.finish();
  const PcaResult r = pca(t.data, t.rows, t.cols, o);
  std::cout << "{\"n\":" << r.n << ",\"k\":" << r.k << ",\"dim\":" << r.dim << ",\"solver\":"
            << json_string(r.solver == PcaSolver::Krylov ? "krylov" : "exact") << ",\"explained\":[";
  for (int64_t c = 0; c < r.k; ++c) std::cout << (c ? "," : "") << json_number(r.explained[c]);
  std::cout << "],\"variance\":[";
  for (int64_t c = 0; c < r.k; ++c) std::cout << (c ? "," : "") << json_number(r.variance[c]);
  std::cout << "],\"components\":";
  write_table_open(std::cout, {r.k, r.dim}, r.components);
  std::cout << "},\"points\":";
  write_table_open(std::cout, {r.n, r.k}, r.points);
  std::cout << "}}\n";
  return 0;
}

}  // namespace embedlab::cli
