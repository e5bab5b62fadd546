// word2vec (gensim-faithful skip-gram and CBOW) and the table writers.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/file.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"
#include "train/word2vec.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

// A corpus with structure: sentences "a b c d" style over two topics, so that words of
// one topic share contexts. Ids 0..9 topic one, 10..19 topic two, 20 a rare word.
struct Corpus {
  std::vector<int32_t> ids;
  std::vector<int64_t> starts{0};
};

Corpus topics(int sentences) {
  Corpus c;
  uint32_t r = 12345;
  for (int s = 0; s < sentences; ++s) {
    const int32_t base = (s % 2) * 10;
    for (int w = 0; w < 8; ++w) {
      r = r * 1103515245u + 12345u;
      c.ids.push_back(base + static_cast<int32_t>((r >> 16) % 10));
    }
    if (s == 3) c.ids.push_back(20);
    c.starts.push_back(static_cast<int64_t>(c.ids.size()));
  }
  return c;
}

using embedlab::testing::same_bits;

double cosine(const std::vector<float>& t, int64_t D, int32_t a, int32_t b) {
  double ab = 0, aa = 0, bb = 0;
  for (int64_t d = 0; d < D; ++d) {
    const double x = t[a * D + d], y = t[b * D + d];
    ab += x * y, aa += x * x, bb += y * y;
  }
  return ab / std::sqrt(aa * bb);
}

std::string slurp(const std::string& path) { return read_file("test", path); }

}  // namespace

TEST_CASE("Word2Vec builds gensim's vocabulary, sub-sampling and noise tables", "[word2vec]") {
  // counts per id: 0 -> 0, 1 -> 6, 2 -> 2, 3 -> 6, 4 -> 10
  const std::vector<int32_t> ids{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 2, 2};
  const std::vector<int64_t> starts{0, 12, 24};
  Word2VecSettings s;
  s.min_count = 5;
  s.vector_size = 4;

  SECTION("min_count drops rare ids and rows are sorted by descending count, ties by id") {
    Word2Vec w(ids, starts, {}, s);
    CHECK(w.vocab_ids() == std::vector<int32_t>{4, 1, 3});
    CHECK(w.vocab_counts() == std::vector<int64_t>{10, 6, 6});
    CHECK(w.row_of(2) == -1);
    CHECK(w.row_of(3) == 2);
  }

  SECTION("keep thresholds follow (sqrt(c/t) + 1) t/c with t = sample * retained words") {
    s.sample = 0.1;  // t = 0.1 * 22 = 2.2
    Word2Vec w(ids, starts, {}, s);
    // c = 10: (sqrt(10/2.2) + 1) * 2.2/10 = 0.68903..., times 2^32 - 1, truncated
    const double p10 = (std::sqrt(10 / 2.2) + 1) * (2.2 / 10);
    CHECK(w.sample_ints()[0] == static_cast<uint32_t>(p10 * 4294967295.0));
    CHECK(w.sample_ints()[0] < w.sample_ints()[1]);
    s.sample = 0;
    Word2Vec none(ids, starts, {}, s);
    CHECK(none.sample_ints()[0] == 4294967295u);
  }

  SECTION("the noise table is cumulative count^0.75 scaled to 2^31 - 1") {
    Word2Vec w(ids, starts, {}, s);
    const double a = std::pow(10.0, 0.75), b = std::pow(6.0, 0.75), z = a + 2 * b;
    CHECK(w.cum_table().back() == 2147483647u);
    CHECK(static_cast<double>(w.cum_table()[0]) == Approx(a / z * 2147483647.0).margin(1));
    CHECK(static_cast<double>(w.cum_table()[1]) == Approx((a + b) / z * 2147483647.0).margin(1));
  }

  SECTION("noise draws through the guide table equal a full bisection of cum_table") {
    Word2Vec w(ids, starts, {}, s);
    const auto& cum = w.cum_table();
    uint64_t r = 12345;
    for (int i = 0; i < 20000; ++i) {
      const uint64_t x = (r >> 16) % cum.back();
      const int32_t want = static_cast<int32_t>(std::lower_bound(cum.begin(), cum.end(), x) - cum.begin());
      REQUIRE(w.draw_noise(r) == want);
      r = (r * 25214903917ull + 11) & ((1ull << 48) - 1);
    }
  }

  SECTION("input vectors start uniform in [-1/D, 1/D) and output vectors at zero") {
    Word2Vec w(ids, starts, {}, s);
    for (float v : w.input_table()) {
      CHECK(v >= -0.25f);
      CHECK(v < 0.25f);
    }
    for (float v : w.output_table()) CHECK(v == 0.0f);
  }
}

TEST_CASE("Word2Vec trains skip-gram and CBOW", "[word2vec]") {
  const Corpus c = topics(400);
  Word2VecSettings s;
  s.vector_size = 16;
  s.min_count = 2;
  s.sample = 0;
  s.epochs = 10;
  s.batch_words = 500;
  s.seed = 3;

  for (bool sg : {true, false}) {
    s.sg = sg;
    Word2Vec w(c.ids, c.starts, {}, s);
    INFO((sg ? "skip-gram" : "CBOW"));

    SECTION(std::string("the loss falls and words of one topic end up closer (") + (sg ? "sg" : "cbow") + ")") {
      const TrainStats first = w.step(2);
      const TrainStats rest = w.train_all();
      CHECK(rest.finished);
      CHECK(w.jobs_done() == w.total_jobs());
      CHECK(rest.last_loss < first.loss);
      const auto& t = w.input_table();
      const int64_t D = w.dim();
      CHECK(cosine(t, D, w.row_of(1), w.row_of(2)) > cosine(t, D, w.row_of(1), w.row_of(12)) + 0.2);
      CHECK(w.row_of(20) == -1);  // seen once, below min_count
    }

    SECTION(std::string("the same seed gives the same tables, and reset replays the run (") + (sg ? "sg" : "cbow") + ")") {
      Word2Vec other(c.ids, c.starts, {}, s);
      const TrainStats a = w.step(5), b = other.step(5);
      CHECK(a.loss == b.loss);
      CHECK(a.tokens == b.tokens);
      CHECK(same_bits(w.input_table(), other.input_table()));
      CHECK(same_bits(w.output_table(), other.output_table()));
      w.reset();
      CHECK(w.step(5).loss == a.loss);
      CHECK(same_bits(w.input_table(), other.input_table()));
    }
  }

  SECTION("without sub-sampling every in-vocabulary word is effective; raw words count all") {
    Word2Vec w(c.ids, c.starts, {}, s);
    const TrainStats st = w.step(w.jobs_per_epoch());
    CHECK(st.raw_tokens == static_cast<int64_t>(c.ids.size()));
    CHECK(st.tokens == static_cast<int64_t>(c.ids.size()) - 1);  // the rare id 20 is out
  }

  SECTION("the learning rate decays linearly from alpha towards min_alpha") {
    Word2Vec w(c.ids, c.starts, {}, s);
    CHECK(w.step(1).learning_rate == Approx(0.025).margin(1e-9));
    w.step(w.total_jobs() - 2);
    const double last = w.step(1).learning_rate;
    CHECK(last < 0.0035);
    CHECK(last >= 0.0001);
  }
}

TEST_CASE("Word2Vec settings are validated with clear messages", "[word2vec]") {
  const Corpus c = topics(10);
  Word2VecSettings s;
  s.min_count = 1;

  SECTION("a vector size of 0 is refused") {
    s.vector_size = 0;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s), "word2vec: vector_size must be >= 1, got 0");
  }
  SECTION("a NaN learning rate is refused") {
    s.alpha = NAN;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s), "word2vec: alpha must be finite and > 0, got nan");
  }
  SECTION("negative 0 (hierarchical softmax) is refused") {
    s.negative = 0;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s),
                        "word2vec: negative must be >= 1 (hierarchical softmax is not implemented), got 0");
  }
  SECTION("tables larger than memory are refused") {
    s.vector_size = 1000000000;
    testing::WasmLimits wasm;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s),
                        "word2vec: input table 21 x 1000000000 float32 need 78.2 GiB; the limit here is 2.0 GiB");
  }
  SECTION("a corpus where no word reaches min_count is refused") {
    s.min_count = 1000;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s),
                        "word2vec: no word occurs at least min_count=1000 times (the most frequent occurs 8 "
                        "times); lower min_count or use a longer text");
  }
  SECTION("ids beyond the counts are refused") {
    const std::vector<int64_t> counts(5, 3);
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, counts, s), "word2vec: token id 6 out of range [0, 5)");
  }
  SECTION("a huge learning rate leaves the tables finite: predictions with |dot| >= 6 are skipped") {
    s.alpha = 3e38;
    s.sample = 0;
    Word2Vec w(c.ids, c.starts, {}, s);
    w.train_all();
    for (float v : w.input_table()) REQUIRE(std::isfinite(v));
    for (float v : w.output_table()) REQUIRE(std::isfinite(v));
  }
  SECTION("a learning rate beyond float's range is refused") {
    s.alpha = 1e39;
    REQUIRE_THROWS_WITH(Word2Vec(c.ids, c.starts, {}, s), "word2vec: alpha must be finite and > 0, got 1e+39");
  }
}

TEST_CASE("Table writers produce numpy and Embedding Projector files", "[word2vec][table-io]") {
  const std::vector<float> t{1.0f, -2.5f, 0.125f, 3.0f, 4.0f, 5.0f};

  SECTION("the .npy header is version 1.0, 64-byte aligned, little-endian float32 (2, 3)") {
    const std::string b = npy_bytes(t, 2, 3);
    CHECK(b.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    const size_t hlen = static_cast<unsigned char>(b[8]) | (static_cast<unsigned char>(b[9]) << 8);
    CHECK((10 + hlen) % 64 == 0);
    CHECK(b.substr(10, hlen).find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") == 0);
    CHECK(b.back() != '\n');
    CHECK(b.size() == 10 + hlen + 24);
    float v;
    std::memcpy(&v, b.data() + 10 + hlen + 4, 4);
    CHECK(v == -2.5f);
  }

  SECTION("a shape that does not match the data is refused") {
    REQUIRE_THROWS_WITH(npy_bytes(t, 4, 2), "write_npy: table of 6 values is not 4 x 2");
  }

  SECTION("projector TSV files hold one row and one escaped label per line") {
    const std::string dir = std::filesystem::temp_directory_path().string() + "/embedlab-tsv-test";
    write_projector_tsv(dir, t, 2, 3, {"the", "a\tb\\"});
    CHECK(slurp(dir + "/vectors.tsv") == "1\t-2.5\t0.125\n3\t4\t5\n");
    CHECK(slurp(dir + "/metadata.tsv") == "the\na\\tb\\\\\n");
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("Word2Vec plans its tables and buffers", "[word2vec][memory]") {
  testing::WasmLimits wasm;
  Word2VecSettings s;
  s.min_count = 1;

  SECTION("counting ids up to the largest id plans the count table first") {
    const std::vector<int32_t> ids{2147483646};
    const std::vector<int64_t> starts{0, 1};
    REQUIRE_THROWS_WITH(Word2Vec(ids, starts, {}, s),
                        "word2vec: word counts 2147483647 int64 need 16.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("the input table is planned with its width") {
    s.vector_size = int64_t{1} << 30;  // 4 GiB a row
    const std::vector<int64_t> counts{100, 100, 100};
    const std::vector<int32_t> ids{0, 1, 2};
    const std::vector<int64_t> starts{0, 3};
    REQUIRE_THROWS_WITH(Word2Vec(ids, starts, counts, s),
                        "word2vec: input table 3 x 1073741824 float32 need 12.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("tables that fit alone but not together are refused by their sum") {
    testing::WasmLimits three(3ull << 30, 2ull << 30);
    // 256 MiB a row: 7 rows in each of the two tables (1.75 GiB each) and two work vectors
    // (0.5 GiB) are 4.0 GiB together
    s.vector_size = int64_t{1} << 26;
    const std::vector<int64_t> counts{100, 100, 100, 100, 100, 100, 100};
    const std::vector<int32_t> ids{0, 1, 2, 3, 4, 5, 6};
    const std::vector<int64_t> starts{0, 7};
    REQUIRE_THROWS_WITH(Word2Vec(ids, starts, counts, s),
                        "word2vec: its buffers need 4.0 GiB together (largest: input table 7 x 67108864 float32, "
                        "1.8 GiB); the limit here is 3.0 GiB");
  }
}

TEST_CASE("Table writers check rows x cols in 64 bits", "[word2vec][table_io][memory]") {
  // 2^62 x 4 is 2^64: 0 in 64 bits, which an unchecked product would take for an empty table
  REQUIRE_THROWS_WITH(npy_bytes(std::vector<float>{}, int64_t{1} << 62, 4),
                      "write_npy: table of 0 values is not 4611686018427387904 x 4");
  testing::WasmLimits tiny(1 << 20, 1 << 20);
  REQUIRE_THROWS_WITH(npy_bytes(std::vector<float>(300000, 1.0f), 300000, 1),
                      "write_npy: .npy file 300000 x 1 x 4 bytes need 1.1 MiB; the limit here is 1.0 MiB");
}
