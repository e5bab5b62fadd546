#include "bench/bench_train.hpp"

#include <cstdio>
#include <vector>

#include "bench/bench.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "kernels/dense.hpp"
#include "train/next_token.hpp"

namespace embedlab {

namespace {
std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

Word2VecBench bench_word2vec(std::span<const int32_t> ids, std::span<const int64_t> starts,
                             std::span<const int64_t> counts, const Word2VecSettings& s) {
  Word2Vec w(ids, starts, counts, s);
  const TrainStats st = w.train_all();
  Word2VecBench b;
  b.sg = s.sg;
  b.vocab = w.vocab_size();
  b.effective_words = st.tokens;
  b.raw_words = st.raw_tokens;
  b.jobs = st.steps;
  b.seconds = st.elapsed_ms / 1000.0;
  b.effective_words_per_s = st.tokens_per_s;
  b.raw_words_per_s = st.raw_tokens_per_s;
  b.final_loss = st.last_loss;
  return b;
}

std::string to_json(const Word2VecBench& b) {
  return std::string("{\"bench\":\"train-word2vec\",\"model\":\"") + (b.sg ? "skipgram" : "cbow") +
         "\",\"vocab\":" + std::to_string(b.vocab) + ",\"jobs\":" + std::to_string(b.jobs) +
         ",\"effective_words\":" + std::to_string(b.effective_words) +
         ",\"raw_words\":" + std::to_string(b.raw_words) + ",\"seconds\":" + num(b.seconds) +
         ",\"effective_words_per_s\":" + num(b.effective_words_per_s) +
         ",\"raw_words_per_s\":" + num(b.raw_words_per_s) + ",\"final_loss\":" + num(b.final_loss) + "}";
}

NextTokenBench bench_next_token(int64_t V, int64_t D, int64_t T, int64_t B, int64_t steps,
                                const std::string& optimizer, const std::string& pos) {
  check_index("bench train", "steps", steps, 1, int64_t{1} << 40);
  // ids are int32 drawn with a 32-bit generator (the trainer checks the rest of V)
  check_index("bench train", "vocabulary size", V, 2, int64_t{INT32_MAX} + 1);
  check_at_least("bench train", "batch", B, 1);
  check_at_least("bench train", "context", T, 1);
  // B x T x (steps + 2) + 1 ids: planned before the count is formed in size_t
  const size_t n = plan("bench train", "training ids", {B, T, steps + 2}, kInt32) + 1;
  Generator g(0);
  std::vector<int32_t> ids(n);
  for (auto& id : ids) id = static_cast<int32_t>(g.below(static_cast<uint32_t>(V)));
  NextTokenSettings s;
  s.model.vocab_size = V;
  s.model.dim = D;
  s.model.context = T;
  s.model.pos = find_position_kind(pos).name;
  s.model.seed = 0;
  s.batch_size = B;
  s.optimizer.kind = parse_optimizer_kind(optimizer);
  s.optimizer.weight_decay = default_weight_decay(s.optimizer.kind);
  NextTokenTrainer tr(ids, s);
  NextTokenBench b;
  b.V = V, b.D = D, b.T = T, b.B = B, b.steps = steps, b.optimizer = optimizer, b.pos = pos;
  b.isa = dense::gemm_isa();
  b.first_loss = tr.step(1).loss;  // warm-up
  const TrainStats st = tr.step(steps);
  b.ms_per_step = st.elapsed_ms / static_cast<double>(steps);
  b.tokens_per_s = st.tokens_per_s;
  b.last_loss = st.last_loss;
  return b;
}

std::string to_json(const NextTokenBench& b) {
  return "{\"bench\":\"train-next-token\",\"V\":" + std::to_string(b.V) + ",\"D\":" + std::to_string(b.D) +
         ",\"T\":" + std::to_string(b.T) + ",\"B\":" + std::to_string(b.B) +
         ",\"steps\":" + std::to_string(b.steps) + ",\"optimizer\":\"" + b.optimizer + "\",\"pos\":\"" +
         b.pos + "\",\"isa\":\"" + b.isa + "\",\"ms_per_step\":" + num(b.ms_per_step) +
         ",\"tokens_per_s\":" + num(b.tokens_per_s) + ",\"first_loss\":" + num(b.first_loss) +
         ",\"last_loss\":" + num(b.last_loss) + "}";
}

}  // namespace embedlab
