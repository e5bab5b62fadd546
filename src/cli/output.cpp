#include "cli/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

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

void check_printed_values(const std::string& where, const std::string& what, std::initializer_list<int64_t> dims) {
  std::string shape;
  int64_t n = 1;
  bool overflow = false, zero = false;
  for (const int64_t d : dims) {
    shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    if (d < 0) fail(where, what + " has a negative size " + std::to_string(d));
    zero = zero || d == 0;
    if (d != 0 && n > INT64_MAX / d) overflow = true;
    else n *= d;
  }
  if (zero || (!overflow && n <= kMaxPrintedValues)) return;
  fail(where, what + " (" + shape + ") would print " + (overflow ? "more than 2^63" : std::to_string(n)) +
                  " values; the CLI prints at most " + std::to_string(kMaxPrintedValues) + " (ask for less)");
}

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

OutputFile::OutputFile(const std::string& where, const std::string& path) : where_(where), path_(path) {
  static std::atomic<unsigned> serial{0};
  temp_ = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  // subtle: with a file size limit (ulimit -f) a write past it raises SIGXFSZ, which kills the
  // process before any cleanup; ignored, the write fails with EFBIG and the temporary file goes.
  std::signal(SIGXFSZ, SIG_IGN);
  std::FILE* f = std::fopen(temp_.c_str(), "wbx");
  if (!f) cannot_write(where_, path_, std::strerror(errno));
  file_ = f;
  struct stat st {};  // the file it replaces keeps its permissions
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::fchmod(::fileno(f), st.st_mode & 07777);
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(static_cast<std::FILE*>(file_));
  if (!temp_.empty()) std::remove(temp_.c_str());
}

void OutputFile::abandon(const std::string& why) {
  if (file_) std::fclose(static_cast<std::FILE*>(file_));
  file_ = nullptr;
  std::remove(temp_.c_str());
  temp_.clear();
  cannot_write(where_, path_, why);
}

void OutputFile::write(std::string_view bytes) {
  if (!file_) fail(where_, "'" + path_ + "' was already written");
  if (std::fwrite(bytes.data(), 1, bytes.size(), static_cast<std::FILE*>(file_)) != bytes.size()) {
    abandon(std::strerror(errno));
  }
}

void OutputFile::commit() {
  if (!file_) fail(where_, "'" + path_ + "' was already written");
  auto* f = static_cast<std::FILE*>(file_);
  if (std::fflush(f) != 0) abandon(std::strerror(errno));
  file_ = nullptr;
  if (std::fclose(f) != 0) abandon(std::strerror(errno));
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) abandon(std::strerror(errno));
  temp_.clear();
}

void write_output_file(const std::string& where, const std::string& path, const std::string& bytes) {
  OutputFile f(where, path);
  f.write(bytes);
  f.commit();
}

void write_output_files(const std::string& where, const std::vector<std::pair<std::string, std::string>>& path_bytes) {
  std::vector<std::unique_ptr<OutputFile>> files;
  for (const auto& [path, bytes] : path_bytes) {
    files.push_back(std::make_unique<OutputFile>(where, path));
    files.back()->write(bytes);
  }
  for (auto& f : files) f->commit();
}

}  // namespace embedlab::cli
