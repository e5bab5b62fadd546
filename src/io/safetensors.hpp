// The safetensors format (huggingface/safetensors, docs "Format"): 8 bytes little-endian
// unsigned N, then N bytes of UTF-8 JSON
//   {"wte.weight": {"dtype": "F32", "shape": [50257, 768], "data_offsets": [0, 154389504]},
//    "__metadata__": {"format": "pt"}}
// then the data; data_offsets are relative to the byte after the header (8 + N). Values are
// little-endian, row-major.
//
// The public entry points are in io/table_import.hpp (safetensors_header_size,
// safetensors_header, decode_tensor, and import_table/list_tensors with format "safetensors").
// This header adds what `embedlab inspect` and the file reader need besides. The JSON header is
// parsed by a small strict reader here, without building a tree: only the tensor list is
// allocated, after the planner passed the header size. Headers over 100,000,000 bytes (the
// format's own limit) are refused.
// It does not write safetensors files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/table_import.hpp"

namespace embedlab {

inline constexpr uint64_t kSafetensorsMaxHeader = 100'000'000;

// Bytes per value of a safetensors dtype ("F32" -> 4, "BF16" -> 2, "BOOL" -> 1), 0 when unknown.
uint32_t safetensors_dtype_bytes(const std::string& dtype);

// The "__metadata__" map of a header, in file order (empty when there is none).
std::vector<std::pair<std::string, std::string>> safetensors_metadata(std::string_view head);

// Picks the tensor to import: by name, or the only 2-D one when name is "". Fails listing the
// tensors ("read safetensors: 2 tensors are 2-D (wte.weight, wpe.weight); pick one with PATH:TENSOR").
const TensorInfo& safetensors_pick(const std::vector<TensorInfo>& tensors, const std::string& name);

// decode_tensor with the caller's `where` in its messages.
ImportedTable decode_tensor_at(const std::string& where, std::string_view bytes, const std::string& dtype,
                               const std::vector<int64_t>& shape);

}  // namespace embedlab
