// Fuzz target: loading training checkpoints (train/checkpoint.hpp, NextTokenTrainer::load_state,
// Word2Vec::load_state).
// Input: edits to a real checkpoint: each 5 bytes are (u32 offset, u8 xor) applied to the saved
// state of a tiny run; then the trailing checksum is recomputed, so the edits reach the record
// parser and the trainers' checks instead of stopping at the checksum. The input itself, with a
// checksum appended, is tried as a checkpoint too.
// Properties: a refused checkpoint throws an Error and leaves the trainer exactly as it was (same
// parameters, same step); an accepted one leaves a trainer that steps without a crash, and a
// checkpoint that loads saves back to the same bytes (an older version: saved as the current
// one, which saves back to itself). The same edits on a run that carries its
// tokenizer (train/run_tokens.hpp), and the raw input, go to generate(): text or an Error, never
// a crash or an allocation sized from an unchecked length.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tokenizer/tokenizer_kinds.hpp"
#include "train/checkpoint.hpp"
#include "train/generate.hpp"
#include "train/next_token.hpp"
#include "train/word2vec.hpp"

using namespace embedlab;

namespace {

std::vector<int32_t> ids() {
  std::vector<int32_t> v(200);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>((i * 7 + i / 3) % 11);
  return v;
}

NextTokenSettings settings() {
  NextTokenSettings s;
  s.model.vocab_size = 11;
  s.model.dim = 4;
  s.model.context = 5;
  s.batch_size = 3;
  s.optimizer.lr = 0.01;
  return s;
}

std::vector<float> params(NextTokenTrainer& tr) {
  std::vector<float> out;
  for (const ParamView& p : tr.model().params()) out.insert(out.end(), p.data, p.data + p.size);
  return out;
}

void fix_checksum(std::vector<uint8_t>& b) {
  if (b.size() < 8) return;
  const uint64_t h = fnv1a64(b.data(), b.size() - 8);
  std::memcpy(b.data() + b.size() - 8, &h, 8);
}

void try_load(NextTokenTrainer& tr, const std::vector<uint8_t>& bytes) {
  const std::vector<float> before = params(tr);
  const int64_t step = tr.steps_done();
  try {
    tr.load_state(bytes);
  } catch (const Error&) {
    const std::vector<float> after = params(tr);
    fuzz::require(tr.steps_done() == step && after.size() == before.size() &&
                      std::memcmp(after.data(), before.data(), after.size() * 4) == 0,
                  "a refused checkpoint leaves the trainer unchanged");
    return;
  }
  // a file of an older version (its u32 at byte 8) is saved as the current version, which
  // must itself load and save back unchanged
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  const std::vector<uint8_t> again = tr.save_state();
  if (version == kCheckpointVersion) {
    fuzz::require(again == bytes, "a loaded checkpoint saves back to the same bytes");
  } else {
    tr.load_state(again);
    fuzz::require(tr.save_state() == again, "an older checkpoint, saved again, saves back to the same bytes");
  }
  fuzz::expect_errors([&] { tr.step(1); });  // may diverge (nan) with edited values: an Error
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::limit_memory();
  static const std::vector<int32_t> stream = ids();
  static const std::vector<uint8_t> saved = [] {
    NextTokenTrainer tr(stream, settings());
    tr.step(4);
    return tr.save_state();
  }();
  NextTokenTrainer tr(stream, settings());
  tr.step(1);

  std::vector<uint8_t> edited = saved;
  for (size_t i = 0; i + 5 <= size; i += 5) {
    uint32_t at;
    std::memcpy(&at, data + i, 4);
    edited[at % (edited.size() - 8)] ^= data[i + 4];
  }
  fix_checksum(edited);
  try_load(tr, edited);

  std::vector<uint8_t> raw(data, data + size);
  raw.resize(raw.size() + 8);
  fix_checksum(raw);
  try_load(tr, raw);

  // sampling from the file alone: the tokenizer records (a char vocabulary of 11 ids) edited too
  static const std::vector<uint8_t> with_tokens = [] {
    NextTokenTrainer t(stream, settings());
    t.set_tokens(make_tokenizer("char", "abcdefg", {}), {});
    t.step(2);
    return t.save_state();
  }();
  std::vector<uint8_t> sampled = with_tokens;
  for (size_t i = 0; i + 5 <= size; i += 5) {
    uint32_t at;
    std::memcpy(&at, data + i, 4);
    sampled[at % (sampled.size() - 8)] ^= data[i + 4];
  }
  fix_checksum(sampled);
  SampleOptions o;
  o.tokens = 3;
  fuzz::expect_errors([&] { generate(sampled, "abc", o); });
  fuzz::expect_errors([&] { generate(raw, "abc", o); });

  // the same bytes offered to word2vec: refused (another kind) or, for a crafted word2vec file, checked
  static const std::vector<int64_t> starts{0, 100, 200};
  fuzz::expect_errors([&] {
    Word2VecSettings w;
    w.min_count = 1;
    w.vector_size = 4;
    Word2Vec w2v(stream, starts, {}, w);
    w2v.load_state(raw);
    w2v.step(1);
  });
  return 0;
}
