// Tables from files: io/formats.hpp's readers with a path, reading only what they need.
//
//   read_table(where, path, format, tensor) -> the table; a safetensors file is read in two
//       pieces: the header (8 + N bytes), then the chosen tensor's bytes, so a 548 MB checkpoint
//       costs its 154 MB token table, not the whole file. Other files are read whole through
//       core/file.hpp's read_file (2 GiB limit, size planned first).
//   read_tensor_list(where, path, &info) -> list_tensors of the file (safetensors: the header
//       only), and in info the format and the safetensors __metadata__ map.
// The format: `format`, else the one the path's extension names (.npy, .safetensors, .tsv, .bin,
// .vec; io/formats.hpp format_for_name), else detected from the bytes. A file named
// .safetensors is read as one, whatever its first bytes, and fails with that format's message.
// Errors name `where` and the path: "--table t.bin: read word2vec: line 3: ...".
// It does not write files (the CLI's output.hpp does).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/formats.hpp"

namespace embedlab {

ImportedTable read_table(const std::string& where, const std::string& path, const std::string& format = "",
                         const std::string& tensor = "");
struct TableFileInfo {
  std::string format;                                         // as detect_format names it
  std::vector<std::pair<std::string, std::string>> metadata;  // safetensors __metadata__
};
std::vector<TensorInfo> read_tensor_list(const std::string& where, const std::string& path,
                                         TableFileInfo* info = nullptr);

}  // namespace embedlab
