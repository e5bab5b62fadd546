// The engine's one file reader: a whole file as bytes, read with a size limit.
//
//   read_file("tokenize", "corpus.txt")  -> the bytes
// Fails with Error naming the path and the reason:
//   "tokenize: cannot open 'x.txt': No such file or directory"
//   "tokenize: 'web/' is a directory, expected a file"
//   "tokenize: '/dev/zero' is longer than 2.0 GiB, the limit for an input file"
// A regular file's size is planned (core/memory.hpp) before anything is read; a stream (a pipe,
// a device) is read in chunks and refused as soon as it passes the limit, so `/dev/zero` ends
// with an error instead of exhausting memory.
// It does not map files or read parts of them.
#pragma once

#include <cstdint>
#include <string>

namespace embedlab {

// The largest input file (2 GiB, in both builds; a wasm buffer must stay under 2 GiB).
inline constexpr uint64_t kMaxFileBytes = (2ull << 30) - 1;

std::string read_file(const std::string& where, const std::string& path);

}  // namespace embedlab
