#include "train/next_token.hpp"

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "train/checkpoint.hpp"
#include "train/run_tokens.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace embedlab {

namespace {

// The windows of one epoch at context T (the settings' T, or T' once fine-tuning).
WindowOptions window_options(const NextTokenSettings& s, int64_t T, int64_t epoch, int64_t n_tokens) {
  WindowOptions o;
  o.max_length = T;
  o.stride = s.stride > 0 ? s.stride : T;
  o.batch_size = s.batch_size;
  o.shuffle = true;
  o.seed = s.model.seed + static_cast<uint64_t>(epoch);
  // full batches only, unless the stream has less than one full batch
  o.drop_last = window_count(n_tokens, o.max_length, o.stride) >= s.batch_size;
  return o;
}

void check_stream(const char* where, std::span<const int32_t> ids, const NextTokenConfig& c) {
  if (static_cast<int64_t>(ids.size()) < c.context + 1) {
    fail(where, std::to_string(ids.size()) + " tokens make no window of context " +
                    std::to_string(c.context) + ": need at least " + std::to_string(c.context + 1));
  }
  for (int32_t id : ids) check_index(where, "token id", id, 0, c.vocab_size);
}

// Every buffer a trainer allocates, in one plan: the model's tables with their gradients and
// optimizer state, the run buffers of a batch of B rows, the batch itself, and (n_ids > 0) the
// training stream with its windows.
// `before` (fine-tune): the model of the training context, alive while the longer one is built.
void plan_trainer(const NextTokenSettings& s, int64_t n_ids, const char* where = "next-token",
                  const NextTokenConfig* before = nullptr) {
  const NextTokenConfig& c = s.model;
  const int64_t B = s.batch_size, T = c.context;
  MemoryPlan p(where);
  if (before) {
    plan_model(p, *before);
    plan_run(p, *before, B, true);
  }
  plan_model(p, c, s.optimizer.kind == OptimizerKind::Sgd ? 0 : 2);
  plan_run(p, c, B, true);
  p.add("batch inputs", {B, T}, kInt32);
  p.add("batch targets", {B, T}, kInt32);
  p.add("batch starts", {B}, kInt64);
  if (n_ids > 0) {
    p.add("training ids", {n_ids}, kInt32);
    p.add("window ids", {n_ids}, kInt32);
    p.add("window starts", {window_count(n_ids, T, s.stride > 0 ? s.stride : T)}, kInt64);
  }
  p.check();
}

const NextTokenSettings& checked(const NextTokenSettings& s, size_t n_ids) {
  validate(s);
  plan_trainer(s, static_cast<int64_t>(n_ids));
  return s;
}

}  // namespace

void validate(const NextTokenSettings& s) {
  check_config(s.model);  // the model's buffers are planned with the trainer's below
  validate(s.optimizer);
  check_at_least("next-token", "batch size", s.batch_size, 1);
  check_at_least("next-token", "stride", s.stride, 0);
  plan_trainer(s, 0);
}

NextTokenTrainer::NextTokenTrainer(std::span<const int32_t> ids, const NextTokenSettings& settings)
    : settings_(checked(settings, ids.size())), ids_(ids.begin(), ids.end()),
      model_(settings.model), opt_(settings.optimizer) {
  settings_.model = model_.config();  // the kind's parameters with their defaults
  check_stream("next-token", ids_, settings_.model);
  windows_ = windows_at(0);
}

std::unique_ptr<SlidingWindows> NextTokenTrainer::windows_at(int64_t epoch) const {
  return std::make_unique<SlidingWindows>(ids_, window_options(settings_, context(), epoch, static_cast<int64_t>(ids_.size())));
}

void NextTokenTrainer::reset() {
  if (ft_context_ != 0) model_ = NextTokenModel(settings_.model);  // back to the training context
  model_.init();
  opt_.reset();
  epoch_ = 0;
  next_batch_ = 0;
  total_steps_ = 0;
  ft_context_ = ft_step_ = ft_epoch_ = 0;
  windows_ = windows_at(0);
}

void NextTokenTrainer::check_finetune(int64_t context) const {
  const char* where = "next-token fine-tune";
  const int64_t T = settings_.model.context;
  if (context <= T) {
    fail(where, "context " + std::to_string(context) + " must be > the training context " + std::to_string(T));
  }
  const PositionKind& kind = model_.position_kind();
  if (!kind.extrapolates) {
    fail(where, std::string(kind.name) + " positions have no rows beyond T = " + std::to_string(T) + " (asked for " +
                    std::to_string(context) + "): fine-tune a kind without a position table, such as rope or alibi");
  }
  if (static_cast<int64_t>(ids_.size()) < context + 1) {
    fail(where, std::to_string(ids_.size()) + " training tokens make no window of context " + std::to_string(context) +
                    ": need at least " + std::to_string(context + 1));
  }
  NextTokenSettings longer = settings_;
  longer.model.context = context;
  plan_trainer(longer, static_cast<int64_t>(ids_.size()), where, &model_.config());
}

void NextTokenTrainer::start_finetune(int64_t context) {
  if (ft_context_ != 0) {
    fail("next-token fine-tune", "the run is already fine-tuning at context " + std::to_string(ft_context_) +
                                     " (asked for " + std::to_string(context) + ")");
  }
  check_finetune(context);
  NextTokenConfig c = model_.config();
  c.context = context;
  NextTokenModel longer(c);
  longer.load_parameters(model_);  // the same parameters: the optimizer's state still fits them
  model_ = std::move(longer);
  ft_context_ = context;
  ft_step_ = total_steps_;
  ft_epoch_ = epoch_;  // this epoch's shuffle, on windows of the new length, from its first batch
  next_batch_ = 0;
  windows_ = windows_at(epoch_);
}

std::string settings_text(const NextTokenSettings& s) {
  SettingsText t;
  t.add("vocab_size", s.model.vocab_size).add("dim", s.model.dim).add("context", s.model.context);
  t.add("pos", s.model.pos);
  for (const auto& [name, value] : s.model.pos_params) t.add(s.model.pos + "." + name, value);
  t.add("scale", s.model.scale_embeddings).add("tie", s.model.tie_head).add("seed", static_cast<int64_t>(s.model.seed));
  t.add("optimizer", std::string(optimizer_kind_name(s.optimizer.kind))).add("lr", s.optimizer.lr);
  t.add("beta1", s.optimizer.beta1).add("beta2", s.optimizer.beta2).add("eps", s.optimizer.eps);
  t.add("weight_decay", s.optimizer.weight_decay).add("batch_size", s.batch_size).add("stride", s.stride);
  return t.str();
}

NextTokenConfig model_settings(const std::string& text) {
  const char* where = "checkpoint";
  std::map<std::string, std::string> f;  // name -> value
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    const size_t eq = line.find('=');
    if (eq != std::string::npos) f[line.substr(0, eq)] = line.substr(eq + 1);
    at = end + 1;
  }
  auto value = [&](const std::string& name) -> const std::string& {
    const auto it = f.find(name);
    if (it == f.end()) fail(where, "the settings have no " + name);
    return it->second;
  };
  auto integer = [&](const std::string& name) {
    const std::string& v = value(name);
    int64_t x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size()) fail(where, "setting " + name + "=" + v + " is not an integer");
    return x;
  };
  auto flag = [&](const std::string& name) {
    const std::string& v = value(name);
    if (v != "true" && v != "false") fail(where, "setting " + name + "=" + v + " is not true or false");
    return v == "true";
  };
  NextTokenConfig c;
  c.vocab_size = integer("vocab_size");
  c.dim = integer("dim");
  c.context = integer("context");
  c.pos = find_position_kind(value("pos")).name;
  const std::string prefix = c.pos + ".";
  for (const auto& [name, v] : f) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size()) fail(where, "setting " + name + "=" + v + " is not a number");
    c.pos_params[name.substr(prefix.size())] = x;
  }
  c.scale_embeddings = flag("scale");
  c.tie_head = flag("tie");
  const int64_t seed = integer("seed");
  check_at_least(where, "seed", seed, 0);
  c.seed = static_cast<uint64_t>(seed);
  check_config(c);
  return c;
}

std::vector<uint8_t> NextTokenTrainer::save_state() {
  CheckpointWriter w("next-token", settings_text(settings_), fnv1a64(ids_.data(), ids_.size() * sizeof(int32_t)), total_steps_);
  for (const ParamView& p : model_.params()) w.floats(std::string("param.") + p.name, std::span<const float>(p.data, p.size));
  opt_.save(w);
  if (ft_context_ != 0) {
    w.i64("finetune.context", ft_context_);
    w.i64("finetune.step", ft_step_);
    w.i64("finetune.epoch", ft_epoch_);
  }
  w.i64("epoch", epoch_);
  w.i64("next_batch", next_batch_);
  if (tokens_) write_run_tokens(w, *tokens_, token_rows_);
  return w.finish();
}

void NextTokenTrainer::set_tokens(const Tokenizer& tok, std::vector<int32_t> rows) {
  check_run_tokens("next-token", tok, rows, settings_.model.vocab_size);
  tokens_ = save_tokenizer(tok);
  token_rows_ = std::move(rows);
}

void NextTokenTrainer::load_state(std::span<const uint8_t> bytes) {
  const CheckpointReader r(bytes, "next-token", settings_text(settings_), fnv1a64(ids_.data(), ids_.size() * sizeof(int32_t)));
  ignore_run_tokens(r);
  // every epoch takes at least one step, so both counts are bounded by the step (<= kMaxSteps)
  const int64_t epoch = r.count("epoch", 0, r.step()), next = r.i64("next_batch");
  // the phase: a fine-tuned run continues at its context, counting batches from where it began
  int64_t ft_context = 0, ft_step = 0, ft_epoch = 0;
  if (r.has("finetune.context")) {
    ft_context = r.i64("finetune.context");
    check_finetune(ft_context);
    ft_step = r.count("finetune.step", 0, r.step());
    ft_epoch = r.count("finetune.epoch", 0, epoch);
  }
  const int64_t T = ft_context != 0 ? ft_context : settings_.model.context;
  std::unique_ptr<NextTokenModel> other;  // the model at the file's context when this one runs another
  if (T != context()) {
    NextTokenConfig c = model_.config();
    c.context = T;
    other = std::make_unique<NextTokenModel>(c);
  }
  NextTokenModel& target = other ? *other : model_;
  std::vector<ParamView> params = target.params();
  std::vector<size_t> sizes;
  // every length is checked before anything is copied, so a bad file leaves the run as it was
  for (const ParamView& p : params) {
    const std::string name = std::string("param.") + p.name;
    if (r.float_count(name) != p.size) {
      fail("checkpoint", "record '" + name + "' holds " + std::to_string(r.float_count(name)) + " values, this run has " + std::to_string(p.size));
    }
    sizes.push_back(p.size);
  }
  auto windows = std::make_unique<SlidingWindows>(ids_, window_options(settings_, T, epoch, static_cast<int64_t>(ids_.size())));
  check_index("checkpoint", "next_batch", next, 0, windows->num_batches() + 1);
  // step() takes one batch a step: epoch * batches + next_batch = step, counted from the
  // fine-tune's first step and epoch in that phase
  const int64_t nb = windows->num_batches(), steps = r.step() - ft_step, epochs = epoch - ft_epoch;
  if (nb > 0 && (epochs > steps / nb || epochs * nb + next != steps)) {
    fail("checkpoint", "step " + std::to_string(r.step()) + " does not match epoch " + std::to_string(epoch) + " and next_batch " +
                           std::to_string(next) + " (" + std::to_string(nb) + " batches per epoch" +
                           (ft_context != 0 ? ", fine-tune from step " + std::to_string(ft_step) + " and epoch " + std::to_string(ft_epoch) : std::string()) + ")");
  }
  Optimizer opt(settings_.optimizer);
  opt.load(r, sizes);
  if (opt.steps() != r.step()) {
    fail("checkpoint", "optimizer.t " + std::to_string(opt.steps()) + " does not match step " + std::to_string(r.step()));
  }
  r.require_all_read();
  for (const ParamView& p : params) r.floats(std::string("param.") + p.name, std::span<float>(p.data, p.size));
  if (other) model_ = std::move(*other);
  ft_context_ = ft_context, ft_step_ = ft_step, ft_epoch_ = ft_epoch;
  opt_ = std::move(opt);
  windows_ = std::move(windows);
  epoch_ = epoch;
  next_batch_ = next;
  total_steps_ = r.step();
}

void NextTokenTrainer::next_batch() {
  if (next_batch_ >= windows_->num_batches()) {
    ++epoch_;
    next_batch_ = 0;
    windows_ = windows_at(epoch_);
  }
  batch_ = windows_->batch(next_batch_++);
}

TrainStats NextTokenTrainer::step(int64_t n) {
  check_at_least("next-token step", "n", n, 0);
  if (n > kMaxSteps - total_steps_) {
    fail("next-token step", "n " + std::to_string(n) + " would take the run from step " + std::to_string(total_steps_) +
                                " past step " + std::to_string(kMaxSteps) + ", the most a run has");
  }
  TrainStats st;
  const double t0 = now_ms();
  double loss_sum = 0;
  for (int64_t s = 0; s < n; ++s) {
    next_batch();
    const double loss = model_.forward_backward(batch_.inputs, batch_.targets, batch_.rows);
    if (!std::isfinite(loss)) fail_non_finite(loss, total_steps_ + 1, settings_.optimizer.lr);
    opt_.begin_step();
    size_t index = 0;
    for (const ParamView& p : model_.params()) {
      ParamState& ps = opt_.state(index++, p.size);
      const bool sparse_rows = settings_.optimizer.kind == OptimizerKind::Sgd &&
                               settings_.optimizer.weight_decay == 0 && std::string(p.name) == "token";
      if (sparse_rows) opt_.update_rows(p.data, p.grad, static_cast<size_t>(p.cols), model_.touched_rows());
      else opt_.update(p.data, p.grad, p.size, ps);
    }
    ++total_steps_;
    ++st.steps;
    loss_sum += loss;
    st.last_loss = loss;
    st.tokens += batch_.rows * context();
  }
  st.elapsed_ms = now_ms() - t0;
  st.total_steps = total_steps_;
  st.raw_tokens = st.tokens;
  st.loss = st.steps ? loss_sum / static_cast<double>(st.steps) : NAN;
  st.learning_rate = settings_.optimizer.lr;
  if (st.elapsed_ms > 0) {
    st.tokens_per_s = static_cast<double>(st.tokens) / (st.elapsed_ms / 1000.0);
    st.raw_tokens_per_s = st.tokens_per_s;
  }
  return st;
}

namespace {

// Mean loss of model m over the non-overlapping windows of its context in ids, batches of B;
// the attention row `at` of the first window when asked for.
double windows_loss(NextTokenModel& m, std::span<const int32_t> ids, int64_t B, int64_t at, std::vector<float>* attention) {
  const int64_t T = m.config().context;
  check_stream("next-token evaluate", ids, m.config());
  WindowOptions o;
  o.max_length = T;
  o.stride = T;
  o.batch_size = B;
  o.drop_last = false;
  SlidingWindows w(ids, o);
  double total = 0;
  int64_t rows = 0;
  for (int64_t b = 0; b < w.num_batches(); ++b) {
    const WindowBatch wb = w.batch(b);
    total += m.loss(wb.inputs, wb.targets, wb.rows) * static_cast<double>(wb.rows);
    rows += wb.rows;
    if (b == 0 && attention) {  // (B, T, T) of this batch: row `at` of window 0
      const std::vector<float>& A = m.attention();
      attention->assign(A.begin() + at * T, A.begin() + (at + 1) * T);
    }
  }
  return total / static_cast<double>(rows);
}

}  // namespace

double NextTokenTrainer::evaluate(std::span<const int32_t> ids) {
  return windows_loss(model_, ids, settings_.batch_size, 0, nullptr);
}

NextTokenTrainer::Evaluation NextTokenTrainer::evaluate_at(std::span<const int32_t> ids, int64_t length, int64_t at) {
  const char* where = "next-token evaluate";
  const int64_t T = context();
  check_at_least(where, "length", length, 1);
  if (at < 0) at = length - 1;
  check_index(where, "attention position", at, 0, length);
  Evaluation e;
  e.length = length, e.at = at;
  if (length == T) {
    e.loss = windows_loss(model_, ids, settings_.batch_size, at, &e.attention);
    return e;
  }
  const PositionKind& kind = model_.position_kind();
  if (!kind.extrapolates) {
    fail(where, std::string(kind.name) + " positions have no rows beyond T = " + std::to_string(T) +
                    " (asked for " + std::to_string(length) + ")");
  }
  NextTokenConfig c = model_.config();
  c.context = length;
  NextTokenModel longer(c);  // validates and plans the longer windows
  longer.load_parameters(model_);
  e.loss = windows_loss(longer, ids, settings_.batch_size, at, &e.attention);
  return e;
}

}  // namespace embedlab
