// Nearest rows of an embedding table, and word analogies (a - b + c), for inspecting a table.
//
// Shapes: table (V, D) float32 row-major; a query is a row id in [0, V) or a vector (D).
//
//   NeighbourIndex idx(table, V, D);             // checks values, precomputes the V row norms
//   idx.nearest(id, k, Metric::Cosine)           -> k (id, score) pairs, the query row left out
//   idx.nearest_to(vector (D), k, metric)        -> k (id, score) pairs over all rows
//   idx.analogy(positive ids, negative ids, k)   -> gensim's most_similar(positive, negative)
//
// Scores: Metric::Cosine -> cos(q, r) = q.r / (|q| |r|), best first (descending);
// Metric::Euclidean -> |q - r|, best first (ascending). Ties go to the lower id. Every dot
// product goes through kernels::dot (fixed 8-way order), so the ids and the score bits are the
// same in the native and the wasm builds.
//
// Analogy (gensim 4 KeyedVectors.most_similar): each input row is unit-normalised and
// weighted +1 (positive) or -1 (negative); the mean of those is the query, rows are ranked by
// cosine with it, and the input rows themselves are left out. Worked example with rows
// man (1,0,0), woman (1,1,0), king (1,0,1), queen (1,1,1), apple (0,0,1) (see
// tests/test_neighbours.cpp): king - man + woman -> queen first.
//
// subtle: a row of zeros has no direction; as a cosine candidate it scores 0, and as a cosine
// query or analogy input it fails with a message (gensim would give nan).
// subtle: the index keeps a view of the table, not a copy: the table must outlive it.
//
// unit_rows(table, V, D) -> a new (V, D) table whose rows have length 1 (for "normalise rows"
// in the page: cosine then equals the dot product and euclidean distance sqrt(2 - 2 cos)).
//
// It does not: build an approximate index (every query scans all V rows: O(V D)), or
// normalise the table in place.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

enum class Metric { Cosine, Euclidean };

// "cosine" | "euclidean" -> Metric; anything else fails naming the choices.
Metric parse_metric(const std::string& name);
const char* metric_name(Metric m);

struct Neighbours {
  std::vector<int32_t> ids;   // (m) best first, m = min(k, candidates)
  std::vector<float> scores;  // (m) cosine similarity or euclidean distance
};

// table (V, D) float32 -> (V, D) float32, row r divided by its length sqrt(kernels::dot(r, r))
// (the norm NeighbourIndex holds). A zero row stays zero; a non-finite value fails naming its
// row and column. The input is not changed.
// Example: rows (3, 4), (0, 0), (0, -2) -> (0.6, 0.8), (0, 0), (0, -1).
std::vector<float> unit_rows(std::span<const float> table, int64_t rows, int64_t dim);

class NeighbourIndex {
 public:
  // table (V, D) float32; fails on a size mismatch or a non-finite value.
  NeighbourIndex(std::span<const float> table, int64_t rows, int64_t dim);

  int64_t rows() const { return rows_; }
  int64_t dim() const { return dim_; }
  float norm(int32_t id) const { return norms_[static_cast<size_t>(id)]; }

  // The k rows closest to row id, id itself left out. k >= 1; fewer when V - 1 < k.
  // Example: rows (1,0), (0.8,0.6), (0,1), (-1,0); nearest(0, 2) -> ids {1, 2}, scores {0.8, 0}.
  Neighbours nearest(int32_t id, int64_t k, Metric metric = Metric::Cosine) const;

  // The k rows closest to vector (D), none left out except the ids in exclude.
  Neighbours nearest_to(std::span<const float> vector, int64_t k, Metric metric = Metric::Cosine,
                        std::span<const int32_t> exclude = {}) const;

  // Rows most similar to mean(unit(positive)) - ... (see above), inputs left out.
  Neighbours analogy(std::span<const int32_t> positive, std::span<const int32_t> negative, int64_t k) const;

 private:
  std::span<const float> table_;
  int64_t rows_, dim_;
  std::vector<float> norms_;  // (V) sqrt(dot(row, row))
};

}  // namespace embedlab
