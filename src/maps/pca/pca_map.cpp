// PCA (analysis/pca.hpp) in the map registry (maps/registry.hpp), as a map of one step: start
// checks the sizes and copies the rows, the one prepare slice runs pca() with k = 2 (phase
// "pca"), after which the run is in phase "done" with step 1 of 1 reached. The coordinates are
// pca()'s points, bit for bit (M.pca's, `embedlab pca`'s). It does not slice the
// decomposition itself (one slice, however long), take parameters, or start from given
// coordinates.
#include "analysis/pca.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "maps/registry.hpp"

namespace embedlab {

namespace {

class PcaMapRun final : public MapRun {
 public:
  PcaMapRun(std::span<const float> table, int64_t rows, int64_t dim) : rows_(rows), dim_(dim) {
    if (static_cast<uint64_t>(table.size()) != static_cast<uint64_t>(rows) * static_cast<uint64_t>(dim)) {
      fail("pca", "table has " + std::to_string(table.size()) + " values, expected " + std::to_string(rows) + " x " +
                      std::to_string(dim));
    }
    if (rows < 2 || dim < 2) {
      fail("pca", "a 2-D map needs at least 2 rows and 2 columns, got (" + std::to_string(rows) + ", " +
                      std::to_string(dim) + ")");
    }
    MemoryPlan p("pca");
    p.add("table copy", {rows, dim}, kFloat32);
    p.check();
    table_.assign(table.begin(), table.end());
  }
  bool prepare(double) override {
    if (!done_) {
      PcaOptions o;
      o.k = 2;
      result_ = pca(table_, rows_, dim_, o);
      std::vector<float>().swap(table_);
      done_ = true;
    }
    return true;
  }
  bool prepared() const override { return done_; }
  const char* phase() const override { return done_ ? "done" : "pca"; }
  double progress() const override { return done_ ? 1 : 0; }
  int64_t step(int64_t) override {
    prepare(0);
    return 1;
  }
  int64_t steps() const override { return done_ ? 1 : 0; }
  int64_t total() const override { return 1; }
  int64_t rows() const override { return rows_; }
  int64_t components() const override { return 2; }
  std::span<const float> coordinates() const override { return result_.points; }
  // {rows, dim, solver, explained: [2 variance ratios]} ({rows, dim} before the step)
  MapInfo info() override {
    MapInfo out;
    out.number("rows", static_cast<double>(rows_));
    out.number("dim", static_cast<double>(dim_));
    if (done_) {
      out.text("solver", pca_solver_name(result_.solver));
      out.numbers("explained", result_.explained);
    }
    return out;
  }

 private:
  int64_t rows_, dim_;
  std::vector<float> table_;
  PcaResult result_;
  bool done_ = false;
};

std::unique_ptr<MapRun> start_pca(std::span<const float> table, int64_t rows, int64_t dim, const MapValues&,
                                  std::span<const float> init_coords) {
  if (!init_coords.empty()) fail("pca", "PCA cannot start from given coordinates");
  return std::make_unique<PcaMapRun>(table, rows, dim);
}

}  // namespace

const MapAlgorithm& pca_map() {
  static const MapAlgorithm a{
      "pca",
      "PCA",
      "the top 2 principal components of the rows (as sklearn's PCA): one step, no parameters",
      2,
      {},
      MapNeeds{2, false, false, "step"},
      start_pca,
  };
  return a;
}

}  // namespace embedlab
