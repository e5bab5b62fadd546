// TsneRun (see tsne.hpp): options, the initial layout, and the gradient-descent steps.
#include "maps/tsne/tsne.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"

namespace embedlab {

namespace {

constexpr double kInitialMomentum = 0.5, kFinalMomentum = 0.8;  // bhtsne
constexpr float kGainStep = 0.2f, kGainDecay = 0.8f, kMinGain = 0.01f;
constexpr double kInitStd = 1e-4;        // the random layout's and the PCA layout's spread
constexpr int kPcaMaxIterations = 100;   // subspace iterations of the PCA layout

std::string number_text(double v) { return format_number(v); }

// v with 2 decimals, for limits such as (n - 1) / 3 = 16.33
std::string two_decimals(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

void check_options(const TsneOptions& o, int64_t n) {
  if (n > kTsneMaxRows) {
    fail("tsne", "table has " + std::to_string(n) + " rows; at most " + std::to_string(kTsneMaxRows) +
                     " (the neighbours are exact, O(n^2 D))");
  }
  if (!std::isfinite(o.perplexity) || o.perplexity < 1) {
    fail("tsne", "perplexity " + number_text(o.perplexity) + " must be a finite number >= 1");
  }
  const double limit = static_cast<double>(n - 1) / 3.0;
  if (!(o.perplexity < limit)) {
    fail("tsne", "perplexity " + number_text(o.perplexity) + " must be below (n - 1) / 3 = " + two_decimals(limit) +
                     " for " + std::to_string(n) + " rows");
  }
  if (o.iterations < 1 || o.iterations > 1000000000) {
    fail("tsne", "iterations " + std::to_string(o.iterations) + " out of range [1, 1000000000]");
  }
  if (!(o.theta >= 0 && o.theta <= 1)) fail("tsne", "theta " + number_text(o.theta) + " must be in [0, 1]");
  if (!o.learning_rate_auto && !(std::isfinite(o.learning_rate) && o.learning_rate > 0)) {
    fail("tsne", "learning rate " + number_text(o.learning_rate) + " must be a finite number > 0 (or auto)");
  }
  if (!(std::isfinite(o.early_exaggeration) && o.early_exaggeration >= 1)) {
    fail("tsne", "early exaggeration " + number_text(o.early_exaggeration) + " must be a finite number >= 1");
  }
  if (o.exact_max_rows < 0) fail("tsne", "exact_max_rows " + std::to_string(o.exact_max_rows) + " must be >= 0");
  if (o.init == TsneInit::Given) {
    if (o.initial.size() != 2 * static_cast<uint64_t>(n)) {
      fail("tsne", "initial layout has " + std::to_string(o.initial.size()) + " values, expected n x 2 = " +
                       std::to_string(n) + " x 2");
    }
    for (size_t i = 0; i < o.initial.size(); ++i) {
      if (!std::isfinite(o.initial[i])) {
        fail("tsne", "initial layout value " + format_number(o.initial[i]) + " at row " + std::to_string(i / 2) +
                         ", column " + std::to_string(i % 2) + " is not finite");
      }
    }
  } else if (!o.initial.empty()) {
    fail("tsne", "an initial layout was given with init '" + std::string(tsne_init_name(o.init)) + "'");
  }
}

// Gram-Schmidt (twice) of the columns of v (D, 2), in double. A column that vanishes (rank < 2)
// is replaced by e_0, e_1, ... in turn until one survives (deterministic).
void orthonormalise(std::vector<double>& v, int64_t D) {
  for (int c = 0; c < 2; ++c) {
    for (int64_t unit = 0;; ++unit) {
      for (int pass = 0; pass < 2; ++pass) {
        for (int p = 0; p < c; ++p) {
          double dot = 0;
          for (int64_t d = 0; d < D; ++d) dot += v[2 * d + p] * v[2 * d + c];
          for (int64_t d = 0; d < D; ++d) v[2 * d + c] -= dot * v[2 * d + p];
        }
      }
      double norm = 0;
      for (int64_t d = 0; d < D; ++d) norm += v[2 * d + c] * v[2 * d + c];
      norm = std::sqrt(norm);
      if (norm > 1e-150 || unit >= D) {
        for (int64_t d = 0; d < D; ++d) v[2 * d + c] /= norm;
        break;
      }
      for (int64_t d = 0; d < D; ++d) v[2 * d + c] = d == unit ? 1.0 : 0.0;
    }
  }
}

// w (D, 2) = X_c^T X_c v, X_c the centred rows; in double, rows in order.
void covariance_times(std::span<const float> table, const std::vector<double>& mean, int64_t n, int64_t D,
                      const std::vector<double>& v, std::vector<double>& w, std::vector<double>& row) {
  std::fill(w.begin(), w.end(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double a0 = 0, a1 = 0;
    for (int64_t d = 0; d < D; ++d) {
      row[d] = table[i * D + d] - mean[d];
      a0 += row[d] * v[2 * d];
      a1 += row[d] * v[2 * d + 1];
    }
    for (int64_t d = 0; d < D; ++d) {
      w[2 * d] += a0 * row[d];
      w[2 * d + 1] += a1 * row[d];
    }
  }
}

}  // namespace

TsneInit parse_tsne_init(const std::string& name) {
  if (name == "random") return TsneInit::Random;
  if (name == "pca") return TsneInit::Pca;
  fail("tsne", "unknown init '" + name + "', expected random or pca (or a given layout)");
}

const char* tsne_init_name(TsneInit init) {
  switch (init) {
    case TsneInit::Random: return "random";
    case TsneInit::Pca: return "pca";
    case TsneInit::Given: break;
  }
  return "given";
}

std::vector<float> tsne_pca_init(std::span<const float> table, int64_t rows, int64_t dim) {
  if (dim < 2) fail("tsne", "init 'pca' needs at least 2 columns, the table has " + std::to_string(dim));
  check_at_least("tsne", "rows", rows, 2);
  const int64_t n = rows, D = dim;
  MemoryPlan p("tsne");
  p.add("pca layout", {n, 2}, kFloat32);
  p.add("pca vectors", {4 * D + 2 * D}, kFloat64);
  p.check();
  std::vector<double> mean(static_cast<size_t>(D), 0.0), v(static_cast<size_t>(2 * D)), w(v.size()), row(mean.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t d = 0; d < D; ++d) mean[d] += table[i * D + d];
  for (double& m : mean) m /= static_cast<double>(n);
  // a fixed start (the same table gives the same layout whatever the seed), then subspace
  // iteration until the span stops turning: |det(V_old^T V_new)| within 1e-12 of 1
  std::vector<float> start(v.size());
  Generator g(0);
  g.normal(start.data(), start.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = start[i];
  orthonormalise(v, D);
  for (int it = 0; it < kPcaMaxIterations; ++it) {
    covariance_times(table, mean, n, D, v, w, row);
    orthonormalise(w, D);
    double m00 = 0, m01 = 0, m10 = 0, m11 = 0;
    for (int64_t d = 0; d < D; ++d) {
      m00 += v[2 * d] * w[2 * d], m01 += v[2 * d] * w[2 * d + 1];
      m10 += v[2 * d + 1] * w[2 * d], m11 += v[2 * d + 1] * w[2 * d + 1];
    }
    v.swap(w);
    if (std::fabs(std::fabs(m00 * m11 - m01 * m10) - 1) < 1e-12) break;
  }
  // Rayleigh-Ritz in the 2-D span: H = V^T C V, its eigenvectors in closed form (no trig)
  covariance_times(table, mean, n, D, v, w, row);
  double a = 0, b = 0, c = 0;
  for (int64_t d = 0; d < D; ++d) a += v[2 * d] * w[2 * d], b += v[2 * d] * w[2 * d + 1], c += v[2 * d + 1] * w[2 * d + 1];
  const double half = 0.5 * (a - c), l1 = 0.5 * (a + c) + std::sqrt(half * half + b * b);
  double e0 = 1, e1 = 0;  // the top eigenvector of [[a, b], [b, c]]
  if (b != 0) {
    e0 = l1 - c, e1 = b;
    const double norm = std::sqrt(e0 * e0 + e1 * e1);
    e0 /= norm, e1 /= norm;
  } else if (c > a) {
    e0 = 0, e1 = 1;
  }
  for (int64_t d = 0; d < D; ++d) {  // columns (e0, e1) and (-e1, e0) of the span
    const double x = v[2 * d], y = v[2 * d + 1];
    w[2 * d] = e0 * x + e1 * y;
    w[2 * d + 1] = -e1 * x + e0 * y;
  }
  // signs: each component's largest-|loading| positive (ties within 1e-6: the lowest column)
  for (int col = 0; col < 2; ++col) {
    double top = 0;
    for (int64_t d = 0; d < D; ++d) top = std::max(top, std::fabs(w[2 * d + col]));
    int64_t best = 0;
    while (std::fabs(w[2 * best + col]) < top * (1 - 1e-6)) ++best;
    if (w[2 * best + col] < 0)
      for (int64_t d = 0; d < D; ++d) w[2 * d + col] = -w[2 * d + col];
  }
  std::vector<double> pts(static_cast<size_t>(2 * n));
  double s0 = 0, ss0 = 0;
  for (int64_t i = 0; i < n; ++i) {
    double a0 = 0, a1 = 0;
    for (int64_t d = 0; d < D; ++d) {
      const double x = table[i * D + d] - mean[d];
      a0 += x * w[2 * d], a1 += x * w[2 * d + 1];
    }
    pts[2 * i] = a0, pts[2 * i + 1] = a1;
    s0 += a0;
  }
  s0 /= static_cast<double>(n);
  for (int64_t i = 0; i < n; ++i) ss0 += (pts[2 * i] - s0) * (pts[2 * i] - s0);
  const double sd = std::sqrt(ss0 / static_cast<double>(n));  // np.std (ddof 0), as sklearn
  const double scale = sd > 0 ? kInitStd / sd : 1.0;
  std::vector<float> out(static_cast<size_t>(2 * n));
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(pts[i] * scale);
  return out;
}

// The construction between start and prepared: the table's copy, the neighbour search, the
// conditional P in blocks of rows, then P symmetrised and the initial layout (one unit each).
struct TsneRun::Build {
  enum class Stage { Neighbours, Calibrate, Symmetrise, Init };
  TsneOptions opts;            // initial cleared (copied into given)
  std::vector<float> table;    // (n, D) the copy made by start
  std::span<const float> view;  // what the search and the PCA init read: table, or the caller's
                                // table while the constructor prepares in one call
  int64_t dim = 0;
  std::vector<float> given;    // (n, 2) the initial layout when init is Given
  Stage stage = Stage::Neighbours;
  std::unique_ptr<TsneNeighbourSearch> search;
  TsneNeighbours nb;
  TsneAffinities conditional;
  int64_t row = 0;             // the next row to calibrate
};

namespace {
constexpr int64_t kCalibrateRows = 64;  // rows of one calibration unit
}  // namespace

TsneRun::TsneRun(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& o)
    : TsneRun(table, rows, dim, o, true) {}

TsneRun TsneRun::start(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& o) {
  return TsneRun(table, rows, dim, o, false);
}

TsneRun::TsneRun(std::span<const float> table, int64_t rows, int64_t dim, const TsneOptions& o, bool prepare_now) {
  check_at_least("tsne", "rows", rows, 1);
  check_at_least("tsne", "dim", dim, 1);
  check_options(o, rows);
  n_ = rows;
  total_ = o.iterations;
  theta_ = o.theta;
  exaggeration_ = o.early_exaggeration;
  exact_ = o.theta == 0 || rows <= o.exact_max_rows;
  learning_rate_ = o.learning_rate_auto ? std::max(static_cast<double>(rows) / o.early_exaggeration / 4.0, 50.0)
                                        : o.learning_rate;
  const int64_t k = exact_ ? rows - 1 : static_cast<int64_t>(3 * o.perplexity);
  tsne_check_table(table, rows, dim, o.metric);
  if (k < 1 || k > rows - 1) {
    fail("tsne", "neighbours k " + std::to_string(k) + " out of range [1, " + std::to_string(rows - 1) + "] for " +
                     std::to_string(rows) + " rows");
  }
  {  // what lives at once at the peak (the search), before anything is allocated
    MemoryPlan p("tsne");
    if (!prepare_now) p.add("table copy", {rows, dim}, kFloat32);
    TsneNeighbourSearch::plan(p, rows, dim, k, o.metric);
    if (o.init == TsneInit::Given) p.add("initial layout", {rows, 2}, kFloat32);
    p.add("map, update, gains and gradient", {4, rows, 2}, kFloat32);
    p.add("tree order", {rows}, kInt32);
    p.check();
  }
  const double t0 = now_ms();
  build_ = std::make_unique<Build>();
  Build& b = *build_;
  b.opts = o;
  b.opts.initial = {};
  b.given.assign(o.initial.begin(), o.initial.end());
  if (prepare_now) {
    b.view = table;
  } else {
    b.table.assign(table.begin(), table.end());
    b.view = b.table;
  }
  b.dim = dim;
  b.search = std::make_unique<TsneNeighbourSearch>(b.view, rows, dim, k, o.metric);
  neighbours_s_ = (now_ms() - t0) / 1000;
  if (prepare_now) prepare(std::numeric_limits<int64_t>::max());
}

TsneRun::~TsneRun() = default;
TsneRun::TsneRun(TsneRun&&) noexcept = default;
TsneRun& TsneRun::operator=(TsneRun&&) noexcept = default;

bool TsneRun::prepare(int64_t slices, int64_t work) {
  check_at_least("tsne prepare", "slices", slices, 0);
  check_at_least("tsne prepare", "work", work, 1);
  for (int64_t slice = 0; slice < slices && build_; ++slice) {
    int64_t spent = 0;
    while (build_ && spent < work) {
      Build& b = *build_;
      // the init (PCA: one long unit) gets a slice of its own, so "init" shows while it runs
      if (b.stage == Build::Stage::Init && spent > 0) break;
      const double t0 = now_ms();
      switch (b.stage) {
        case Build::Stage::Neighbours:
          spent += b.search->advance(work - spent);
          if (b.search->done()) {
            b.nb = b.search->take();
            b.search.reset();
            if (b.opts.init != TsneInit::Pca) b.table = {}, b.view = {};  // read by no one else
            b.conditional = tsne_conditional_begin(b.nb, b.opts.perplexity);
            b.stage = Build::Stage::Calibrate;
          }
          neighbours_s_ += (now_ms() - t0) / 1000;
          continue;
        case Build::Stage::Calibrate: {
          const int64_t end = std::min(n_, b.row + kCalibrateRows);
          tsne_conditional_rows(b.nb, b.opts.perplexity, b.conditional, b.row, end);
          spent += (end - b.row) * b.nb.k * 30 * 20;  // typically 20-30 search steps of an exp
          b.row = end;
          if (b.row == n_) b.nb = TsneNeighbours{}, b.stage = Build::Stage::Symmetrise;
          break;
        }
        case Build::Stage::Symmetrise:
          p_ = tsne_symmetrise(b.conditional);
          b.conditional = TsneAffinities{};
          spent += static_cast<int64_t>(p_.cols.size()) * 16;
          b.stage = Build::Stage::Init;
          break;
        case Build::Stage::Init: {
          const TsneOptions& o = b.opts;
          if (o.init == TsneInit::Given) {
            y_ = std::move(b.given);
          } else if (o.init == TsneInit::Pca) {
            y_ = tsne_pca_init(b.view, n_, b.dim);
          } else {
            y_.resize(static_cast<size_t>(2 * n_));
            Generator g(o.seed);
            g.normal(y_.data(), y_.size(), 0.0f, static_cast<float>(kInitStd));
          }
          update_.assign(y_.size(), 0.0f);
          gains_.assign(y_.size(), 1.0f);
          grad_.assign(y_.size(), 0.0f);
          order_.resize(static_cast<size_t>(n_));
          for (int64_t i = 0; i < n_; ++i) order_[i] = static_cast<int32_t>(i);
          build_.reset();
          layout_s_ += (now_ms() - t0) / 1000;
          continue;
        }
      }
      affinities_s_ += (now_ms() - t0) / 1000;
    }
  }
  return prepared();
}

const char* TsneRun::phase() const {
  if (!build_) return "iteration";
  switch (build_->stage) {
    case Build::Stage::Neighbours: return "neighbours";
    case Build::Stage::Calibrate:
    case Build::Stage::Symmetrise: return "affinities";
    case Build::Stage::Init: break;
  }
  return "init";
}

double TsneRun::progress() const {
  if (!build_) return total_ > 0 ? static_cast<double>(iteration_) / static_cast<double>(total_) : 1.0;
  switch (build_->stage) {
    case Build::Stage::Neighbours: return build_->search->progress();
    case Build::Stage::Calibrate: return 0.9 * static_cast<double>(build_->row) / static_cast<double>(n_);
    case Build::Stage::Symmetrise: return 0.9;
    case Build::Stage::Init: break;
  }
  return 0.0;
}

int64_t TsneRun::step(int64_t iterations) {
  check_at_least("tsne step", "iterations", iterations, 0);
  prepare(std::numeric_limits<int64_t>::max());
  const double t0 = now_ms();
  const int64_t end = iterations > total_ - iteration_ ? total_ : iteration_ + iterations;
  for (; iteration_ < end; ++iteration_) {
    const bool exploring = iteration_ < kTsneExplorationIterations;
    const float exaggeration = exploring ? static_cast<float>(exaggeration_) : 1.0f;
    const float momentum = static_cast<float>(exploring ? kInitialMomentum : kFinalMomentum);
    if (exact_) tsne_gradient_exact(p_, y_, exaggeration, grad_);
    else tsne_gradient_bh_ordered(p_, y_, theta_, exaggeration, grad_, order_);
    // bhtsne's update: gains grow where the gradient turned against the last update
    const float lr = static_cast<float>(learning_rate_);
    for (size_t i = 0; i < y_.size(); ++i) {
      const bool turned = (grad_[i] > 0) != (update_[i] > 0) || (grad_[i] < 0) != (update_[i] < 0);
      gains_[i] = turned ? gains_[i] + kGainStep : gains_[i] * kGainDecay;
      if (gains_[i] < kMinGain) gains_[i] = kMinGain;
      update_[i] = momentum * update_[i] - lr * gains_[i] * grad_[i];
      y_[i] += update_[i];
    }
    double mx = 0, my = 0;  // re-centre
    for (int64_t i = 0; i < n_; ++i) mx += y_[2 * i], my += y_[2 * i + 1];
    mx /= static_cast<double>(n_), my /= static_cast<double>(n_);
    if (!std::isfinite(mx) || !std::isfinite(my)) {
      fail("tsne", "the map became " + format_number(std::isfinite(mx) ? my : mx) + " at iteration " +
                       std::to_string(iteration_) + " with learning rate " + format_number(learning_rate_) +
                       "; lower the learning rate");
    }
    const float fx = static_cast<float>(mx), fy = static_cast<float>(my);
    for (int64_t i = 0; i < n_; ++i) y_[2 * i] -= fx, y_[2 * i + 1] -= fy;
  }
  layout_s_ += (now_ms() - t0) / 1000;
  return iteration_;
}

double TsneRun::kl() {
  if (!prepared()) fail("tsne kl", std::string("the map is not constructed yet (phase ") + phase() + "); prepare() it first");
  if (kl_iteration_ != iteration_) {
    kl_ = tsne_kl_ordered(p_, y_, exact_ ? 0.0 : theta_, order_);
    kl_iteration_ = iteration_;
  }
  return kl_;
}

}  // namespace embedlab
