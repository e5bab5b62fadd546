// Checkpoints: a trainer's whole state as bytes, so a run saved at step N and loaded into a
// fresh trainer of the same settings and data continues exactly as the uninterrupted run
// would (the same tables, bit for bit, at every later step). The page autosaves them to
// IndexedDB (web/src/session.js); the CLI writes and resumes them (`train --save-state`,
// `--resume`); the native and the wasm build write the same bytes for the same run.
//
// Format (little-endian, version 2; version 1 files are read too, see below):
//   "EMBLCKPT"  u32 version  u32 record count
//   record*:    u8 type (1 i64, 2 f64, 3 text, 4 float32 array, 5 int32 array)  u16 name length  name
//               u64 payload bytes  payload
//   u64         FNV-1a 64 of every byte before it
// Every trainer writes the records "kind" (text: "next-token" | "word2vec"), "settings"
// (text: its settings as `name=value` lines, numbers to 17 significant digits), "data" (i64:
// FNV-1a 64 of the training stream) and "step", then its own (tables, optimizer moments,
// counters, generator position). A next-token run that knows its tokenizer also writes it
// (train/run_tokens.hpp: "tokenizer.kind", "tokenizer.data", "tokenizer.rows"), so text can be
// sampled from the file alone (train/generate.hpp). Loading compares kind, settings and data first and names the
// first difference ("checkpoint: saved with lr=0.01, this run has lr=0.001"), then copies each
// array into the buffer the trainer already allocated, after checking its length.
// Malformed input (truncated, a wrong checksum, a record cut short, an unknown type, a missing
// record, an array of the wrong length) throws with the byte offset; nothing is allocated from
// a length read in the file beyond the file's own size, and what is allocated (the record index,
// int32 arrays, the writer's bytes) is planned first (core/memory.hpp).
// Limits (each refused with the value and the limit, e.g. "checkpoint: step 9223372036854775807
// out of range [0, 9007199254740991]"):
//   records  at most kMaxCheckpointRecords (4096), and at most one per 12 bytes of the file
//   names    1 to 255 bytes
//   step     [0, kMaxSteps] (2^53 - 1: the page reads it as an exact JS number); the trainers
//            refuse to step past it. Every other count a trainer reads (epoch, batch, optimizer
//            step, generator position) must agree with step or the trainer's own sizes.
// Versions: 2 stores word2vec's generator as its 624 mt19937 words ("rng.words", "rng.index"),
// restored in constant time ("rng.draws" stays, for information). Version 1 stored only the
// number of draws ("rng.draws"), replayed on load: it is still read, up to core/rng.hpp's
// kMaxReplayDraws (2^28), and refused beyond.
//
// Intended usage (see NextTokenTrainer::save_state / load_state):
//   CheckpointWriter w("next-token", settings_text, data_hash, step);
//   w.floats("token", E);  w.i64("epoch", epoch_);
//   std::vector<uint8_t> bytes = w.finish();
//   CheckpointReader r(bytes, "next-token", settings_text, data_hash);   // throws on mismatch
//   r.floats("token", E);  epoch_ = r.i64("epoch");
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace embedlab {

inline constexpr uint32_t kCheckpointVersion = 2;
inline constexpr uint32_t kMaxCheckpointRecords = 4096;
inline constexpr int64_t kMaxSteps = (int64_t{1} << 53) - 1;

// FNV-1a 64 of a byte range (the "data" record, the trailing checksum).
uint64_t fnv1a64(const void* data, size_t n, uint64_t h = 14695981039346656037ull);

// name=value lines of a settings record: one field per line, in a fixed order.
class SettingsText {
 public:
  SettingsText& add(const std::string& name, const std::string& value);
  SettingsText& add(const std::string& name, double value);  // 17 significant digits
  SettingsText& add(const std::string& name, int64_t value);
  SettingsText& add(const std::string& name, bool value) { return add(name, std::string(value ? "true" : "false")); }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

class CheckpointWriter {
 public:
  CheckpointWriter(const std::string& kind, const std::string& settings, uint64_t data_hash, int64_t step);
  void i64(const std::string& name, int64_t v);
  void f64(const std::string& name, double v);
  void text(const std::string& name, const std::string& v);
  void floats(const std::string& name, std::span<const float> v);
  void ints(const std::string& name, std::span<const int32_t> v);
  std::vector<uint8_t> finish();

 private:
  void head(uint8_t type, const std::string& name, uint64_t bytes);
  std::vector<uint8_t> out_;
  uint32_t records_ = 0;
};

class CheckpointReader {
 public:
  // Parses and checks the whole file; throws unless its kind, settings and data match.
  CheckpointReader(std::span<const uint8_t> bytes, const std::string& kind, const std::string& settings,
                   uint64_t data_hash);
  // Parses and checks the whole file and its kind only (any settings, any data): for reading a
  // saved model without its training text (train/generate.hpp). settings() is the saved text.
  CheckpointReader(std::span<const uint8_t> bytes, const std::string& kind);
  int64_t step() const { return step_; }
  uint32_t version() const { return version_; }
  const std::string& settings() const { return settings_; }
  int64_t i64(const std::string& name) const;
  // The integer `name`, refused unless lo <= value <= hi: "checkpoint: epoch 7 out of range [0, 3]".
  int64_t count(const std::string& name, int64_t lo, int64_t hi) const;
  double f64(const std::string& name) const;
  std::string text(const std::string& name) const;
  // Copies the float32 array `name` into out; throws unless it holds exactly out.size() values.
  void floats(const std::string& name, std::span<float> out) const;
  // The length of the float32 array `name` (for arrays whose size the checkpoint decides,
  // such as optimizer moments not yet allocated).
  size_t float_count(const std::string& name) const;
  // The int32 array `name` (its length is bounded by the file's size).
  std::vector<int32_t> ints(const std::string& name) const;
  bool has(const std::string& name) const { return records_.count(name) != 0; }
  // Marks `name` as read when present: a record this loader tolerates without using it.
  void ignore(const std::string& name) const;
  // Throws for a record no accessor has asked for ("record 'x' is not part of a next-token
  // checkpoint"): a loader calls it after reading everything, before changing its trainer.
  void require_all_read() const;

 private:
  struct Record {
    uint8_t type;
    size_t offset, bytes;  // payload position in the file
    mutable bool read = false;
  };
  const Record& find(const std::string& name, uint8_t type) const;
  void parse();
  std::span<const uint8_t> data_;
  std::map<std::string, Record> records_;
  std::string kind_, settings_;
  int64_t step_ = 0;
  uint32_t version_ = 0;
};

}  // namespace embedlab
