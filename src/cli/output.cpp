#include "cli/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace embedlab::cli {

namespace {

[[noreturn]] void cannot_write(const std::string& where, const std::string& path, const std::string& why) {
  fail(where, "cannot write '" + path + "': " + why);
}

// "a/b/c" -> "a/b", "c" -> ".", "/c" -> "/".
std::string parent_of(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

// Fails unless dir is an existing directory we may create files in.
void check_dir(const std::string& where, const std::string& path, const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) cannot_write(where, path, std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) cannot_write(where, path, "'" + dir + "' is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) cannot_write(where, path, std::strerror(errno));
}

}  // namespace

void check_output_file(const std::string& where, const std::string& path) {
  if (path.empty()) fail(where, "expected a file name, got ''");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(where, "'" + path + "' is a directory, expected a file");
    if (::access(path.c_str(), W_OK) != 0) cannot_write(where, path, std::strerror(errno));
    return;
  }
  if (errno != ENOENT) cannot_write(where, path, std::strerror(errno));
  check_dir(where, path, parent_of(path));
}

void check_output_dir(const std::string& where, const std::string& dir) {
  if (dir.empty()) fail(where, "expected a directory name, got ''");
  std::string d = dir;
  struct stat st {};
  while (::stat(d.c_str(), &st) != 0) {
    if (errno != ENOENT) cannot_write(where, dir, std::strerror(errno));
    const std::string up = parent_of(d);
    if (up == d) break;
    d = up;
  }
  if (d == dir && !S_ISDIR(st.st_mode)) fail(where, "'" + dir + "' is not a directory");
  check_dir(where, dir, d);
}

void write_output_file(const std::string& where, const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) cannot_write(where, path, std::strerror(errno));
  const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote) cannot_write(where, path, std::strerror(write_errno));
  if (!closed) cannot_write(where, path, std::strerror(errno));
}

}  // namespace embedlab::cli
