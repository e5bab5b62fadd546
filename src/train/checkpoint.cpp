#include "train/checkpoint.hpp"

#include <cstdio>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {

constexpr char kMagic[8] = {'E', 'M', 'B', 'L', 'C', 'K', 'P', 'T'};
constexpr uint32_t kVersion = kCheckpointVersion;
constexpr uint32_t kOldestVersion = 1;
constexpr int64_t kMinRecordBytes = 12;      // type, name length, a 1-byte name, payload length
constexpr int64_t kIndexBytesPerRecord = 128;  // a map node, its name and a Record, generously
constexpr uint8_t kI64 = 1, kF64 = 2, kText = 3, kFloats = 4, kInts = 5;
const char* const kWhere = "checkpoint";

const char* type_name(uint8_t t) {
  switch (t) {
    case kI64: return "an integer";
    case kF64: return "a number";
    case kText: return "text";
    case kFloats: return "a float32 array";
    case kInts: return "an int32 array";
    default: return "an unknown type";
  }
}

void append(std::vector<uint8_t>& out, const void* p, size_t n) {
  if (n == 0) return;
  const size_t at = out.size();
  out.resize(at + n);
  std::memcpy(out.data() + at, p, n);
}

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  append(out, &v, sizeof(T));  // little-endian on every target we build (x86-64, wasm32)
}

template <typename T>
T get(std::span<const uint8_t> d, size_t at) {
  T v;
  std::memcpy(&v, d.data() + at, sizeof(T));
  return v;
}

// name=value lines -> map, in order of appearance
std::vector<std::pair<std::string, std::string>> fields(const std::string& s) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find('\n', at);
    if (end == std::string::npos) end = s.size();
    const std::string line = s.substr(at, end - at);
    const size_t eq = line.find('=');
    if (eq == std::string::npos) out.emplace_back(line, "");
    else out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    at = end + 1;
  }
  return out;
}

// The first field where the saved settings differ from this run's, as a sentence.
std::string settings_difference(const std::string& saved, const std::string& here) {
  const auto a = fields(saved), b = fields(here);
  for (const auto& [name, value] : b) {
    const std::string* other = nullptr;
    for (const auto& [n2, v2] : a) {
      if (n2 == name) other = &v2;
    }
    if (!other) return "it has no setting " + name + " (this run has " + name + "=" + value + ")";
    if (*other != value) return "saved with " + name + "=" + *other + ", this run has " + name + "=" + value;
  }
  for (const auto& [name, value] : a) {
    bool found = false;
    for (const auto& [n2, v2] : b) found = found || n2 == name;
    if (!found) return "saved with " + name + "=" + value + ", which this run does not have";
  }
  return "its settings differ";
}

}  // namespace

uint64_t fnv1a64(const void* data, size_t n, uint64_t h) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

SettingsText& SettingsText::add(const std::string& name, const std::string& value) {
  s_ += name;
  s_ += '=';
  s_ += value;
  s_ += '\n';
  return *this;
}

SettingsText& SettingsText::add(const std::string& name, double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return add(name, std::string(buf));
}

SettingsText& SettingsText::add(const std::string& name, int64_t value) { return add(name, std::to_string(value)); }

CheckpointWriter::CheckpointWriter(const std::string& kind, const std::string& settings, uint64_t data_hash,
                                   int64_t step) {
  append(out_, kMagic, 8);
  put<uint32_t>(out_, kVersion);
  put<uint32_t>(out_, 0);  // record count, filled in by finish()
  text("kind", kind);
  text("settings", settings);
  i64("data", static_cast<int64_t>(data_hash));
  i64("step", step);
}

void CheckpointWriter::head(uint8_t type, const std::string& name, uint64_t bytes) {
  if (name.empty() || name.size() > 255) fail(kWhere, "record name '" + name + "' must be 1 to 255 bytes");
  if (records_ >= kMaxCheckpointRecords) fail(kWhere, "more than " + std::to_string(kMaxCheckpointRecords) + " records");
  // the whole file so far, this record and the checksum, planned before the buffer grows
  plan(kWhere, "checkpoint file", {static_cast<int64_t>(out_.size() + 3 + name.size() + 8 + 8) + static_cast<int64_t>(bytes)}, kBytes);
  out_.push_back(type);
  put<uint16_t>(out_, static_cast<uint16_t>(name.size()));
  append(out_, name.data(), name.size());
  put<uint64_t>(out_, bytes);
  ++records_;
}

void CheckpointWriter::i64(const std::string& name, int64_t v) {
  head(kI64, name, 8);
  put<int64_t>(out_, v);
}

void CheckpointWriter::f64(const std::string& name, double v) {
  head(kF64, name, 8);
  put<double>(out_, v);
}

void CheckpointWriter::text(const std::string& name, const std::string& v) {
  head(kText, name, v.size());
  append(out_, v.data(), v.size());
}

void CheckpointWriter::floats(const std::string& name, std::span<const float> v) {
  head(kFloats, name, static_cast<uint64_t>(v.size()) * 4);
  append(out_, v.data(), v.size() * 4);
}

void CheckpointWriter::ints(const std::string& name, std::span<const int32_t> v) {
  head(kInts, name, static_cast<uint64_t>(v.size()) * 4);
  append(out_, v.data(), v.size() * 4);
}

std::vector<uint8_t> CheckpointWriter::finish() {
  std::memcpy(out_.data() + 12, &records_, 4);
  put<uint64_t>(out_, fnv1a64(out_.data(), out_.size()));
  return std::move(out_);
}

CheckpointReader::CheckpointReader(std::span<const uint8_t> bytes, const std::string& kind,
                                   const std::string& settings, uint64_t data_hash)
    : data_(bytes), kind_(kind) {
  parse();
  if (settings_ != settings) fail(kWhere, settings_difference(settings_, settings));
  if (static_cast<uint64_t>(i64("data")) != data_hash) {
    fail(kWhere, "it was saved for another training text (its tokens differ from this run's)");
  }
}

CheckpointReader::CheckpointReader(std::span<const uint8_t> bytes, const std::string& kind) : data_(bytes), kind_(kind) {
  parse();
  i64("data");  // any text
}

void CheckpointReader::parse() {
  const std::span<const uint8_t> bytes = data_;
  const size_t n = bytes.size();
  if (n < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    fail(kWhere, "not an embedlab checkpoint (it does not start with EMBLCKPT)");
  }
  if (n < 24) fail(kWhere, "file of " + std::to_string(n) + " bytes is cut short (a checkpoint has at least 24)");
  const uint32_t version = get<uint32_t>(bytes, 8);
  if (version < kOldestVersion || version > kVersion) {
    fail(kWhere, "version " + std::to_string(version) + " is not supported (this build reads versions " +
                     std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  }
  version_ = version;
  const uint64_t stored = get<uint64_t>(bytes, n - 8);
  if (stored != fnv1a64(bytes.data(), n - 8)) {
    fail(kWhere, "checksum mismatch: the file is damaged or cut short (" + std::to_string(n) + " bytes)");
  }
  const uint32_t records = get<uint32_t>(bytes, 12);
  // the header's count against the limit and the file's size, then the index it needs, planned
  const int64_t fits = (static_cast<int64_t>(n) - 24) / kMinRecordBytes;
  if (records > kMaxCheckpointRecords) {
    fail(kWhere, "record count " + std::to_string(records) + " exceeds " + std::to_string(kMaxCheckpointRecords) + ", the most a checkpoint has");
  }
  if (records > fits) {
    fail(kWhere, "record count " + std::to_string(records) + " does not fit in a file of " + std::to_string(n) +
                     " bytes (at most " + std::to_string(fits) + " records of " + std::to_string(kMinRecordBytes) + " bytes or more)");
  }
  plan(kWhere, "record index", {static_cast<int64_t>(records), kIndexBytesPerRecord}, kBytes);
  const size_t end = n - 8;
  size_t at = 16;
  for (uint32_t r = 0; r < records; ++r) {
    if (end - at < 3) fail(kWhere, "record " + std::to_string(r) + " at byte " + std::to_string(at) + " is cut short");
    const uint8_t type = bytes[at];
    const size_t name_len = get<uint16_t>(bytes, at + 1);
    at += 3;
    if (type < kI64 || type > kInts) fail(kWhere, "record " + std::to_string(r) + " has unknown type " + std::to_string(type));
    if (name_len == 0) fail(kWhere, "record " + std::to_string(r) + " at byte " + std::to_string(at) + " has an empty name");
    if (end - at < name_len + 8) fail(kWhere, "record " + std::to_string(r) + " at byte " + std::to_string(at) + " is cut short");
    std::string name(reinterpret_cast<const char*>(bytes.data() + at), name_len);
    at += name_len;
    const uint64_t len = get<uint64_t>(bytes, at);
    at += 8;
    if (len > end - at) {
      fail(kWhere, "record '" + name + "' claims " + std::to_string(len) + " bytes at byte " + std::to_string(at) +
                       " but only " + std::to_string(end - at) + " remain");
    }
    if ((type == kI64 || type == kF64) && len != 8) fail(kWhere, "record '" + name + "' must hold 8 bytes, holds " + std::to_string(len));
    if ((type == kFloats || type == kInts) && len % 4 != 0) {
      fail(kWhere, std::string(type == kFloats ? "float32" : "int32") + " record '" + name + "' holds " + std::to_string(len) + " bytes, not a multiple of 4");
    }
    if (!records_.emplace(name, Record{type, at, static_cast<size_t>(len)}).second) fail(kWhere, "record '" + name + "' appears twice");
    at += static_cast<size_t>(len);
  }
  if (at != end) fail(kWhere, std::to_string(end - at) + " bytes after the last record");
  const std::string saved_kind = text("kind");
  if (saved_kind != kind_) fail(kWhere, "it holds a " + saved_kind + " run, not a " + kind_ + " run");
  settings_ = text("settings");
  step_ = count("step", 0, kMaxSteps);
}

int64_t CheckpointReader::count(const std::string& name, int64_t lo, int64_t hi) const {
  const int64_t v = i64(name);
  if (v < lo || v > hi) {
    fail(kWhere, name + " " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return v;
}

const CheckpointReader::Record& CheckpointReader::find(const std::string& name, uint8_t type) const {
  const auto it = records_.find(name);
  if (it == records_.end()) fail(kWhere, "record '" + name + "' is missing");
  if (it->second.type != type) {
    fail(kWhere, "record '" + name + "' holds " + type_name(it->second.type) + ", expected " + type_name(type));
  }
  it->second.read = true;
  return it->second;
}

void CheckpointReader::require_all_read() const {
  for (const auto& [name, r] : records_) {
    if (!r.read) fail(kWhere, "record '" + name + "' is not part of a " + kind_ + " checkpoint");
  }
}

int64_t CheckpointReader::i64(const std::string& name) const { return get<int64_t>(data_, find(name, kI64).offset); }

double CheckpointReader::f64(const std::string& name) const { return get<double>(data_, find(name, kF64).offset); }

std::string CheckpointReader::text(const std::string& name) const {
  const Record& r = find(name, kText);
  return std::string(reinterpret_cast<const char*>(data_.data() + r.offset), r.bytes);
}

std::vector<int32_t> CheckpointReader::ints(const std::string& name) const {
  const Record& r = find(name, kInts);
  std::vector<int32_t> out(plan(kWhere, "record '" + name + "'", static_cast<int64_t>(r.bytes / 4), kInt32));  // within the file
  if (r.bytes) std::memcpy(out.data(), data_.data() + r.offset, r.bytes);
  return out;
}

void CheckpointReader::ignore(const std::string& name) const {
  const auto it = records_.find(name);
  if (it != records_.end()) it->second.read = true;
}

size_t CheckpointReader::float_count(const std::string& name) const { return find(name, kFloats).bytes / 4; }

void CheckpointReader::floats(const std::string& name, std::span<float> out) const {
  const Record& r = find(name, kFloats);
  if (r.bytes / 4 != out.size()) {
    fail(kWhere, "record '" + name + "' holds " + std::to_string(r.bytes / 4) + " values, this run has " +
                     std::to_string(out.size()));
  }
  if (r.bytes) std::memcpy(out.data(), data_.data() + r.offset, r.bytes);
}

}  // namespace embedlab
