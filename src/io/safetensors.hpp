// The safetensors format (huggingface/safetensors, docs "Format"): 8 bytes little-endian
// unsigned N, then N bytes of UTF-8 JSON
//   {"wte.weight": {"dtype": "F32", "shape": [50257, 768], "data_offsets": [0, 154389504]},
//    "__metadata__": {"format": "pt"}}
// then the data; data_offsets are relative to the byte after the header (8 + N). Values are
// little-endian, row-major.
//
// This header has the reader's pieces: the header (safetensors_header_size, safetensors_header,
// safetensors_metadata), the tensor choice and decode_tensor; the registry entry "safetensors"
// (io/formats.hpp) reads a whole file's bytes with them, io/table_files.hpp a file by ranges. The JSON header is
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

#include "io/table.hpp"

namespace embedlab {

inline constexpr uint64_t kSafetensorsMaxHeader = 100'000'000;

// safetensors_header_size(first 8 bytes) -> 8 + N (N: the JSON header's length).
uint64_t safetensors_header_size(std::string_view first8);
// The first 8 + N bytes of a safetensors file -> its tensors with absolute byte ranges; throws
// naming how many bytes are needed when `head` is shorter, and when two tensors share a name or
// their data ranges overlap or leave a gap (the data is packed, from its first byte).
std::vector<TensorInfo> safetensors_header(std::string_view head);
// The same for a file of file_size bytes: also fails when the file is cut short (the header or a
// tensor's data runs past its end) or holds bytes after the last tensor's data.
std::vector<TensorInfo> safetensors_header(std::string_view head, uint64_t file_size);

// The little-endian bytes of one tensor (exactly end - begin) -> float32 (rows, cols); a 1-D
// shape becomes (n, 1); 0-D and 3-D or more are refused, and so is an empty table. dtype F32,
// F16, BF16 or F64. Messages start "read safetensors: "; fewer bytes than the shape needs are
// "the file is cut short".
// Example: dtype "BF16", shape {2}, bytes 80 3F 00 C0 -> rows 2, cols 1, data {1.0f, -2.0f}.
ImportedTable decode_tensor(std::string_view bytes, const std::string& dtype, const std::vector<int64_t>& shape);


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
