// Output files of the CLI (--out, -o, --out-tsv, --save-state): checked before the work starts,
// written whole at the end, every failure an Error naming the flag, the path and the reason:
//   "--out: cannot write 'no/such/t.npy': No such file or directory"
//   "--out: 'build/' is a directory, expected a file"
// Every write goes to a temporary file in the same directory ("<path>.tmp-<pid>-<n>") which is
// renamed over path only after every byte was written and the file closed, so a full disk, a file
// size limit (SIGXFSZ/EFBIG) or an interrupted write leaves the old file as it was and removes the
// temporary file. (A process killed by a signal cannot remove its temporary file; it never
// replaces path either.) It does not write stdout (main.cpp does, once, after the command
// succeeded).
//
// Intended usage:
//   check_output_file("--out", out);            // before training, so a typo costs nothing
//   ... train ...
//   write_output_file("--out", out, npy_bytes(table, rows, cols));
//   OutputFile f("--out-tsv", dir + "/vectors.tsv");  // a file written in parts
//   f.write(chunk); ...; f.commit();                  // without commit() the old file stays
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace embedlab::cli {

// The most numbers or strings one command prints on stdout (16,777,216: about 200 MB of JSON).
// Output is formed in memory and printed once, so a command checks the count before it computes
// anything: "posenc: the table (1 x 30000 x 30000) would print 900000000 values; the CLI prints
// at most 16777216 (ask for less)".
inline constexpr int64_t kMaxPrintedValues = int64_t{1} << 24;
// Fails when the product of dims (each >= 0) exceeds kMaxPrintedValues, naming what and dims.
void check_printed_values(const std::string& where, const std::string& what, std::initializer_list<int64_t> dims);

// Fails unless path can be created or overwritten as a file (its directory exists and is
// writable, and path is not a directory).
void check_output_file(const std::string& where, const std::string& path);
// Fails unless dir is a writable directory or can be created (its nearest existing ancestor is a
// writable directory).
void check_output_dir(const std::string& where, const std::string& dir);
// Writes bytes to path (replacing it, through OutputFile), checking every write and the close.
void write_output_file(const std::string& where, const std::string& path, const std::string& bytes);

// Several files that belong together (a table and its metadata.tsv): every one is written to its
// temporary file before any is renamed, so a failed write replaces none of them.
void write_output_files(const std::string& where, const std::vector<std::pair<std::string, std::string>>& path_bytes);

// One output file written in parts into its temporary file; commit() renames it over path. The
// destructor removes the temporary file of an uncommitted write.
class OutputFile {
 public:
  OutputFile(const std::string& where, const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  void write(std::string_view bytes);
  void commit();

 private:
  [[noreturn]] void abandon(const std::string& why);
  std::string where_, path_, temp_;
  void* file_ = nullptr;  // std::FILE*
};

}  // namespace embedlab::cli
