// Test helper: the wasm build's memory limits (4 GiB in all, a single buffer under 2 GiB),
// applied natively for the lifetime of the object, so size messages are the same on every machine.
//   WasmLimits wasm;                       // 4 GiB / 2 GiB
//   WasmLimits small(1 << 20, 1 << 20);    // 1 MiB
#pragma once

#include <cstdint>
#include <optional>

#include "core/memory.hpp"

namespace embedlab::testing {

struct WasmLimits {
  explicit WasmLimits(uint64_t total = 4ull << 30, uint64_t buffer = (2ull << 30) - 1) {
    set_memory_limit_override(MemoryLimits{total, buffer});
  }
  ~WasmLimits() { set_memory_limit_override(std::nullopt); }
  WasmLimits(const WasmLimits&) = delete;
  WasmLimits& operator=(const WasmLimits&) = delete;
};

}  // namespace embedlab::testing
