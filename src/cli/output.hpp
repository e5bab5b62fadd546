// Output files of the CLI (--out, -o, --out-tsv): checked before the work starts, written whole
// at the end, every failure an Error naming the flag, the path and the reason:
//   "--out: cannot write 'no/such/t.npy': No such file or directory"
//   "--out: 'build/' is a directory, expected a file"
// It does not write stdout (main.cpp does, once, after the command succeeded).
//
// Intended usage:
//   check_output_file("--out", out);            // before training, so a typo costs nothing
//   ... train ...
//   write_output_file("--out", out, npy_bytes(table, rows, cols));
#pragma once

#include <string>

namespace embedlab::cli {

// Fails unless path can be created or overwritten as a file (its directory exists and is
// writable, and path is not a directory).
void check_output_file(const std::string& where, const std::string& path);
// Fails unless dir is a writable directory or can be created (its nearest existing ancestor is a
// writable directory).
void check_output_dir(const std::string& where, const std::string& dir);
// Writes bytes to path (replacing it), checking every write and the close.
void write_output_file(const std::string& where, const std::string& path, const std::string& bytes);

}  // namespace embedlab::cli
