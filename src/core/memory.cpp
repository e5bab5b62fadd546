#include "core/memory.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/error.hpp"

#ifdef __EMSCRIPTEN__
#include <malloc.h>
#include <unistd.h>
#else
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace embedlab {

namespace {

std::optional<MemoryLimits>& override_limits() {
  static std::optional<MemoryLimits> limits;
  return limits;
}

#ifdef __EMSCRIPTEN__
constexpr uint64_t kAddressSpace = 4ull << 30;   // -sMAXIMUM_MEMORY=4GB
constexpr uint64_t kBufferLimit = (2ull << 30) - 1;  // any single buffer under 2 GiB

// 4 GiB less what is in use. The heap top (sbrk(0)) bounds what is in use from above; only when
// that cheap bound is tight do we ask malloc how much it holds free below the top (mallinfo walks
// the heap, so it is not done on every call).
uint64_t wasm_available(uint64_t wanted) {
  const uint64_t top = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(sbrk(0)));
  const uint64_t beyond_top = top < kAddressSpace ? kAddressSpace - top : 0;
  if (wanted <= beyond_top) return beyond_top;
  const struct mallinfo mi = mallinfo();
  return beyond_top + static_cast<uint64_t>(static_cast<uint32_t>(mi.fordblks));
}
#else
// MemAvailable from /proc/meminfo, in bytes; 0 if it cannot be read.
uint64_t mem_available() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// EMBEDLAB_MEMORY_LIMIT, else the available memory when first asked (read once per process).
uint64_t native_limit() {
  static const uint64_t limit = []() -> uint64_t {
    if (const char* env = std::getenv("EMBEDLAB_MEMORY_LIMIT"); env && *env) {
      return parse_bytes("EMBEDLAB_MEMORY_LIMIT", env);
    }
    uint64_t available = mem_available();
    if (!available) available = 8ull << 30;
    // An address-space limit (ulimit -v) binds before the machine's memory does.
    struct rlimit rl {};
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < available) {
      available = static_cast<uint64_t>(rl.rlim_cur);
    }
    return available;
  }();
  return limit;
}
#endif

MemoryLimits limits_for(uint64_t wanted) {
  if (override_limits()) return *override_limits();
#ifdef __EMSCRIPTEN__
  const uint64_t available = wasm_available(wanted);
  return {available, available < kBufferLimit ? available : kBufferLimit};
#else
  (void)wanted;
  const uint64_t limit = native_limit();
  return {limit, limit};
#endif
}

std::string describe(const std::string& what, std::initializer_list<int64_t> dims, ElementType type) {
  std::string s = what + " ";
  bool first = true;
  for (const int64_t d : dims) {
    if (!first) s += " x ";
    s += std::to_string(d);
    first = false;
  }
  return s + " " + type.name;
}

}  // namespace

MemoryLimits memory_limits() { return limits_for(0); }

void set_memory_limit_override(std::optional<MemoryLimits> limits) { override_limits() = limits; }

std::string format_bytes(uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  // subtle: round first, so 1023.96 KiB prints as "1.0 MiB", not "1024.0 KiB".
  while (std::round(v * 10) / 10 >= 1024 && u < 5) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

uint64_t parse_bytes(const std::string& where, const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v) || v < 0) {
    fail(where, "expected a size such as 512MiB or 8GiB, got '" + text + "'");
  }
  std::string unit(end);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
  std::string upper = unit;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 1;
  if (upper == "" || upper == "B") scale = 1;
  else if (upper == "K" || upper == "KB" || upper == "KIB") scale = 0x1p10;
  else if (upper == "M" || upper == "MB" || upper == "MIB") scale = 0x1p20;
  else if (upper == "G" || upper == "GB" || upper == "GIB") scale = 0x1p30;
  else if (upper == "T" || upper == "TB" || upper == "TIB") scale = 0x1p40;
  else fail(where, "unknown size unit '" + unit + "' in '" + text + "' (expected B, KiB, MiB, GiB or TiB)");
  const double bytes = v * scale;
  if (bytes >= 0x1p63) fail(where, "size '" + text + "' is too large");
  return static_cast<uint64_t>(bytes);
}

size_t plan(const char* where, const std::string& what, std::initializer_list<int64_t> dims,
            ElementType type) {
  uint64_t elements = 1;
  bool overflow = false;
  for (const int64_t d : dims) {
    if (d < 0) fail(where, describe(what, dims, type) + ": a negative size");
    overflow = overflow || __builtin_mul_overflow(elements, static_cast<uint64_t>(d), &elements);
  }
  uint64_t bytes = 0;
  overflow = overflow || __builtin_mul_overflow(elements, static_cast<uint64_t>(type.bytes), &bytes);
  const MemoryLimits limits = limits_for(overflow ? UINT64_MAX : bytes);
  const uint64_t limit = limits.buffer < limits.total ? limits.buffer : limits.total;
  if (overflow || bytes > limit) {
    fail(where, describe(what, dims, type) + " need " +
                    (overflow ? std::string("more than 16 EiB") : format_bytes(bytes)) +
                    "; the limit here is " + format_bytes(limit));
  }
  // bytes <= limit <= the address space, so the count fits in size_t on every build
  return static_cast<size_t>(elements);
}

size_t MemoryPlan::add(const std::string& what, std::initializer_list<int64_t> dims, ElementType type) {
  const size_t n = plan(where_.c_str(), what, dims, type);
  const uint64_t b = static_cast<uint64_t>(n) * type.bytes;
  bytes_ += b;  // each b <= the limit, so the sum of a few cannot overflow 64 bits
  if (b > largest_bytes_) largest_bytes_ = b, largest_ = describe(what, dims, type);
  return n;
}

void MemoryPlan::check() const {
  const MemoryLimits limits = limits_for(bytes_);
  if (bytes_ > limits.total) {
    fail(where_, "its buffers need " + format_bytes(bytes_) + " together (largest: " + largest_ + ", " +
                     format_bytes(largest_bytes_) + "); the limit here is " + format_bytes(limits.total));
  }
}

std::string out_of_memory_message(const std::string& where) {
  return where + ": out of memory (the limit here is " + format_bytes(memory_limits().total) + ")";
}

}  // namespace embedlab
