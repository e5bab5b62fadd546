// Sampling (train/generate.hpp): greedy is the argmax of the model's own forward, the padding
// after a short prompt changes nothing, a seed fixes the draws, temperature -> 0 is greedy, a
// checkpoint alone (tables + tokenizer + row ids) is enough, and bad inputs are named.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "next_token_fixtures.hpp"
#include "reference.hpp"
#include "tokenizer/tokenizer_kinds.hpp"
#include "train/checkpoint.hpp"
#include "train/generate.hpp"
#include "train/next_token.hpp"
#include "train/run_tokens.hpp"
#include "train/word2vec.hpp"

using namespace embedlab;

namespace {

// T 6, seed 7, Adam lr 0.01 (next_token_fixtures.hpp)
NextTokenSettings settings(int64_t V, const std::string& pos = "learned") { return testing::small_settings(V, 6, pos, 7); }

SampleOptions opts(int64_t tokens, double temperature, uint64_t seed) {
  SampleOptions o;
  o.tokens = tokens;
  o.temperature = temperature;
  o.seed = seed;
  return o;
}

const char* const kText = "the cat sat on the mat. the dog sat on the log. the cat saw the dog.\n";

}  // namespace

TEST_CASE("sample_rows: greedy, seeds, temperature and the context", "[generate]") {
  const std::vector<int32_t> ids = testing::id_stream(13, 400, 1);
  for (const char* pos : {"learned", "rope", "alibi"}) {
    INFO(pos);
    NextTokenTrainer tr(ids, settings(13, pos));
    tr.step(30);
    NextTokenModel& m = tr.model();
    const std::vector<int32_t> window(ids.begin(), ids.begin() + 6);

    SECTION("greedy picks the row of the lowest loss: the argmax of the model's own forward") {
      const std::vector<int32_t> g = sample_rows(m, window, opts(1, 0, 1));
      REQUIRE(g.size() == 1);
      std::vector<int32_t> targets(ids.begin() + 1, ids.begin() + 7);
      int32_t best = -1;
      double best_loss = 0;
      for (int32_t t = 0; t < 13; ++t) {
        targets[5] = t;  // only the last position's term changes
        const double l = m.loss(window, targets, 1);
        if (best < 0 || l < best_loss) best = t, best_loss = l;
      }
      CHECK(g[0] == best);
    }
    SECTION("the ids after the last prompt position do not change its logits (causal attention)") {
      std::vector<float> a(13), b(13);
      std::vector<int32_t> padded = {window[0], window[1], window[2], 0, 0, 0};
      m.logits(padded, 2, a);
      m.logits(window, 2, b);
      CHECK(std::memcmp(a.data(), b.data(), a.size() * 4) == 0);
    }
    SECTION("the same seed draws the same rows; other seeds draw others") {
      const std::vector<int32_t> a = sample_rows(m, window, opts(40, 1.0, 5));
      CHECK(a == sample_rows(m, window, opts(40, 1.0, 5)));
      CHECK(a != sample_rows(m, window, opts(40, 1.0, 6)));
      CHECK(a.size() == 40);
    }
    SECTION("temperature towards 0 draws the greedy rows whatever the seed") {
      const std::vector<int32_t> greedy = sample_rows(m, window, opts(20, 0, 1));
      for (uint64_t seed : {1, 2, 3}) CHECK(sample_rows(m, window, opts(20, 1e-6, seed)) == greedy);
      // and a hot model draws differently from greedy
      CHECK(sample_rows(m, window, opts(20, 5.0, 1)) != greedy);
    }
    SECTION("a prompt longer than the context is read through its last T ids") {
      const std::vector<int32_t> longer(ids.begin(), ids.begin() + 20);
      const std::vector<int32_t> tail(ids.begin() + 14, ids.begin() + 20);
      CHECK(sample_rows(m, longer, opts(10, 1.0, 3)) == sample_rows(m, tail, opts(10, 1.0, 3)));
    }
    SECTION("bad inputs are named") {
      CHECK_THROWS_WITH(sample_rows(m, {}, opts(1, 1, 1)), "generate: the prompt is empty; give at least one token");
      CHECK_THROWS_WITH(sample_rows(m, window, opts(-1, 1, 1)), "generate: tokens -1 out of range [0, 4097)");
      CHECK_THROWS_WITH(sample_rows(m, window, opts(4097, 1, 1)), "generate: tokens 4097 out of range [0, 4097)");
      CHECK_THROWS_WITH(sample_rows(m, window, opts(1, -1, 1)), "generate: temperature must be finite and >= 0, got -1");
      CHECK_THROWS_WITH(sample_rows(m, window, opts(1, std::numeric_limits<double>::infinity(), 1)),
                        "generate: temperature must be finite and >= 0, got inf");
      CHECK_THROWS_WITH(sample_rows(m, std::vector<int32_t>{3, 13}, opts(1, 1, 1)), "generate: prompt row 13 out of range [0, 13)");
      CHECK(sample_rows(m, window, opts(0, 1, 1)).empty());
    }
  }
}

TEST_CASE("run_rows: the rows of a next-token run, one remap for the CLI and the page", "[generate]") {
  const std::vector<int32_t> ids{5, 9, 5, 7};
  const RunRowIds occ = run_rows(ids, 50257, RunRows::kOccurring);
  CHECK(occ.ids == std::vector<int32_t>{0, 2, 0, 1});
  CHECK(occ.rows == std::vector<int32_t>{5, 7, 9});
  CHECK(run_rows_count(occ, 50257) == 3);
  const RunRowIds all = run_rows(ids, 50257, RunRows::kAll);
  CHECK(all.ids == ids);
  CHECK(all.rows.empty());
  CHECK(run_rows_count(all, 50257) == 50257);
  CHECK(run_rows(std::vector<int32_t>{}, 10, RunRows::kOccurring).rows.empty());
  CHECK(default_run_rows("gpt2") == RunRows::kOccurring);
  for (const char* kind : {"char", "word", "whitespace", "bpe"}) CHECK(default_run_rows(kind) == RunRows::kAll);
  CHECK(parse_run_rows("x", "all") == RunRows::kAll);
  CHECK_THROWS_WITH(parse_run_rows("x", "some"), "x: rows must be all or occurring, got 'some'");
  CHECK_THROWS_WITH(run_rows(std::vector<int32_t>{1, 10}, 10, RunRows::kOccurring), "next-token rows: token id 10 out of range [0, 10)");
  CHECK_THROWS_WITH(run_rows(std::vector<int32_t>{-1}, 10, RunRows::kAll), "next-token rows: token id -1 out of range [0, 10)");
}

TEST_CASE("generate: a checkpoint holds the model and its tokenizer", "[generate]") {
  SECTION("char: the state alone gives the rows sample_rows draws, decoded after the prompt") {
    Tokenizer tok = make_tokenizer("char", kText, {});
    const std::vector<int32_t> ids = tok.encode(kText);
    NextTokenTrainer tr(ids, settings(tok.vocab_size()));
    tr.set_tokens(tok, {});
    tr.step(20);
    const std::vector<uint8_t> bytes = tr.save_state();
    const Generated g = generate(bytes, "the c", opts(30, 0.8, 11));
    CHECK(g.ids == sample_rows(tr.model(), tok.encode("the c"), opts(30, 0.8, 11)));
    CHECK(g.text == tok.decode(g.ids));
    SavedModel m = load_saved_model(bytes);
    CHECK(m.step == 20);
    CHECK(generate(m, "the c", opts(30, 0.8, 11)).ids == g.ids);
  }
  SECTION("whitespace: the continuation starts with the space that joins it to the prompt") {
    Tokenizer tok = make_tokenizer("whitespace", kText, {});
    const std::vector<int32_t> ids = tok.encode(kText);
    NextTokenTrainer tr(ids, settings(tok.vocab_size()));
    tr.set_tokens(tok, {});
    tr.step(5);
    const Generated g = generate(tr.save_state(), "the cat", opts(3, 1.0, 2));
    REQUIRE(g.ids.size() == 3);
    CHECK(g.text == " " + tok.decode(g.ids));
  }
  SECTION("rows remapped to the ids that occur (gpt2 runs, CLI and page): ids come back as token ids") {
    Tokenizer tok = make_tokenizer("gpt2", {}, {});
    const std::vector<int32_t> raw = tok.encode(kText);
    // the engine's remap (run_tokens.hpp), the default for gpt2: the ids that occur, ascending
    REQUIRE(default_run_rows(tok.kind()) == RunRows::kOccurring);
    const RunRowIds rr = run_rows(raw, tok.vocab_size(), RunRows::kOccurring);
    const std::vector<int32_t>& rows = rr.rows;
    const std::vector<int32_t>& ids = rr.ids;
    std::vector<int32_t> distinct(raw);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    REQUIRE(rows == distinct);
    for (size_t k = 0; k < raw.size(); ++k) REQUIRE(rows[static_cast<size_t>(ids[k])] == raw[k]);
    NextTokenTrainer tr(ids, settings(static_cast<int64_t>(rows.size())));
    tr.set_tokens(tok, rows);
    tr.step(10);
    const std::vector<uint8_t> bytes = tr.save_state();
    const Generated g = generate(bytes, "the cat", opts(8, 1.0, 4));
    std::vector<int32_t> want = sample_rows(tr.model(), std::vector<int32_t>{ids[0], ids[1]}, opts(8, 1.0, 4));
    for (int32_t& r : want) r = rows[static_cast<size_t>(r)];
    CHECK(g.ids == want);
    CHECK(g.text == tok.decode(g.ids));
    const int32_t zebra = tok.encode(" zebra")[0];  // not in the text
    REQUIRE(!std::binary_search(rows.begin(), rows.end(), zebra));
    CHECK_THROWS_WITH(generate(bytes, "the zebra", opts(1, 1, 1)),
                      "generate: the prompt's token \"" + tok.token_string(zebra) + "\" (id " + std::to_string(zebra) +
                          ") does not occur in the training text, so the model has no row for it");
    CHECK_THROWS_WITH(tr.set_tokens(tok, {}), "next-token: the gpt2 tokenizer has 50257 ids, the model " + std::to_string(rows.size()) +
                                                  " rows (give the row -> id mapping when rows are not ids)");
    std::vector<int32_t> unsorted(rows);
    std::swap(unsorted[0], unsorted[1]);
    CHECK_THROWS_WITH(tr.set_tokens(tok, unsorted), "next-token: row ids must ascend (rows in id order): row 1 has id " +
                                                        std::to_string(unsorted[1]) + ", row 0 has " + std::to_string(unsorted[0]));
  }
  SECTION("a vocabulary's <unk> has no row when only the text's ids are trained (the page's char runs)") {
    Tokenizer tok = make_tokenizer("char", kText, {});
    const std::vector<int32_t> raw = tok.encode(kText);
    std::vector<int32_t> rows;  // every id but the four specials, which never occur
    for (int32_t id = Vocab::kNumSpecials; id < tok.vocab_size(); ++id) rows.push_back(id);
    std::vector<int32_t> ids(raw);
    for (int32_t& id : ids) id -= Vocab::kNumSpecials;
    NextTokenTrainer tr(ids, settings(static_cast<int64_t>(rows.size())));
    tr.set_tokens(tok, rows);
    const std::vector<uint8_t> bytes = tr.save_state();
    CHECK_THROWS_WITH(generate(bytes, "the Z", opts(1, 1, 1)),
                      "generate: the prompt has text the char vocabulary lacks (it encodes to <unk>, id 1), so the model has no row for it");
    CHECK(generate(bytes, "the c", opts(4, 1, 1)).ids.size() == 4);
  }
  SECTION("prompts without tokens, files without a tokenizer or of another model are refused") {
    Tokenizer tok = make_tokenizer("whitespace", kText, {});
    const std::vector<int32_t> ids = tok.encode(kText);
    NextTokenTrainer tr(ids, settings(tok.vocab_size()));
    const std::vector<uint8_t> bare = tr.save_state();
    CHECK_THROWS_WITH(generate(bare, "the", opts(1, 1, 1)),
                      "generate: this checkpoint holds no tokenizer (saved by an older embedlab); train it again with --save-state");
    tr.set_tokens(tok, {});
    const std::vector<uint8_t> bytes = tr.save_state();
    CHECK_THROWS_WITH(generate(bytes, "", opts(1, 1, 1)), "generate: the prompt is empty; give at least one token");
    CHECK_THROWS_WITH(generate(bytes, " \n ", opts(1, 1, 1)),
                      "generate: the prompt \" \n \" has no tokens for the whitespace tokenizer; give at least one token");
    // a resumed run tolerates the tokenizer records
    NextTokenTrainer again(ids, settings(tok.vocab_size()));
    again.load_state(bytes);
    CHECK(again.steps_done() == 0);
    Word2VecSettings w;
    w.min_count = 1;
    w.vector_size = 4;
    const std::vector<int64_t> starts = {0, static_cast<int64_t>(ids.size())};
    Word2Vec w2v(ids, starts, {}, w);
    CHECK_THROWS_WITH(generate(w2v.save_state(), "the", opts(1, 1, 1)), "checkpoint: it holds a word2vec run, not a next-token run");
  }
  SECTION("a crafted file whose settings claim huge tables fails before anything is sized from them") {
    Tokenizer tok = make_tokenizer("char", kText, {});
    NextTokenSettings s = settings(tok.vocab_size());
    s.model.vocab_size = 2000000000;
    CheckpointWriter w("next-token", settings_text(s), 0, 0);
    w.floats("param.token", std::vector<float>(16));
    const std::vector<uint8_t> bytes = w.finish();
    CHECK_THROWS_WITH(load_saved_model(bytes),
                      "checkpoint: record 'param.token' holds 16 values, the settings ask for 2000000000 x 8");
  }
}
