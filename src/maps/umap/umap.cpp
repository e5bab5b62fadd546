// UMAP: options, UmapRun (its construction in slices and its steps) and transform. The a/b
// curve, smooth kNN distances and the fuzzy graph are in umap_graph.cpp, the initial layouts in
// umap_init.cpp, the SGD layout in umap_layout.cpp.
#include "maps/umap/umap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/clock.hpp"
#include "core/detmath.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "maps/umap/umap_detail.hpp"

namespace embedlab {

using umap_detail::Graph;
using umap_detail::check_number;
using umap_detail::check_positive;
using umap_detail::membership;
using umap_detail::SmoothParams;
using umap_detail::smooth_params;
using umap_detail::smooth_row;

void umap_detail::check_number(const char* name, double v, double lo, double hi, const std::string& note) {
  if (!(v >= lo && v <= hi)) {
    fail("umap", std::string(name) + " " + format_number(v) + " out of range [" + format_number(lo) + ", " +
                     format_number(hi) + "]" + (note.empty() ? "" : " (" + note + ")"));
  }
}
void umap_detail::check_positive(const char* name, double v) {
  if (!(std::isfinite(v) && v > 0)) fail("umap", std::string(name) + " " + format_number(v) + " must be a finite number > 0");
}

namespace {

constexpr int64_t kMaxEpochs = 100000;

void check_options(const UmapOptions& o, int64_t n) {
  if (n < 3) fail("umap", "needs at least 3 rows, got " + std::to_string(n));
  if (o.n_neighbors < 2 || o.n_neighbors > n - 1) {
    fail("umap", "n_neighbors " + std::to_string(o.n_neighbors) + " out of range [2, " + std::to_string(n - 1) +
                     "] (n - 1 for " + std::to_string(n) + " rows)");
  }
  check_positive("spread", o.spread);
  check_number("min_dist", o.min_dist, 0.0, o.spread, "at most spread");
  if (o.n_epochs != -1 && (o.n_epochs < 0 || o.n_epochs > kMaxEpochs)) {
    fail("umap", "n_epochs " + std::to_string(o.n_epochs) + " out of range [0, " + std::to_string(kMaxEpochs) +
                     "] (or -1 for the default)");
  }
  check_positive("learning_rate", o.learning_rate);
  if (o.negative_sample_rate < 0 || o.negative_sample_rate > 1000) {
    fail("umap", "negative_sample_rate " + std::to_string(o.negative_sample_rate) + " out of range [0, 1000]");
  }
  check_number("repulsion_strength", o.repulsion_strength, 0.0, 1e6);
  check_number("local_connectivity", o.local_connectivity, 0.0, static_cast<double>(o.n_neighbors - 1), "at most n_neighbors - 1");
  check_number("set_op_mix_ratio", o.set_op_mix_ratio, 0.0, 1.0);
  if (o.init == UmapInit::Given) {
    if (static_cast<uint64_t>(o.init_coords.size()) != static_cast<uint64_t>(n) * 2) {
      fail("umap", "init coordinates have " + std::to_string(o.init_coords.size()) + " values, expected n x 2 = " +
                       std::to_string(n) + " x 2");
    }
    for (size_t i = 0; i < o.init_coords.size(); ++i) {
      if (!std::isfinite(o.init_coords[i])) {
        fail("umap", "init coordinate " + format_number(o.init_coords[i]) + " at row " + std::to_string(i / 2) +
                         " is not finite");
      }
    }
  } else if (!o.init_coords.empty()) {
    fail("umap", std::string("init coordinates given with init '") + umap_init_name(o.init) + "'; use init 'given'");
  }
}

int64_t default_epochs(int64_t n) { return n <= 10000 ? 500 : 200; }

// (knn without the row itself) -> dists (n, k + 1) with the row itself as column 0 (distance 0)
std::vector<float> with_self(const KnnGraph& g) {
  std::vector<float> d(static_cast<size_t>(g.n * (g.k + 1)), 0.0f);
  for (int64_t i = 0; i < g.n; ++i)
    for (int64_t j = 0; j < g.k; ++j) d[i * (g.k + 1) + j + 1] = g.dists[i * g.k + j];
  return d;
}


double seconds_since(double t0) { return (now_ms() - t0) / 1000.0; }

}  // namespace

const char* umap_init_name(UmapInit i) {
  switch (i) {
    case UmapInit::Pca: return "pca";
    case UmapInit::Given: return "given";
    case UmapInit::Spectral: break;
  }
  return "spectral";
}

UmapInit parse_umap_init(const std::string& name) {
  if (name == "spectral") return UmapInit::Spectral;
  if (name == "pca") return UmapInit::Pca;
  fail("umap", "unknown init '" + name + "', expected spectral or pca (or initial coordinates)");
}


// The construction runs in units (UmapRun::prepare): the kNN search's (KnnBuild), then blocks
// of rows of smooth_knn_dist, the fuzzy union, the pruning with the a/b fit, and the initial
// layout; the same computations in the same order as one call would make, so every slicing
// gives the same bits.
struct UmapRun::State {
  enum class Stage { Knn, Smooth, Fuzzy, Prune, Init, Layout };
  UmapOptions opts;       // init_coords cleared (copied into given)
  KnnRows x;              // the prepared rows (for transform)
  int64_t n = 0, k = 0;   // k: neighbours other than the row itself
  Stage stage = Stage::Knn;
  std::unique_ptr<KnnBuild> build;
  KnnGraph knn;
  std::vector<float> d;   // (n, k + 1): knn's distances with the row itself as column 0
  SmoothParams smooth;
  SmoothKnn sk;
  int64_t row = 0;        // the next row of smooth_knn_dist
  std::vector<float> given;  // (n, 2) the initial layout when init is Given
  Graph graph;
  std::unique_ptr<umap_detail::MultiComponentLayout> multi;  // during a multi-component init
  umap_detail::Layout layout;
  std::vector<float> xy;  // (n, 2)
  int64_t epoch = 0;
  bool default_epochs = false;
  AbParams ab{0, 0};
  UmapSeconds seconds;
  UmapInfo info;
  State(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& o)
      : opts(o), x(table, rows, dim, o.metric, "umap") {}

  // one unit of the current stage, spending about `work` multiply-adds or less when the unit
  // is smaller (the kNN search and the smooth rows fill it) -> the multiply-adds spent
  int64_t unit(int64_t work);
  void init_layout();
};

namespace {
constexpr int64_t kSmoothRowCost = 64 * 20;  // per distance of a row: 64 search steps of an exp
constexpr int64_t kSmoothRows = 1024;         // smooth_knn_dist rows per step of a unit
constexpr int64_t kSmoothBlock = 64;          // of them, rows of a parallel block
}  // namespace

int64_t UmapRun::State::unit(int64_t work) {
  const UmapOptions& o = opts;
  const double t0 = now_ms();
  int64_t spent = 0;
  switch (stage) {
    case Stage::Knn:
      spent = build->advance(work);
      if (build->done()) {
        knn = build->take(&info.knn);
        build.reset();
        stage = Stage::Smooth;
      }
      seconds.knn += seconds_since(t0);
      return spent;
    case Stage::Smooth:
      if (row == 0 && d.empty()) {
        d = with_self(knn);
        smooth = smooth_params(d, k + 1, o.local_connectivity, 1.0);
        sk.sigma.resize(static_cast<size_t>(n));
        sk.rho.resize(static_cast<size_t>(n));
        spent += n * (k + 1);
      }
      while (row < n && spent < work) {  // rows are independent: kSmoothRows at a time, in parallel blocks
        const int64_t begin = row, end = std::min(n, row + kSmoothRows);
        parallel_for(end - begin, kSmoothBlock, [&](int64_t b, int64_t e, int64_t) {
          std::vector<float> scratch;
          for (int64_t i = begin + b; i < begin + e; ++i)
            smooth_row(d.data() + i * (k + 1), k + 1, smooth, sk.sigma[i], sk.rho[i], scratch);
        });
        row = end;
        spent += (end - begin) * (k + 1) * kSmoothRowCost;
      }
      if (row == n) d = {}, stage = Stage::Fuzzy;
      break;
    case Stage::Fuzzy:
      graph = umap_detail::fuzzy_graph(knn, sk, o.set_op_mix_ratio);
      knn = KnnGraph{}, sk = SmoothKnn{};
      spent = n * k * 40;
      stage = Stage::Prune;
      break;
    case Stage::Prune: {
      float wmax = 0;
      for (float w : graph.w) wmax = w > wmax ? w : wmax;
      umap_detail::prune(graph, static_cast<double>(wmax) /
                                    static_cast<double>(info.n_epochs > 10 ? info.n_epochs : embedlab::default_epochs(n)));
      info.components = umap_detail::count_components(graph);
      ab = find_ab_params(o.spread, o.min_dist);
      info.a = ab.a, info.b = ab.b;
      spent = n * k * 8;
      stage = Stage::Init;
      break;
    }
    case Stage::Init:
      if (o.init == UmapInit::Spectral && info.components > 1) {  // umap-learn's multi_component_layout, in units
        if (!multi) multi = std::make_unique<umap_detail::MultiComponentLayout>(graph, x, o.seed);
        spent = multi->advance(work);
        if (!multi->done()) {
          seconds.init += seconds_since(t0);
          return spent;
        }
        info.init_note = multi->note();
        xy = multi->take();
        multi.reset();
      }
      init_layout();
      seconds.init += seconds_since(t0);
      layout = umap_detail::make_layout(graph, info.n_epochs, ab, o, o.learning_rate, o.seed);
      info.edges = graph.nnz();
      stage = Stage::Layout;
      return work;
    case Stage::Layout: return 0;
  }
  seconds.graph += seconds_since(t0);
  return spent;
}

void UmapRun::State::init_layout() {
  const UmapOptions& o = opts;
  info.init = o.init;
  if (o.init == UmapInit::Given) {
    xy = std::move(given);
  } else {
    bool spectral = false;
    if (o.init == UmapInit::Spectral) {
      if (info.components > 1) {  // xy from MultiComponentLayout (State::unit)
        spectral = true;
      } else {
        spectral = umap_detail::spectral_layout(graph, xy);
      }
    }
    if (o.init == UmapInit::Spectral && !spectral) {
      info.init = UmapInit::Pca;
      info.init_note = "the spectral init failed; PCA init instead";
    }
    if (!spectral) xy = umap_detail::pca_layout(x);
    umap_detail::noisy_scale(xy, o.seed);
  }
  umap_detail::rescale_to_10(xy);
}

std::unique_ptr<UmapRun::State> UmapRun::begin(std::span<const float> table, int64_t rows, int64_t dim,
                                               const UmapOptions& o) {
  check_at_least("umap", "rows", rows, 1);
  check_at_least("umap", "dim", dim, 1);
  uint64_t cells = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(rows), static_cast<uint64_t>(dim), &cells) || table.size() != cells) {
    fail("umap", "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) + " x " +
                     std::to_string(dim));
  }
  check_options(o, rows);
  const int64_t n = rows, k = o.n_neighbors - 1;  // neighbours other than the row itself
  const bool descent = o.knn == KnnMethod::Descent || (o.knn == KnnMethod::Auto && n >= kExactBelow);
  {  // everything that lives at once at the peak (the kNN search), before anything is allocated
    MemoryPlan p("umap");
    p.add("working copy of the rows", {n, dim}, kFloat32);
    p.add("neighbour graph", {n, k, 2}, kInt32);
    if (descent) p.add("NN-descent heaps and candidates", {n, 9 * k + 16 * std::max(kMaxCandidates, k)}, kBytes);
    p.add("fuzzy graph and layout schedule", {n, 2 * k, 40}, kBytes);
    p.add("layout", {n, 2}, kFloat32);
    if (o.init == UmapInit::Given) p.add("initial layout", {n, 2}, kFloat32);
    p.check();
  }
  const double t0 = now_ms();
  auto s = std::make_unique<State>(table, rows, dim, o);
  s->n = n, s->k = k;
  s->given.assign(o.init_coords.begin(), o.init_coords.end());
  s->opts.init_coords = {};
  s->default_epochs = o.n_epochs < 0;
  s->info.n_epochs = s->default_epochs ? default_epochs(n) : o.n_epochs;
  s->build = std::make_unique<KnnBuild>(s->x, k, o.knn, o.seed);
  s->seconds.knn = seconds_since(t0);
  return s;
}

UmapRun::UmapRun(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& o)
    : s_(begin(table, rows, dim, o)) {
  prepare(std::numeric_limits<int64_t>::max());
}

UmapRun::UmapRun(std::unique_ptr<State> s) : s_(std::move(s)) {}

UmapRun UmapRun::start(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& o) {
  return UmapRun(begin(table, rows, dim, o));
}

UmapRun::~UmapRun() = default;
UmapRun::UmapRun(UmapRun&&) noexcept = default;
UmapRun& UmapRun::operator=(UmapRun&&) noexcept = default;

bool UmapRun::prepare(int64_t slices, int64_t work) {
  check_at_least("umap prepare", "slices", slices, 0);
  check_at_least("umap prepare", "work", work, 1);
  for (int64_t i = 0; i < slices && s_->stage != State::Stage::Layout; ++i) {
    int64_t spent = 0;
    while (spent < work && s_->stage != State::Stage::Layout) {
      // each unit of the init (one long unit, or those of a multi-component layout, which
      // fill the slice themselves) gets a slice of its own, so "init" shows while it runs
      if (s_->stage == State::Stage::Init && spent > 0) break;
      spent += s_->unit(work - spent);
    }
  }
  return prepared();
}

bool UmapRun::prepared() const { return s_->stage == State::Stage::Layout; }

const char* UmapRun::phase() const {
  switch (s_->stage) {
    case State::Stage::Knn: return "knn";
    case State::Stage::Smooth:
    case State::Stage::Fuzzy:
    case State::Stage::Prune: return "graph";
    case State::Stage::Init: return "init";
    case State::Stage::Layout: break;
  }
  return "layout";
}

double UmapRun::progress() const {
  const State& s = *s_;
  switch (s.stage) {
    case State::Stage::Knn: return s.build->progress();
    case State::Stage::Smooth: return 0.8 * static_cast<double>(s.row) / static_cast<double>(s.n);
    case State::Stage::Fuzzy: return 0.8;
    case State::Stage::Prune: return 0.95;
    case State::Stage::Init: return s.multi ? s.multi->progress() : 0;
    case State::Stage::Layout: break;
  }
  return s.info.n_epochs > 0 ? static_cast<double>(s.epoch) / static_cast<double>(s.info.n_epochs) : 1.0;
}

int64_t UmapRun::step(int64_t epochs) {
  check_at_least("umap step", "epochs", epochs, 0);
  prepare(std::numeric_limits<int64_t>::max());
  const double t0 = now_ms();
  const int64_t end = std::min(s_->info.n_epochs, s_->epoch + std::min(epochs, s_->info.n_epochs));
  const int64_t n = s_->x.rows();
  for (; s_->epoch < end; ++s_->epoch) {
    umap_detail::layout_epoch(s_->layout, s_->xy.data(), s_->xy.data(), n, s_->epoch, true);
  }
  s_->seconds.layout += seconds_since(t0);
  return s_->epoch;
}

int64_t UmapRun::epoch() const { return s_->epoch; }
int64_t UmapRun::total_epochs() const { return s_->info.n_epochs; }
int64_t UmapRun::rows() const { return s_->x.rows(); }
std::span<const float> UmapRun::coordinates() const { return s_->xy; }
const UmapSeconds& UmapRun::seconds() const { return s_->seconds; }
const UmapInfo& UmapRun::info() const { return s_->info; }

std::vector<float> UmapRun::transform(std::span<const float> rows, int64_t m) const {
  const State& s = *s_;
  if (!prepared()) {
    fail("umap transform", std::string("the map is not constructed yet (phase ") + phase() +
                               "); prepare() or step() it first");
  }
  const int64_t n = s.x.rows(), k = s.opts.n_neighbors;
  if (m == 0) return {};
  const KnnGraph knn = knn_query(s.x, rows, m, k);
  const SmoothKnn sk = smooth_knn_dist(knn.dists, m, k, std::max(0.0, s.opts.local_connectivity - 1.0), 1.0);
  MemoryPlan p("transform");
  p.add("graph of the new rows", {m, k, 2}, kInt32);
  p.add("layout schedule", {m, k, 40}, kBytes);
  p.add("positions", {m + n, 2}, kFloat32);
  p.check();
  Graph g;  // (m, n): membership of each new row's neighbours, in neighbour order
  g.rows = m, g.cols = n;
  g.start.resize(static_cast<size_t>(m + 1));
  g.col.resize(static_cast<size_t>(m * k));
  g.w.resize(static_cast<size_t>(m * k));
  std::vector<float> out(static_cast<size_t>(m * 2), 0.0f);
  for (int64_t i = 0; i < m; ++i) {
    g.start[i + 1] = (i + 1) * k;
    float total = 0;
    for (int64_t j = 0; j < k; ++j) {
      g.col[i * k + j] = knn.ids[i * k + j];
      g.w[i * k + j] = membership(knn.dists[i * k + j], sk.rho[i], sk.sigma[i]);
      total += g.w[i * k + j];
    }
    // init_transform: the neighbours' positions weighted by the l1-normalised memberships
    for (int64_t j = 0; j < k; ++j) {
      const float w = total > 0 ? g.w[i * k + j] / total : 1.0f / static_cast<float>(k);
      const int32_t c = g.col[i * k + j];
      out[2 * i] += w * s.xy[2 * c];
      out[2 * i + 1] += w * s.xy[2 * c + 1];
    }
  }
  const int64_t epochs = s.default_epochs ? (n <= 10000 ? 100 : 30) : s.opts.n_epochs / 3;
  if (epochs <= 0) return out;
  float wmax = 0;
  for (float w : g.w) wmax = w > wmax ? w : wmax;
  umap_detail::prune(g, static_cast<double>(wmax) / static_cast<double>(epochs));
  umap_detail::Layout L = umap_detail::make_layout(g, epochs, s.ab, s.opts, s.opts.learning_rate / 4, s.opts.seed ^ 0x7a45f0e11ull);
  std::vector<float> fitted = s.xy;  // the negative samples' positions, fixed
  for (int64_t e = 0; e < epochs; ++e) umap_detail::layout_epoch(L, out.data(), fitted.data(), n, e, false);
  return out;
}

std::vector<float> umap(std::span<const float> table, int64_t rows, int64_t dim, const UmapOptions& opts) {
  UmapRun run(table, rows, dim, opts);
  run.run();
  const std::span<const float> xy = run.coordinates();
  return std::vector<float>(xy.begin(), xy.end());
}

}  // namespace embedlab
