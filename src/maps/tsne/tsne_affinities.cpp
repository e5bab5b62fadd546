// t-SNE's input side (see tsne.hpp): exact nearest neighbours by blocked products, the
// perplexity calibration of each row, and the symmetrised sparse P.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "kernels/dense.hpp"
#include "kernels/kernels.hpp"
#include "maps/tsne/tsne.hpp"

namespace embedlab {

namespace {

constexpr int64_t kBlockRows = 64;    // rows of one product block
constexpr int64_t kBlockCols = 512;   // columns of one product block
constexpr int kMaxSearchSteps = 200;  // bhtsne's cap on the binary search
constexpr int64_t kCalibrationRows = 16;  // rows of one calibration block on the pool

// (distance, id), ordered by distance then id: a total order, so the K nearest are one set
// whatever order the candidates arrive in.
struct Candidate {
  float d;
  int32_t id;
};
inline bool before(const Candidate& a, const Candidate& b) { return a.d < b.d || (a.d == b.d && a.id < b.id); }

// A max-heap of at most k candidates (the k nearest so far; the farthest on top), in place.
struct Heap {
  Candidate* c;
  int64_t size, k;
  void offer(Candidate x) {
    if (size < k) {
      int64_t i = size++;
      while (i > 0) {  // sift up
        const int64_t parent = (i - 1) / 2;
        if (!before(c[parent], x)) break;
        c[i] = c[parent];
        i = parent;
      }
      c[i] = x;
      return;
    }
    if (!before(x, c[0])) return;
    int64_t i = 0;  // replace the top and sift down
    for (;;) {
      int64_t child = 2 * i + 1;
      if (child >= k) break;
      if (child + 1 < k && before(c[child], c[child + 1])) ++child;
      if (!before(x, c[child])) break;
      c[i] = c[child];
      i = child;
    }
    c[i] = x;
  }
};

void check_table(std::span<const float> table, int64_t rows, int64_t dim) {
  check_at_least("tsne", "rows", rows, 1);
  check_at_least("tsne", "dim", dim, 1);
  uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(dim), &want) || table.size() != want) {
    fail("tsne", "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) + " x " +
                     std::to_string(dim));
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (!std::isfinite(table[i])) {
      fail("tsne", "table value " + format_number(table[i]) + " at row " + std::to_string(i / dim) + ", column " +
                       std::to_string(i % dim) + " is not finite");
    }
  }
}

// e^x in double for x <= 0 (detmath's range is |x| < 700; below that e^x < 1e-304 is 0 here).
inline double exp_nonpositive(double x) { return x < -700.0 ? 0.0 : detmath::exp(x); }

}  // namespace

void tsne_check_table(std::span<const float> table, int64_t rows, int64_t dim, Metric metric) {
  check_table(table, rows, dim);
  if (metric != Metric::Cosine) return;
  for (int64_t i = 0; i < rows; ++i) {
    const float* r = table.data() + i * dim;
    if (std::sqrt(kernels::dot(static_cast<size_t>(dim), r, r)) == 0.0f) {
      fail("tsne", "row " + std::to_string(i) + " is all zeros, so its cosine distance is undefined");
    }
  }
}

void TsneNeighbourSearch::plan(MemoryPlan& p, int64_t n, int64_t D, int64_t k, Metric metric) {
  if (metric != Metric::Cosine) p.add("centred rows", {n, D}, kFloat32);
  p.add("transposed rows", {D, n}, kFloat32);
  p.add("row norms", {n}, kFloat32);
  p.add("product block", {kBlockRows, kBlockCols}, kFloat32);
  p.add("neighbour ids", {n, k}, kInt32);
  p.add("neighbour distances", {n, k}, kFloat32);
  p.add("neighbour heaps", {n, k, static_cast<int64_t>(sizeof(Candidate))}, kBytes);
  p.add("heap sizes", {n}, kInt64);
}

struct TsneNeighbourSearch::State {
  std::span<const float> table;
  int64_t n = 0, D = 0, k = 0;
  Metric metric = Metric::Euclidean;
  bool set_up = false;
  std::vector<float> x, xt;  // centred rows (euclidean) and the transposed rows searched
  const float* rows_data = nullptr;
  std::vector<float> norm;   // |x|^2 (euclidean) or |x| (cosine)
  std::vector<Candidate> heap;
  std::vector<int64_t> heap_size;
  std::vector<float> g;      // one product block
  int64_t i0 = 0, j0 = 0;    // the next block: rows [i0, i0 + kBlockRows) x columns [j0, j0 + kBlockCols)
  int64_t sorted = 0;        // rows sorted into nb
  TsneNeighbours nb;

  int64_t setup();
  int64_t block();
  int64_t sort_block();
};

// Centres the columns (in double: distances do not change, and |x|^2 + |y|^2 - 2 x.y loses less
// to cancellation near the origin), transposes, and takes the norms.
int64_t TsneNeighbourSearch::State::setup() {
  const std::span<const float> t = table;
  if (metric == Metric::Cosine) {  // subtle: cosine is of the rows as given, not centred
    xt.resize(static_cast<size_t>(n * D));
    dense::transpose(static_cast<size_t>(n), static_cast<size_t>(D), t.data(), xt.data());
    rows_data = t.data();
  } else {
    std::vector<double> mean(static_cast<size_t>(D), 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t d = 0; d < D; ++d) mean[d] += t[i * D + d];
    for (double& m : mean) m /= static_cast<double>(n);
    x.resize(static_cast<size_t>(n * D)), xt.resize(x.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t d = 0; d < D; ++d) x[i * D + d] = static_cast<float>(t[i * D + d] - mean[d]);
    dense::transpose(static_cast<size_t>(n), static_cast<size_t>(D), x.data(), xt.data());
    rows_data = x.data();
  }
  norm.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float* r = rows_data + i * D;
    if (metric == Metric::Cosine) {
      norm[i] = std::sqrt(kernels::dot(static_cast<size_t>(D), r, r));
      if (norm[i] == 0.0f) fail("tsne", "row " + std::to_string(i) + " is all zeros, so its cosine distance is undefined");
    } else {
      norm[i] = kernels::dot(static_cast<size_t>(D), r, r);
    }
  }
  heap.resize(static_cast<size_t>(n * k));
  heap_size.assign(static_cast<size_t>(n), 0);
  g.resize(static_cast<size_t>(kBlockRows * kBlockCols));
  set_up = true;
  return 4 * n * D;
}

// Every pair (i < j) once: blocks of rows [i0, i1) against columns [j0, j1), j0 from i0 on.
int64_t TsneNeighbourSearch::State::block() {
  const int64_t i1 = std::min(n, i0 + kBlockRows), j1 = std::min(n, j0 + kBlockCols);
  dense::gemm(static_cast<size_t>(i1 - i0), static_cast<size_t>(D), static_cast<size_t>(j1 - j0), rows_data + i0 * D,
              static_cast<size_t>(D), xt.data() + j0, static_cast<size_t>(n), g.data(), static_cast<size_t>(kBlockCols));
  const auto distance = [&](int64_t i, int64_t j, float gij) {
    if (metric == Metric::Cosine) return std::min(2.0f, std::max(0.0f, 1.0f - gij / norm[i] / norm[j]));
    return std::max(0.0f, norm[i] + norm[j] - 2.0f * gij);
  };
  for (int64_t i = i0; i < i1; ++i) {
    Heap hi{heap.data() + i * k, heap_size[i], k};
    const float* gi = g.data() + (i - i0) * kBlockCols;
    for (int64_t j = std::max(j0, i + 1); j < j1; ++j) {
      const float d = distance(i, j, gi[j - j0]);
      hi.offer({d, static_cast<int32_t>(j)});
      Heap hj{heap.data() + j * k, heap_size[j], k};
      hj.offer({d, static_cast<int32_t>(i)});
      heap_size[j] = hj.size;
    }
    heap_size[i] = hi.size;
  }
  const int64_t cost = (i1 - i0) * (j1 - j0) * D;
  j0 = j1;
  if (j0 >= n) {
    i0 = i1, j0 = i1;
    if (i0 >= n) {  // the search's buffers go before the neighbours are sorted out
      x = {}, xt = {}, g = {}, norm = {};
      nb.n = n, nb.k = k;
      nb.ids.resize(static_cast<size_t>(n * k));
      nb.distances.resize(static_cast<size_t>(n * k));
    }
  }
  return cost;
}

int64_t TsneNeighbourSearch::State::sort_block() {
  const int64_t end = std::min(n, sorted + kBlockRows);
  for (int64_t i = sorted; i < end; ++i) {
    Candidate* c = heap.data() + i * k;
    std::sort(c, c + k, before);  // a total order: the same result in every standard library
    for (int64_t m = 0; m < k; ++m) nb.ids[i * k + m] = c[m].id, nb.distances[i * k + m] = c[m].d;
  }
  const int64_t cost = (end - sorted) * k * 16;
  sorted = end;
  if (sorted == n) heap = {}, heap_size = {};
  return cost;
}

TsneNeighbourSearch::TsneNeighbourSearch(std::span<const float> table, int64_t rows, int64_t dim, int64_t k,
                                         Metric metric) {
  check_table(table, rows, dim);
  if (k < 1 || k > rows - 1) {
    fail("tsne", "neighbours k " + std::to_string(k) + " out of range [1, " + std::to_string(rows - 1) + "] for " +
                     std::to_string(rows) + " rows");
  }
  MemoryPlan p("tsne");
  plan(p, rows, dim, k, metric);
  p.check();
  s_ = std::make_unique<State>();
  s_->table = table, s_->n = rows, s_->D = dim, s_->k = k, s_->metric = metric;
}

TsneNeighbourSearch::~TsneNeighbourSearch() = default;
TsneNeighbourSearch::TsneNeighbourSearch(TsneNeighbourSearch&&) noexcept = default;
TsneNeighbourSearch& TsneNeighbourSearch::operator=(TsneNeighbourSearch&&) noexcept = default;

int64_t TsneNeighbourSearch::advance(int64_t work) {
  if (!s_) fail("tsne", "the neighbours were taken already");
  State& s = *s_;
  int64_t spent = 0;
  while (!done()) {
    spent += !s.set_up ? s.setup() : s.i0 < s.n ? s.block() : s.sort_block();
    if (spent >= work) break;
  }
  return spent;
}

bool TsneNeighbourSearch::done() const { return !s_ || s_->sorted == s_->n; }

double TsneNeighbourSearch::progress() const {
  if (done()) return 1.0;
  const State& s = *s_;
  if (!s.set_up) return 0.0;
  constexpr double kSorting = 0.02;  // the last share: sorting the heaps
  if (s.i0 >= s.n) return (1 - kSorting) + kSorting * static_cast<double>(s.sorted) / static_cast<double>(s.n);
  // pairs (i < j) measured: rows [0, i0) against every later row, then row block i0 up to j0
  const double n = static_cast<double>(s.n), r = static_cast<double>(s.i0);
  const double rows_done = r * (2 * n - r - 1) / 2;
  const double block = static_cast<double>(std::min(s.n, s.i0 + kBlockRows) - s.i0) * static_cast<double>(s.j0 - s.i0);
  return (1 - kSorting) * std::min(1.0, (rows_done + block) / (n * (n - 1) / 2));
}

TsneNeighbours TsneNeighbourSearch::take() {
  if (!done() || !s_) fail("tsne", "the neighbours are not found yet");
  TsneNeighbours nb = std::move(s_->nb);
  s_.reset();
  return nb;
}

TsneNeighbours tsne_neighbours(std::span<const float> table, int64_t rows, int64_t dim, int64_t k, Metric metric) {
  TsneNeighbourSearch search(table, rows, dim, k, metric);
  search.advance(std::numeric_limits<int64_t>::max());
  return search.take();
}

TsneAffinities tsne_conditional_begin(const TsneNeighbours& nb, double perplexity) {
  if (!(perplexity >= 1) || !std::isfinite(perplexity)) {
    fail("tsne", "perplexity " + format_number(perplexity) + " must be a finite number >= 1");
  }
  const int64_t n = nb.n, k = nb.k;
  MemoryPlan p("tsne");
  p.add("conditional affinities", {n, k}, kFloat32);
  p.add("conditional affinity columns", {n, k}, kInt32);
  p.add("affinity rows", {std::min<int64_t>(kMaxThreads, (n + kCalibrationRows - 1) / kCalibrationRows), k}, kFloat64);
  p.check();
  TsneAffinities out;
  out.n = n;
  out.row_start.resize(static_cast<size_t>(n + 1));
  for (int64_t i = 0; i <= n; ++i) out.row_start[i] = i * k;
  out.cols = nb.ids;
  out.values.resize(static_cast<size_t>(n * k));
  return out;
}

// Rows in fixed blocks of kCalibrationRows on the pool: each row's search reads only its own
// distances and writes only its own values (and beta), so any split gives the same bits.
void tsne_conditional_rows(const TsneNeighbours& nb, double perplexity, TsneAffinities& out, int64_t begin,
                           int64_t end, std::vector<double>* betas) {
  const int64_t k = nb.k;
  const double log_u = detmath::log(perplexity);
  // stop when 2^H is within a relative 1e-5 of the perplexity: H - log u in (log(1 - 1e-5), log(1 + 1e-5))
  const double lo = detmath::log(1.0 - 1e-5), hi = detmath::log(1.0 + 1e-5);
  parallel_for(end - begin, kCalibrationRows, [&](int64_t b, int64_t e_end, int64_t) {
    std::vector<double> e(static_cast<size_t>(k));  // planned by tsne_conditional_begin ("affinity rows")
    for (int64_t i = begin + b; i < begin + e_end; ++i) {
      const float* dist = nb.distances.data() + i * k;
      // subtle: distances are shifted by the nearest one, which leaves P and H unchanged (both are
      // invariant to a constant added to every distance) and keeps e^(-beta d) from underflowing
      // in every term at once.
      const double d0 = dist[0];
      double beta = 1.0, beta_min = -DBL_MAX, beta_max = DBL_MAX, sum = 0;
      for (int s = 0; s < kMaxSearchSteps; ++s) {
        sum = 0;
        double weighted = 0;  // sum_j d_j e_j
        for (int64_t m = 0; m < k; ++m) {
          const double d = static_cast<double>(dist[m]) - d0;
          e[m] = exp_nonpositive(-beta * d);
          sum += e[m];
          weighted += d * e[m];
        }
        const double h = beta * weighted / sum + detmath::log(sum);  // entropy in nats
        const double diff = h - log_u;
        if (diff > lo && diff < hi) break;
        if (diff > 0) {  // too flat: raise beta
          beta_min = beta;
          beta = beta_max == DBL_MAX ? beta * 2 : (beta + beta_max) / 2;
        } else {
          beta_max = beta;
          beta = beta_min == -DBL_MAX ? beta / 2 : (beta + beta_min) / 2;
        }
      }
      for (int64_t m = 0; m < k; ++m) out.values[i * k + m] = static_cast<float>(e[m] / sum);
      if (betas) (*betas)[i] = beta;
    }
  });
}

TsneAffinities tsne_conditional(const TsneNeighbours& nb, double perplexity, std::vector<double>* betas) {
  TsneAffinities out = tsne_conditional_begin(nb, perplexity);
  if (betas) betas->assign(static_cast<size_t>(nb.n), 0.0);
  tsne_conditional_rows(nb, perplexity, out, 0, nb.n, betas);
  return out;
}

TsneAffinities tsne_symmetrise(const TsneAffinities& c) {
  const int64_t n = c.n, nnz = c.row_start[n];
  MemoryPlan p("tsne");
  p.add("transposed affinities", {nnz}, kInt32);
  p.add("transposed affinity values", {nnz}, kFloat32);
  p.add("symmetric affinities", {2 * nnz}, kInt32);
  p.add("symmetric affinity values", {2 * nnz}, kFloat64);  // summed in double, then stored as float32
  p.add("row order", {nnz}, kInt64);
  p.add("row starts", {3 * (n + 1)}, kInt64);
  p.check();
  // P^T in CSR: row j lists the i with j among i's neighbours, in increasing i
  std::vector<int64_t> t_start(static_cast<size_t>(n + 1), 0);
  for (int64_t e = 0; e < nnz; ++e) ++t_start[c.cols[e] + 1];
  for (int64_t j = 0; j < n; ++j) t_start[j + 1] += t_start[j];
  std::vector<int32_t> t_cols(static_cast<size_t>(nnz));
  std::vector<float> t_vals(static_cast<size_t>(nnz));
  {
    std::vector<int64_t> fill(t_start.begin(), t_start.end() - 1);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t e = c.row_start[i]; e < c.row_start[i + 1]; ++e) {
        const int64_t at = fill[c.cols[e]]++;
        t_cols[at] = static_cast<int32_t>(i);
        t_vals[at] = c.values[e];
      }
    }
  }
  // merge row i of P (sorted by column here) with row i of P^T: p_{j|i} + p_{i|j}, in double
  std::vector<int64_t> order(static_cast<size_t>(nnz));
  for (int64_t e = 0; e < nnz; ++e) order[e] = e;
  for (int64_t i = 0; i < n; ++i) {  // columns are distinct within a row: a total order
    std::sort(order.begin() + c.row_start[i], order.begin() + c.row_start[i + 1],
              [&](int64_t a, int64_t b) { return c.cols[a] < c.cols[b]; });
  }
  TsneAffinities s;
  s.n = n;
  s.row_start.assign(static_cast<size_t>(n + 1), 0);
  s.cols.reserve(static_cast<size_t>(2 * nnz));
  std::vector<double> vals;
  vals.reserve(static_cast<size_t>(2 * nnz));
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t a = c.row_start[i];
    const int64_t a_end = c.row_start[i + 1];
    int64_t b = t_start[i];
    const int64_t b_end = t_start[i + 1];
    while (a < a_end || b < b_end) {
      const int32_t ca = a < a_end ? c.cols[order[a]] : INT32_MAX;
      const int32_t cb = b < b_end ? t_cols[b] : INT32_MAX;
      double v = 0;
      int32_t col;
      if (ca <= cb) {
        col = ca;
        v += c.values[order[a++]];
      } else {
        col = cb;
      }
      if (cb == col) v += t_vals[b++];
      s.cols.push_back(col);
      vals.push_back(v);
      total += v;
    }
    s.row_start[i + 1] = static_cast<int64_t>(s.cols.size());
  }
  s.values.resize(vals.size());
  for (size_t e = 0; e < vals.size(); ++e) s.values[e] = static_cast<float>(vals[e] / total);
  return s;
}

}  // namespace embedlab
