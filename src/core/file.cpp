#include "core/file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace embedlab {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

[[noreturn]] void too_long(const std::string& where, const std::string& path) {
  fail(where, "'" + path + "' is longer than " + format_bytes(kMaxFileBytes) + ", the limit for an input file");
}

}  // namespace

std::string read_file(const std::string& where, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    fail(where, "cannot open '" + path + "': " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) fail(where, "'" + path + "' is a directory, expected a file");
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) fail(where, "cannot open '" + path + "': " + std::strerror(errno));

  std::string bytes;
  size_t filled = 0;
  if (S_ISREG(st.st_mode)) {
    // A regular file: its size is planned and read in one go.
    if (static_cast<uint64_t>(st.st_size) > kMaxFileBytes) too_long(where, path);
    bytes.resize(plan(where.c_str(), "file '" + path + "'", static_cast<int64_t>(st.st_size), kBytes));
    filled = std::fread(bytes.data(), 1, bytes.size(), f.get());
  }
  // A stream (a pipe, a device), or a regular file that grew while we read: chunks, each planned.
  for (;;) {
    if (filled == bytes.size()) {
      const int c = std::fgetc(f.get());
      if (c == EOF) break;
      if (bytes.size() >= kMaxFileBytes) too_long(where, path);
      const uint64_t grow = bytes.size() < (1u << 16) ? (1u << 16) : bytes.size() / 2;
      const uint64_t next = bytes.size() + grow < kMaxFileBytes ? bytes.size() + grow : kMaxFileBytes;
      bytes.resize(plan(where.c_str(), "file '" + path + "'", static_cast<int64_t>(next), kBytes));
      bytes[filled++] = static_cast<char>(c);
    }
    const size_t got = std::fread(bytes.data() + filled, 1, bytes.size() - filled, f.get());
    filled += got;
    if (got == 0) break;
  }
  if (std::ferror(f.get())) fail(where, "cannot read '" + path + "': " + std::strerror(errno));
  bytes.resize(filled);
  return bytes;
}

}  // namespace embedlab
