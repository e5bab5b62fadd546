#include "io/table_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

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

// The file's size when it is to be read as safetensors (format "safetensors", a name ending
// .safetensors, or format "" and bytes that start like one) and is a regular file, else nothing.
std::optional<uint64_t> safetensors_file(const std::string& path, const std::string& format) {
  if (!format.empty() && format != "safetensors") return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return std::nullopt;
  if (format == "safetensors" || format_for_name(path) == "safetensors") return size;
  if (size < 9) return std::nullopt;
  std::ifstream f(path, std::ios::binary);
  char head[9];
  if (!f.read(head, 9)) return std::nullopt;
  uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = n << 8 | static_cast<unsigned char>(head[b]);
  if (head[8] == '{' && n >= 2 && n <= size - 8) return size;
  return std::nullopt;
}

std::vector<TensorInfo> header_of(const std::string& path, uint64_t size) {
  const std::string first8 = read_range(path, 0, std::min<uint64_t>(size, 8));
  const uint64_t head = safetensors_header_size(first8);  // fails for a file of fewer than 8 bytes
  // subtle: a header longer than the file is refused (safetensors_header with the file's size)
  // before its bytes are read
  return safetensors_header(head > size ? first8 : read_range(path, 0, head), size);
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
  const std::optional<uint64_t> size = safetensors_file(path, format);
  if (!size) {
    const std::string bytes = read_file(where, path);
    return named(where, path, [&] { return import_table(bytes, format, tensor, path); });
  }
  return named(where, path, [&] {
    const std::vector<TensorInfo> all = header_of(path, *size);
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
  const std::optional<uint64_t> size = safetensors_file(path, "");
  if (!size) {
    const std::string bytes = read_file(where, path);
    return named(where, path, [&] {
      std::vector<TensorInfo> all = list_tensors(bytes, "", path);
      if (info) info->format = resolve_format(bytes, "", path);
      return all;
    });
  }
  return named(where, path, [&] {
    std::vector<TensorInfo> all = header_of(path, *size);
    if (info) {
      info->format = "safetensors";
      info->metadata = safetensors_metadata(read_range(path, 0, safetensors_header_size(read_range(path, 0, 8))));
    }
    return all;
  });
}

}  // namespace embedlab
