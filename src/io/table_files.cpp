#include "io/table_files.hpp"

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/memory.hpp"
#include "io/known_tables.hpp"
#include "io/safetensors.hpp"

namespace embedlab {

namespace {

// Bytes [begin, begin + n) of a file, planned first.
std::string read_range(const std::string& path, uint64_t begin, uint64_t n) {
  const char* where = "read safetensors";
  std::string out(plan(where, "file bytes", static_cast<int64_t>(n), kBytes), '\0');
  std::ifstream f(path, std::ios::binary);
  f.seekg(static_cast<std::streamoff>(begin));
  f.read(out.data(), static_cast<std::streamsize>(n));
  if (!f) fail(where, "cannot read bytes [" + std::to_string(begin) + ", " + std::to_string(begin + n) + ") of '" + path + "'");
  return out;
}

// The file's size when it is a regular file that starts like a safetensors file, else 0.
uint64_t safetensors_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return 0;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec || size < 9) return 0;
  std::ifstream f(path, std::ios::binary);
  char head[9];
  if (!f.read(head, 9)) return 0;
  uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(head[b]);
  return head[8] == '{' && n >= 2 && n <= size - 8 ? size : 0;
}

std::vector<TensorInfo> header_of(const std::string& path, uint64_t size) {
  const std::string first8 = read_range(path, 0, 8);
  const uint64_t head = safetensors_header_size(first8);
  std::vector<TensorInfo> all = safetensors_header(read_range(path, 0, head));
  for (const TensorInfo& t : all) {
    if (t.end > size) {
      fail("read safetensors", "tensor '" + t.name + "': its data [" + std::to_string(t.begin) + ", " +
                                   std::to_string(t.end) + ") runs past the end of the file (" + std::to_string(size) + " bytes)");
    }
  }
  return all;
}

// Runs f, prefixing an Error's message with "<where> <path>: ".
template <class F>
auto named(const std::string& where, const std::string& path, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(where + " " + path + ": " + e.what());
  }
}

}  // namespace

ImportedTable read_table(const std::string& where, const std::string& path, const std::string& format,
                         const std::string& tensor) {
  const uint64_t size = (format.empty() || format == "safetensors") ? safetensors_file(path) : 0;
  if (size == 0) {
    const std::string bytes = read_file(where, path);
    return named(where, path, [&] { return import_table(bytes, format, tensor); });
  }
  return named(where, path, [&] {
    const std::vector<TensorInfo> all = header_of(path, size);
    const TensorInfo& pick = safetensors_pick(all, tensor);
    ImportedTable t = decode_tensor_at("read safetensors: tensor '" + pick.name + "'",
                                       read_range(path, pick.begin, pick.end - pick.begin), pick.dtype, pick.shape);
    t.format = "safetensors";
    t.tensor = pick.name;
    recognise_known_table(t);
    return t;
  });
}

std::vector<TensorInfo> read_tensor_list(const std::string& where, const std::string& path, TableFileInfo* info) {
  const uint64_t size = safetensors_file(path);
  if (size == 0) {
    const std::string bytes = read_file(where, path);
    return named(where, path, [&] {
      std::vector<TensorInfo> all = list_tensors(bytes);
      if (info) info->format = detect_format(bytes);
      return all;
    });
  }
  return named(where, path, [&] {
    std::vector<TensorInfo> all = header_of(path, size);
    if (info) {
      info->format = "safetensors";
      info->metadata = safetensors_metadata(read_range(path, 0, safetensors_header_size(read_range(path, 0, 8))));
    }
    return all;
  });
}

}  // namespace embedlab
