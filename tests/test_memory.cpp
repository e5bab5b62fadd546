// The sizing helper (core/memory) and the file reader (core/file): sizes planned in 64 bits,
// limits in human units, files read with a size limit.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/memory.hpp"
#include "limits.hpp"

using namespace embedlab;

using embedlab::testing::WasmLimits;

TEST_CASE("format_bytes prints binary units with one decimal", "[memory]") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(1023) == "1023 B");
  CHECK(format_bytes(1024) == "1.0 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(16ull << 30) == "16.0 GiB");
  CHECK(format_bytes((1ull << 20) - 1) == "1.0 MiB");  // 1023.999 KiB rounds up a unit
  CHECK(format_bytes(UINT64_MAX) == "16.0 EiB");
}

TEST_CASE("parse_bytes reads sizes with units", "[memory]") {
  CHECK(parse_bytes("x", "1048576") == 1048576);
  CHECK(parse_bytes("x", "512MiB") == 512ull << 20);
  CHECK(parse_bytes("x", "8 GiB") == 8ull << 30);
  CHECK(parse_bytes("x", "1.5g") == 3ull << 29);
  REQUIRE_THROWS_WITH(parse_bytes("EMBEDLAB_MEMORY_LIMIT", "lots"),
                      "EMBEDLAB_MEMORY_LIMIT: expected a size such as 512MiB or 8GiB, got 'lots'");
  REQUIRE_THROWS_WITH(parse_bytes("x", "3 parsecs"),
                      "x: unknown size unit 'parsecs' in '3 parsecs' (expected B, KiB, MiB, GiB or TiB)");
}

TEST_CASE("plan checks a buffer before it is allocated", "[memory]") {
  WasmLimits wasm;

  SECTION("a buffer under the limit returns its element count") {
    CHECK(plan("lookup", "output", {32, 256, 768}, kFloat32) == 32u * 256u * 768u);
    CHECK(plan("lookup", "output", {0, 768}, kFloat32) == 0);
  }

  SECTION("the issue's example names the shape, the bytes and the limit") {
    REQUIRE_THROWS_WITH(plan("next-token", "attention scores", {256, 4096, 4096}, kFloat32),
                        "next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; "
                        "the limit here is 2.0 GiB");
  }

  SECTION("a size that wraps 32 bits is refused, not wrapped") {
    // 1 x 2^26 rows of 64 ids: 2^32 floats, which is 0 in a 32-bit size_t
    REQUIRE_THROWS_WITH(plan("lookup", "output", {64, 1ll << 26}, kFloat32),
                        "lookup: output 64 x 67108864 float32 need 16.0 GiB; the limit here is 2.0 GiB");
  }

  SECTION("a product past 64 bits is refused") {
    REQUIRE_THROWS_WITH(plan("x", "t", {1ll << 40, 1ll << 40}, kFloat32),
                        "x: t 1099511627776 x 1099511627776 float32 need more than 16 EiB; the limit here is 2.0 GiB");
  }

  SECTION("a negative size is refused") {
    REQUIRE_THROWS_WITH(plan("x", "t", {-1, 4}, kFloat32), "x: t -1 x 4 float32: a negative size");
  }

  SECTION("each buffer of a plan is checked alone") {
    MemoryPlan p("next-token");
    p.add("token table", {1 << 20, 256}, kFloat32);  // 1 GiB
    p.add("head table", {1 << 20, 256}, kFloat32);   // 1 GiB
    // 4 GiB: one buffer over the single-buffer limit fails at once
    REQUIRE_THROWS_WITH(p.add("optimizer state", {2, 1 << 20, 512}, kFloat32),
                        "next-token: optimizer state 2 x 1048576 x 512 float32 need 4.0 GiB; the limit here is 2.0 GiB");
  }
}

TEST_CASE("a plan's total is checked against the total limit", "[memory]") {
  WasmLimits wasm(3ull << 30, 2ull << 30);
  MemoryPlan p("next-token");
  p.add("token table", {1 << 20, 256}, kFloat32);  // 1 GiB
  p.add("head table", {1 << 20, 256}, kFloat32);   // 1 GiB
  CHECK_NOTHROW(p.check());
  p.add("Adam m and v", {2, 1 << 20, 200}, kFloat32);  // 1.6 GiB
  REQUIRE_THROWS_WITH(p.check(), "next-token: its buffers need 3.6 GiB together (largest: Adam m and v 2 x "
                                 "1048576 x 200 float32, 1.6 GiB); the limit here is 3.0 GiB");
}

TEST_CASE("read_file reads whole files with a size limit", "[memory][file]") {
  const std::string path = "embedlab_test_read_file.txt";
  {
    std::ofstream f(path, std::ios::binary);
    f << "hello\n" << std::string(100000, 'x');
  }
  SECTION("a regular file is read exactly") {
    const std::string s = read_file("tokenize", path);
    CHECK(s.size() == 100006);
    CHECK(s.substr(0, 6) == "hello\n");
  }
  SECTION("a missing file, a directory and an endless stream fail naming the path") {
    REQUIRE_THROWS_WITH(read_file("tokenize", "no/such.txt"),
                        "tokenize: cannot open 'no/such.txt': No such file or directory");
    REQUIRE_THROWS_WITH(read_file("tokenize", "."), "tokenize: '.' is a directory, expected a file");
    WasmLimits small(1 << 20, 1 << 20);  // the planner stops /dev/zero at 1 MiB
    REQUIRE_THROWS_WITH(read_file("tokenize", "/dev/zero"),
                        Catch::Matches("tokenize: file '/dev/zero' [0-9]+ bytes need 1\\.[0-9] MiB; the limit here is 1\\.0 MiB"));
  }
  SECTION("an empty stream is an empty text") {
    CHECK(read_file("tokenize", "/dev/null").empty());
  }
  std::remove(path.c_str());
}
