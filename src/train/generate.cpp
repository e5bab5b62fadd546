#include "train/generate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "kernels/dense.hpp"
#include "train/checkpoint.hpp"
#include "train/next_token.hpp"

namespace embedlab {

namespace {

const char* const kWhere = "generate";

// The row to draw from scores z (V): greedy at temperature 0, else torch.multinomial's
// with-replacement CPU draw over exp((z - max) / temperature) (see the header).
int32_t draw(std::span<const float> z, double temperature, Generator& g, std::vector<float>& cum) {
  const size_t V = z.size();
  size_t best = 0;
  for (size_t j = 1; j < V; ++j) best = z[j] > z[best] ? j : best;
  if (temperature == 0) return static_cast<int32_t>(best);
  const float zmax = z[best];
  float sum = 0;
  for (size_t j = 0; j < V; ++j) {
    sum = sum + dense::exp_float(static_cast<float>(static_cast<double>(z[j] - zmax) / temperature));
    cum[j] = sum;
  }
  for (size_t j = 0; j < V; ++j) cum[j] = cum[j] / sum;  // sum >= 1: the largest score gives exp(0)
  cum[V - 1] = 1.0f;
  const double u = g.uniform_double();
  size_t lo = 0, hi = V;
  while (hi > lo) {
    const size_t mid = lo + (hi - lo) / 2;
    if (static_cast<double>(cum[mid]) < u) lo = mid + 1;
    else hi = mid;
  }
  return static_cast<int32_t>(lo);
}

// a * b for counts read from a file: fails rather than wrapping
uint64_t product(int64_t a, int64_t b) {
  uint64_t n = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(static_cast<uint64_t>(a), static_cast<uint64_t>(b), &n)) {
    fail("checkpoint", "the table size " + std::to_string(a) + " x " + std::to_string(b) + " is out of range");
  }
  return n;
}

void check_table(const CheckpointReader& r, const std::string& name, int64_t rows, int64_t cols) {
  const uint64_t want = product(rows, cols);
  const size_t got = r.float_count(name);
  if (got != want) {
    fail("checkpoint", "record '" + name + "' holds " + std::to_string(got) + " values, the settings ask for " +
                           std::to_string(rows) + " x " + std::to_string(cols));
  }
}

}  // namespace

void validate(const SampleOptions& o) {
  check_index(kWhere, "tokens", o.tokens, 0, kMaxSampleTokens + 1);
  if (!std::isfinite(o.temperature) || o.temperature < 0) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", o.temperature);
    fail(kWhere, std::string("temperature must be finite and >= 0, got ") + buf);
  }
}

std::vector<int32_t> sample_rows(NextTokenModel& m, std::span<const int32_t> prompt, const SampleOptions& o) {
  validate(o);
  const NextTokenConfig& c = m.config();
  const int64_t V = c.vocab_size, T = c.context;
  if (prompt.empty()) fail(kWhere, "the prompt is empty; give at least one token");
  for (int32_t id : prompt) check_index(kWhere, "prompt row", id, 0, V);
  MemoryPlan p(kWhere);
  p.add("sequence (the prompt's last context and the new tokens)", {std::min<int64_t>(static_cast<int64_t>(prompt.size()), T) + o.tokens}, kInt32);
  p.add("window", {T}, kInt32);
  p.add("logits", {V}, kFloat32);
  p.add("cumulative distribution", {V}, kFloat32);
  plan_run(p, c, 1, false);
  p.check();
  // only the last T ids of the prompt can ever be seen
  std::vector<int32_t> seq(prompt.end() - std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(prompt.size()), T), prompt.end());
  const size_t first_new = seq.size();
  std::vector<int32_t> window(static_cast<size_t>(T), 0);
  std::vector<float> z(static_cast<size_t>(V)), cum(static_cast<size_t>(V));
  Generator g(o.seed);
  for (int64_t k = 0; k < o.tokens; ++k) {
    const size_t len = std::min(seq.size(), static_cast<size_t>(T));
    std::fill(window.begin(), window.end(), 0);
    std::copy(seq.end() - static_cast<std::ptrdiff_t>(len), seq.end(), window.begin());
    m.logits(window, static_cast<int64_t>(len) - 1, z);
    seq.push_back(draw(z, o.temperature, g, cum));
  }
  return std::vector<int32_t>(seq.begin() + static_cast<std::ptrdiff_t>(first_new), seq.end());
}

SavedModel load_saved_model(std::span<const uint8_t> checkpoint) {
  const CheckpointReader r(checkpoint, "next-token");
  const NextTokenConfig c = model_settings(r.settings());
  // the two tables every model has, against the file before anything is sized from the settings
  check_table(r, "param.token", c.vocab_size, c.dim);
  check_table(r, "param.query", c.dim, c.dim);
  MemoryPlan p("checkpoint");
  plan_model(p, c);
  p.check();
  SavedModel m;
  m.model = std::make_unique<NextTokenModel>(c);
  for (const ParamView& v : m.model->params()) r.floats(std::string("param.") + v.name, std::span<float>(v.data, v.size));
  std::optional<RunTokens> tokens = read_run_tokens(r, c.vocab_size);
  if (!tokens) fail(kWhere, "this checkpoint holds no tokenizer (saved by an older embedlab); train it again with --save-state");
  m.tokens = std::move(*tokens);
  m.step = r.step();
  return m;
}

Generated generate(SavedModel& m, std::string_view prompt, const SampleOptions& o) {
  validate(o);
  if (prompt.empty()) fail(kWhere, "the prompt is empty; give at least one token");
  Tokenizer& tok = m.tokens.tokenizer;
  const std::vector<int32_t> prompt_ids = tok.encode(prompt);
  if (prompt_ids.empty()) {
    fail(kWhere, "the prompt \"" + std::string(prompt) + "\" has no tokens for the " + tok.kind() + " tokenizer; give at least one token");
  }
  const std::vector<int32_t>& rows = m.tokens.rows;  // row -> id (empty: the same)
  std::vector<int32_t> prompt_rows(prompt_ids.size());
  for (size_t k = 0; k < prompt_ids.size(); ++k) {
    const int32_t id = prompt_ids[k];
    if (rows.empty()) {
      prompt_rows[k] = id;
      continue;
    }
    const auto it = std::lower_bound(rows.begin(), rows.end(), id);  // rows are in id order
    const bool found = it != rows.end() && *it == id;
    if (!found && tok.vocab() && id == Vocab::kUnk) {
      fail(kWhere, "the prompt has text the " + tok.kind() + " vocabulary lacks (it encodes to <unk>, id 1), so the model has no row for it");
    }
    if (!found) {
      fail(kWhere, "the prompt's token \"" + tok.token_string(id) + "\" (id " + std::to_string(id) +
                       ") does not occur in the training text, so the model has no row for it");
    }
    prompt_rows[k] = static_cast<int32_t>(it - rows.begin());
  }
  Generated g;
  g.ids = sample_rows(*m.model, prompt_rows, o);
  if (!rows.empty()) {
    for (int32_t& id : g.ids) id = rows[static_cast<size_t>(id)];
  }
  // the continuation's text as it follows the prompt (the joining space of word vocabularies)
  std::vector<int32_t> all(prompt_ids);
  all.insert(all.end(), g.ids.begin(), g.ids.end());
  const std::string whole = tok.decode(all), head = tok.decode(prompt_ids);
  g.text = whole.compare(0, head.size(), head) == 0 ? whole.substr(head.size()) : tok.decode(g.ids);
  return g;
}

Generated generate(std::span<const uint8_t> checkpoint, std::string_view prompt, const SampleOptions& o) {
  validate(o);
  SavedModel m = load_saved_model(checkpoint);
  return generate(m, prompt, o);
}

}  // namespace embedlab
