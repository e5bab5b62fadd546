// One way to size memory: every buffer whose size depends on input is planned here before it
// is allocated.
//
// A plan multiplies the dimensions in 64-bit arithmetic with overflow detection, compares the
// bytes with the limit of this build and fails *before allocating* with a message in human units:
//   "next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB"
// subtle: in wasm32 size_t is 32 bits, so `rows * dim * 4` computed in size_t wraps silently;
// nothing input-dependent may be multiplied in size_t before it passed through plan().
//
// The limits (memory_limits()):
//   wasm    the 4 GiB address space less what is in use (the heap top, less what malloc holds
//           free below it), and any single buffer under 2 GiB.
//   native  EMBEDLAB_MEMORY_LIMIT (bytes, or with a unit: 512MiB, 8GiB, 2GB) if set, else the
//           machine's available memory (MemAvailable in /proc/meminfo) when first asked, or the
//           address-space limit (ulimit -v) if that is lower; a single buffer may use all of it.
// Tests narrow the limits with set_memory_limit_override() to exercise the wasm figures natively.
//
// It does not track what the planned buffers later allocate: a plan is a check, not an allocator.
// An allocation that still fails (fragmentation, another process) is caught at the boundaries
// (CLI main, bindings' guard) and reported with out_of_memory_message(), never as std::bad_alloc.
//
// Intended usage:
//   const size_t n = plan("lookup", "output", {B, T, D}, kFloat32);   // throws Error if too big
//   std::vector<float> out(n);
//   MemoryPlan p("next-token");                // several buffers that live at once
//   p.add("token table", {V, D}, kFloat32);
//   p.add("attention scores", {B, T, T}, kFloat32);
//   p.check();                                 // their sum against the limit
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace embedlab {

struct ElementType {
  const char* name;  // "float32", as numpy names it
  uint32_t bytes;
};
inline constexpr ElementType kFloat32{"float32", 4};
inline constexpr ElementType kFloat64{"float64", 8};
inline constexpr ElementType kInt32{"int32", 4};
inline constexpr ElementType kInt64{"int64", 8};
inline constexpr ElementType kBytes{"bytes", 1};

struct MemoryLimits {
  uint64_t total;   // all buffers of one plan together
  uint64_t buffer;  // any single buffer (<= total)
};

// The limits of this build now (see the file comment).
MemoryLimits memory_limits();

// Replaces the limits (tests; `embedlab --memory-limit`); std::nullopt restores the build's own.
void set_memory_limit_override(std::optional<MemoryLimits> limits);

// "16.0 GiB", "512 B", "3.4 MiB": binary units with one decimal (bytes below 1 KiB exact).
std::string format_bytes(uint64_t bytes);

// Parses "1048576", "512MiB", "8 GiB", "2GB", "1.5G" into bytes (K/M/G/T are binary) or fails
// naming `where`.
uint64_t parse_bytes(const std::string& where, const std::string& text);

// Plans one buffer of dims[0] x dims[1] x ... elements of `type`; returns the element count.
// Fails if a dimension is negative, the product overflows 64 bits, or the bytes exceed the
// limit: "<where>: <what> 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB".
size_t plan(const char* where, const std::string& what, std::initializer_list<int64_t> dims,
            ElementType type);

// The same for one dimension (a count of elements).
inline size_t plan(const char* where, const std::string& what, int64_t n, ElementType type) {
  return plan(where, what, {n}, type);
}

// Several buffers that are alive at the same time: each is checked alone by add(), their sum by
// check().
class MemoryPlan {
 public:
  explicit MemoryPlan(std::string where) : where_(std::move(where)) {}
  size_t add(const std::string& what, std::initializer_list<int64_t> dims, ElementType type);
  // Fails when the sum exceeds the total limit:
  // "<where>: its buffers need 5.1 GiB together (largest: <what> ...); the limit here is 3.9 GiB".
  void check() const;
  uint64_t bytes() const { return bytes_; }

 private:
  std::string where_;
  uint64_t bytes_ = 0;
  uint64_t largest_bytes_ = 0;
  std::string largest_;
};

// The message for an allocation that failed although its plan passed:
// "<where>: out of memory (the limit here is 3.9 GiB)".
std::string out_of_memory_message(const std::string& where);

}  // namespace embedlab
