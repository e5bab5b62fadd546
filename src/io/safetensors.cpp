#include "io/safetensors.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "io/formats.hpp"
#include "io/half.hpp"
#include "io/known_tables.hpp"

namespace embedlab {

namespace {

constexpr const char* kWhere = "read safetensors";

// A strict reader of the header's JSON: positions are reported as absolute file offsets.
class HeaderReader {
 public:
  HeaderReader(std::string_view json, uint64_t base) : s_(json), base_(base) {}

  [[noreturn]] void error(const std::string& expected) const {
    std::string got = p_ < s_.size() ? "'" + std::string(1, s_[p_]) + "'" : "the end of the header";
    fail(kWhere, "byte " + std::to_string(base_ + p_) + ": expected " + expected + ", got " + got);
  }
  void space() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) ++p_;
  }
  bool peek(char c) {
    space();
    return p_ < s_.size() && s_[p_] == c;
  }
  void expect(char c, const char* what) {
    if (!peek(c)) error(what);
    ++p_;
  }
  uint64_t offset() const { return base_ + p_; }

  std::string string() {
    expect('"', "a string");
    std::string out;
    while (true) {
      if (p_ >= s_.size()) error("'\"' to end the string");
      const char c = s_[p_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --p_;
        error("a character of a string (control characters must be escaped)");
      }
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (p_ >= s_.size()) error("an escape");
      const char e = s_[p_++];
      switch (e) {
        case '"': case '\\': case '/': out.push_back(e); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': utf8(out, code_point()); break;
        default: --p_; error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
      }
    }
  }

  uint64_t integer() {
    space();
    if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9') error("a non-negative integer");
    uint64_t v = 0;
    const size_t start = p_;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') {
      if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<uint64_t>(s_[p_] - '0'), &v)) {
        p_ = start;
        error("an integer below 2^64");
      }
      ++p_;
    }
    if (p_ < s_.size() && (s_[p_] == '.' || s_[p_] == 'e' || s_[p_] == 'E')) error("an integer");
    return v;
  }

  // [a, b, ...] of non-negative integers
  std::vector<uint64_t> integers() {
    expect('[', "'[' to start a list of integers");
    std::vector<uint64_t> out;
    if (peek(']')) return ++p_, out;
    while (true) {
      out.push_back(integer());
      if (peek(']')) return ++p_, out;
      expect(',', "',' or ']'");
    }
  }

  // Calls f(key) for each key of an object; f reads the value.
  template <class F>
  void object(F&& f) {
    expect('{', "'{' to start an object");
    if (peek('}')) return void(++p_);
    while (true) {
      const std::string key = string();
      expect(':', "':' after a key");
      f(key);
      if (peek('}')) return void(++p_);
      expect(',', "',' or '}'");
    }
  }

  void end() {
    space();
    if (p_ != s_.size()) error("the end of the header after its object");
  }

 private:
  uint32_t hex4() {
    if (s_.size() - p_ < 4) error("4 hex digits");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[p_];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else error("a hex digit");
      ++p_;
    }
    return v;
  }
  uint32_t code_point() {
    const uint32_t u = hex4();
    if (u < 0xD800 || u > 0xDFFF) return u;
    if (u > 0xDBFF || s_.substr(p_, 2) != "\\u") error("a low surrogate \\uDC00-\\uDFFF after a high one");
    p_ += 2;
    const uint32_t lo = hex4();
    if (lo < 0xDC00 || lo > 0xDFFF) error("a low surrogate \\uDC00-\\uDFFF");
    return 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
  }
  static void utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | cp >> 6));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | cp >> 12));
      out.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | cp >> 18));
      out.push_back(static_cast<char>(0x80 | (cp >> 12 & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string_view s_;
  uint64_t base_;
  size_t p_ = 0;
};

// The JSON text of a header, after checking that head holds all of it.
std::string_view header_json(std::string_view head) {
  const uint64_t size = safetensors_header_size(head);
  if (head.size() < size) {
    fail(kWhere, "the header needs " + std::to_string(size) + " bytes (8 + its length " + std::to_string(size - 8) +
                     "), got " + std::to_string(head.size()));
  }
  return head.substr(8, static_cast<size_t>(size - 8));
}

// "'wte.weight' [0, 80]": a tensor and its data_offsets (relative to the data's first byte)
std::string range_text(const TensorInfo& t, uint64_t data_start) {
  return "'" + t.name + "' [" + std::to_string(t.begin - data_start) + ", " + std::to_string(t.end - data_start) + "]";
}

// Fails when two tensors share a name (at: where each entry starts), or when the data ranges,
// in order, do not tile [0, end) without overlaps or gaps (as the safetensors library checks).
void check_tensors(const std::vector<TensorInfo>& tensors, const std::vector<uint64_t>& at, uint64_t data_start) {
  std::vector<size_t> order(tensors.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tensors[a].name != tensors[b].name ? tensors[a].name < tensors[b].name : a < b;
  });
  for (size_t i = 1; i < order.size(); ++i) {
    if (tensors[order[i]].name == tensors[order[i - 1]].name) {
      fail(kWhere, "tensor '" + tensors[order[i]].name + "' appears twice in the header (bytes " +
                       std::to_string(at[order[i - 1]]) + " and " + std::to_string(at[order[i]]) +
                       "); each tensor needs its own name");
    }
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tensors[a].begin != tensors[b].begin ? tensors[a].begin < tensors[b].begin : tensors[a].end < tensors[b].end;
  });
  uint64_t expected = data_start;
  const TensorInfo* previous = nullptr;
  for (const size_t i : order) {
    const TensorInfo& t = tensors[i];
    if (t.begin < expected) {
      fail(kWhere, "tensors " + range_text(*previous, data_start) + " and " + range_text(t, data_start) +
                       " overlap (data_offsets); each byte of the data belongs to one tensor");
    }
    if (t.begin > expected) {
      fail(kWhere, "bytes [" + std::to_string(expected - data_start) + ", " + std::to_string(t.begin - data_start) +
                       ") of the data belong to no tensor (" + (previous ? "after " + range_text(*previous, data_start) + ", " : "") +
                       "before " + range_text(t, data_start) + "); the tensors' data_offsets must leave no gap");
    }
    expected = t.end;
    previous = &t;
  }
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

uint32_t safetensors_dtype_bytes(const std::string& d) {
  if (d == "F64" || d == "I64" || d == "U64") return 8;
  if (d == "F32" || d == "I32" || d == "U32") return 4;
  if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
  if (d == "I8" || d == "U8" || d == "BOOL" || d == "F8_E4M3" || d == "F8_E5M2") return 1;
  return 0;
}

uint64_t safetensors_header_size(std::string_view first8) {
  if (first8.size() < 8) {
    fail(kWhere, "the file has " + std::to_string(first8.size()) + " bytes, fewer than the 8 of the header length");
  }
  uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(first8[static_cast<size_t>(b)]);
  if (n > kSafetensorsMaxHeader) {
    fail(kWhere, "byte 0: the header length " + std::to_string(n) + " is over the format's limit of " +
                     std::to_string(kSafetensorsMaxHeader) + " bytes");
  }
  return 8 + n;
}

std::vector<TensorInfo> safetensors_header(std::string_view head) {
  const std::string_view json = header_json(head);
  const uint64_t data_start = 8 + json.size();
  // subtle: a tensor entry takes at least 32 bytes of JSON, which bounds the list before it grows.
  MemoryPlan p(kWhere);
  p.add("header", {static_cast<int64_t>(json.size())}, kBytes);
  p.add("tensor list", {static_cast<int64_t>(json.size() / 32 + 1), static_cast<int64_t>(sizeof(TensorInfo))}, kBytes);
  p.check();
  HeaderReader r(json, 8);
  std::vector<TensorInfo> tensors;
  std::vector<uint64_t> entries;  // where each tensor's entry starts, for messages
  bool metadata = false;
  r.object([&](const std::string& name) {
    if (name == "__metadata__") {
      if (metadata) fail(kWhere, "byte " + std::to_string(r.offset()) + ": a second __metadata__");
      metadata = true;
      r.object([&](const std::string&) { r.string(); });
      return;
    }
    const uint64_t at = r.offset();
    entries.push_back(at);
    TensorInfo t;
    t.name = name;
    bool has_dtype = false, has_shape = false, has_offsets = false;
    std::vector<uint64_t> offsets;
    r.object([&](const std::string& key) {
      if ((key == "dtype" && has_dtype) || (key == "shape" && has_shape) || (key == "data_offsets" && has_offsets)) {
        fail(kWhere, "tensor '" + name + "': key '" + key + "' appears twice");
      }
      if (key == "dtype") {
        t.dtype = r.string(), has_dtype = true;
      } else if (key == "shape") {
        for (const uint64_t d : r.integers()) {
          if (d > static_cast<uint64_t>(INT64_MAX)) fail(kWhere, "tensor '" + name + "': dimension " + std::to_string(d) + " is too large");
          t.shape.push_back(static_cast<int64_t>(d));
        }
        has_shape = true;
      } else if (key == "data_offsets") {
        offsets = r.integers(), has_offsets = true;
      } else {
        fail(kWhere, "tensor '" + name + "': unexpected key '" + key + "' (expected dtype, shape, data_offsets)");
      }
    });
    if (!has_dtype || !has_shape || !has_offsets) {
      fail(kWhere, "byte " + std::to_string(at) + ": tensor '" + name + "' needs dtype, shape and data_offsets");
    }
    if (offsets.size() != 2 || offsets[0] > offsets[1]) {
      fail(kWhere, "tensor '" + name + "': data_offsets must be [begin, end] with begin <= end");
    }
    if (offsets[1] > UINT64_MAX - data_start) fail(kWhere, "tensor '" + name + "': data_offsets end " + std::to_string(offsets[1]) + " is too large");
    t.begin = data_start + offsets[0];
    t.end = data_start + offsets[1];
    if (const uint32_t width = safetensors_dtype_bytes(t.dtype)) {
      uint64_t want = width;
      for (const int64_t d : t.shape) {
        if (__builtin_mul_overflow(want, static_cast<uint64_t>(d), &want)) {
          fail(kWhere, "tensor '" + name + "': shape " + shape_text(t.shape) + " overflows 64 bits");
        }
      }
      if (want != t.end - t.begin) {
        fail(kWhere, "tensor '" + name + "': shape " + shape_text(t.shape) + " " + t.dtype + " needs " +
                         std::to_string(want) + " bytes, data_offsets give " + std::to_string(t.end - t.begin));
      }
    }
    tensors.push_back(std::move(t));
  });
  r.end();
  check_tensors(tensors, entries, data_start);
  return tensors;
}

std::vector<TensorInfo> safetensors_header(std::string_view head, uint64_t file_size) {
  const uint64_t size = safetensors_header_size(head);
  if (size > file_size) {
    fail(kWhere, "the header needs " + std::to_string(size) + " bytes (8 + its length " + std::to_string(size - 8) +
                     "), the file has " + std::to_string(file_size) + ": it is cut short");
  }
  std::vector<TensorInfo> all = safetensors_header(head);
  uint64_t end = size;  // the data is packed (checked): it ends where the last tensor ends
  for (const TensorInfo& t : all) end = std::max(end, t.end);
  for (const TensorInfo& t : all) {
    if (t.end > file_size) {
      fail(kWhere, "tensor '" + t.name + "': its data [" + std::to_string(t.begin) + ", " + std::to_string(t.end) +
                       ") runs past the end of the file (" + std::to_string(file_size) + " bytes): the file is cut short");
    }
  }
  if (end < file_size) {
    fail(kWhere, "the tensors' data ends at byte " + std::to_string(end) + ", the file has " + std::to_string(file_size) +
                     " bytes: bytes [" + std::to_string(end) + ", " + std::to_string(file_size) + ") belong to no tensor");
  }
  return all;
}

std::vector<std::pair<std::string, std::string>> safetensors_metadata(std::string_view head) {
  const std::string_view json = header_json(head);
  plan(kWhere, "header", static_cast<int64_t>(json.size()), kBytes);
  HeaderReader r(json, 8);
  std::vector<std::pair<std::string, std::string>> out;
  r.object([&](const std::string& name) {
    if (name == "__metadata__") {
      r.object([&](const std::string& key) { out.emplace_back(key, r.string()); });
    } else {
      r.object([&](const std::string& key) {
        if (key == "dtype") r.string();
        else r.integers();
      });
    }
  });
  return out;
}

const TensorInfo& safetensors_pick(const std::vector<TensorInfo>& tensors, const std::string& name) {
  auto describe = [](const TensorInfo& t) { return t.name + " " + t.dtype + " " + shape_text(t.shape); };
  // the first kListed tensors: a header may hold a million
  constexpr size_t kListed = 20;
  std::string all;
  for (size_t i = 0; i < tensors.size() && i < kListed; ++i) all += (all.empty() ? "" : ", ") + describe(tensors[i]);
  if (tensors.size() > kListed) all += " and " + std::to_string(tensors.size() - kListed) + " more";
  if (!name.empty()) {
    for (const TensorInfo& t : tensors) {
      if (t.name == name) return t;
    }
    fail(kWhere, "no tensor '" + name + "'; the file has: " + (all.empty() ? "none" : all));
  }
  const TensorInfo* only = nullptr;
  size_t two_d = 0;
  for (const TensorInfo& t : tensors) {
    if (t.shape.size() == 2) only = &t, ++two_d;
  }
  if (two_d == 1) return *only;
  fail(kWhere, std::to_string(two_d) + " of its " + std::to_string(tensors.size()) +
                   " tensors are 2-D; name the one to read (" + (all.empty() ? "none" : all) + ")");
}

ImportedTable decode_tensor_at(const std::string& where, std::string_view bytes, const std::string& dtype,
                               const std::vector<int64_t>& shape) {
  if (shape.empty() || shape.size() > 2) {
    fail(where, "shape " + shape_text(shape) + " has " + std::to_string(shape.size()) +
                    " dimensions; a table is 1-D or 2-D");
  }
  uint32_t width = 0;
  if (dtype == "F32" || dtype == "F16" || dtype == "BF16" || dtype == "F64") {
    width = safetensors_dtype_bytes(dtype);
  } else {
    fail(where, "dtype " + dtype + " is not supported (expected F32, F16, BF16 or F64)");
  }
  ImportedTable t;
  t.rows = shape[0];
  t.cols = shape.size() == 2 ? shape[1] : 1;
  if (t.rows < 0 || t.cols < 0) fail(where, "shape " + shape_text(shape) + " has a negative dimension");
  uint64_t want = 0;
  const bool overflow = __builtin_mul_overflow(static_cast<uint64_t>(t.rows), static_cast<uint64_t>(t.cols), &want) ||
                        __builtin_mul_overflow(want, static_cast<uint64_t>(width), &want);
  if (overflow || want != bytes.size()) {
    fail(where, "shape " + shape_text(shape) + " " + dtype + " needs " + std::to_string(t.rows) + " x " +
                    std::to_string(t.cols) + " x " + std::to_string(width) +
                    (overflow ? " bytes, more than 2^64" : " = " + std::to_string(want) + " bytes") + ", got " +
                    std::to_string(bytes.size()) +
                    (overflow || bytes.size() < want ? ": the file is cut short" : ", more than the shape holds"));
  }
  check_table_not_empty(where, t.rows, t.cols);
  const size_t n = plan(where.c_str(), "table", {t.rows, t.cols}, kFloat32);
  t.data.resize(n);
  const char* src = bytes.data();
  if (width == 4) {
    if (n) std::memcpy(t.data.data(), src, n * 4);
  } else if (width == 8) {
    for (size_t i = 0; i < n; ++i) {
      double v;
      std::memcpy(&v, src + i * 8, 8);
      t.data[i] = static_cast<float>(v);
    }
  } else {
    const bool bf16 = dtype == "BF16";
    for (size_t i = 0; i < n; ++i) {
      uint16_t u;
      std::memcpy(&u, src + i * 2, 2);
      t.data[i] = bf16 ? bf16_to_float(u) : half_to_float(u);
    }
  }
  t.format = "safetensors";
  return t;
}

ImportedTable decode_tensor(std::string_view bytes, const std::string& dtype, const std::vector<int64_t>& shape) {
  return decode_tensor_at(kWhere, bytes, dtype, shape);
}

namespace {

bool looks_like_safetensors(std::string_view bytes) {
  if (bytes.size() < 9) return false;
  uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(bytes[static_cast<size_t>(b)]);
  return n >= 2 && n <= bytes.size() - 8 && bytes[8] == '{';
}

bool detect(const DetectInput& in) { return in.stage == DetectStage::kSignature && looks_like_safetensors(in.bytes); }

std::vector<TensorInfo> list(std::string_view bytes) {
  return safetensors_header(bytes.substr(0, std::min<uint64_t>(bytes.size(), safetensors_header_size(bytes))), bytes.size());
}

ImportedTable read_table(std::string_view bytes, const std::string& tensor) {
  const std::vector<TensorInfo> all = list(bytes);
  const TensorInfo& pick = safetensors_pick(all, tensor);
  ImportedTable t = decode_tensor_at("read safetensors: tensor '" + pick.name + "'",
                                     bytes.substr(static_cast<size_t>(pick.begin), static_cast<size_t>(pick.end - pick.begin)),
                                     pick.dtype, pick.shape);
  t.tensor = pick.name;
  recognise_known_table(t);
  return t;
}

}  // namespace

const TableFormat& safetensors_format() {
  static const TableFormat f{.name = "safetensors", .label = "safetensors", .extensions = {"safetensors"},
                             .tensors = true, .detect_rank = 2, .detect = detect, .read = read_table, .list = list};
  return f;
}

}  // namespace embedlab
