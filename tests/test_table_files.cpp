// io/npy.hpp and io/projector_tsv.hpp: the .npy and metadata.tsv readers read what the writers write, reject
// damaged files with messages, and check a file's size against the limits before allocating.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "analysis/neighbours.hpp"
#include "analysis/pca.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

TEST_CASE("table_file reads what table_io writes", "[project][table_file]") {
  SECTION("a float32 .npy round-trips") {
    const std::vector<float> t{1.5f, -2, 3.25f, 0, 1e-30f, 7};
    const NpyTable r = parse_npy(npy_bytes(t, 3, 2));
    CHECK(r.rows == 3);
    CHECK(r.cols == 2);
    CHECK(r.data == t);
  }

  SECTION("a float64 .npy is rounded to float32, a 1-D array is one column") {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes.push_back(static_cast<char>(header.size()));
    bytes.push_back(0);
    bytes += header;
    for (const double v : {0.1, -2.0, 1e300}) bytes.append(reinterpret_cast<const char*>(&v), 8);
    const NpyTable r = parse_npy(bytes);
    CHECK(r.rows == 3);
    CHECK(r.cols == 1);
    CHECK(r.data == std::vector<float>{0.1f, -2.0f, std::numeric_limits<float>::infinity()});
  }

  SECTION("unsupported arrays fail naming what was found") {
    std::string b = npy_bytes(std::vector<float>{1, 2}, 1, 2);
    std::string i8 = b;
    i8.replace(i8.find("<f4"), 3, "<i4");
    REQUIRE_THROWS_WITH(parse_npy(i8), "read_npy: dtype '<i4' is not supported (expected '<f4', '<f8' or '<f2')");
    std::string fortran = b;  // Fortran order is read, transposed (tests/test_import.cpp)
    fortran.replace(fortran.find("False"), 5, "True ");
    CHECK(parse_npy(fortran).data == std::vector<float>{1, 2});
    REQUIRE_THROWS_WITH(parse_npy(b.substr(0, b.size() - 1)), "read_npy: the data has 7 bytes, expected 1 x 2 x 4 = 8: the file is cut short");
    REQUIRE_THROWS_WITH(parse_npy("hello world"), "read_npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'hello '");
  }

  SECTION("files written by write_npy and write_projector_tsv read back") {
    const std::string dir = (std::filesystem::temp_directory_path() / "embedlab-test-project").string();
    const std::vector<float> t{1, 2, 3, 4, 5, 6};
    const std::vector<std::string> labels{"the", "a\tb", "back\\slash"};
    write_npy(dir + ".npy", t, 3, 2);
    write_projector_tsv(dir, t, 3, 2, labels);
    const NpyTable r = read_npy(dir + ".npy");
    CHECK(r.data == t);
    CHECK(read_labels(dir + "/metadata.tsv") == labels);
    std::filesystem::remove_all(dir);
    std::filesystem::remove(dir + ".npy");
    REQUIRE_THROWS_WITH(read_npy(dir + ".npy"), "read_npy: cannot open '" + dir + ".npy': No such file or directory");
  }

  SECTION("metadata labels unescape what tsv_escape wrote") {
    for (const std::string s : {"", "plain", "a\tb", "line\nbreak\r", "back\\slash\\t"}) {
      CHECK(tsv_unescape(tsv_escape(s)) == s);
    }
  }
}

namespace {
// A version 1.0 .npy header for descr '<f4' and the given shape text, then `body` bytes.
std::string npy_with_shape(const std::string& shape, size_t body) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  return out + header + std::string(body, '\0');
}
}  // namespace

TEST_CASE("Table files are checked against their size before anything is allocated", "[project][memory]") {
  testing::WasmLimits wasm;

  SECTION("a small file declaring a huge shape is refused without allocating it") {
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(1000000000, 1000000000)", 16)),
                        "read_npy: the data has 16 bytes, expected 1000000000 x 1000000000 x 4 = 4000000000000000000: "
                        "the file is cut short");
    // 2^62 x 4 x 4 bytes passes 64 bits
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(4611686018427387904, 4)", 0)),
                        "read_npy: the data has 0 bytes, expected 4611686018427387904 x 4 x 4, more than 2^64: the file is cut short");
    REQUIRE_THROWS_WITH(parse_npy(npy_with_shape("(-1, 4)", 0)),
                        "read_npy: the .npy shape (-1, 4) has a negative dimension");
    const NpyTable t = parse_npy(npy_with_shape("(2, 2)", 16));
    CHECK(t.data == std::vector<float>(4, 0.0f));
  }

  SECTION("a version 2 header length near 4 GiB does not wrap the bounds check") {
    std::string b("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14);
    REQUIRE_THROWS_WITH(parse_npy(b), "read_npy: the header needs 4294967307 bytes (12 + its length 4294967295), the file has 14: it is cut short");
  }

  SECTION("labels parse from bytes, one per line, and are planned") {
    CHECK(parse_labels("").empty());
    CHECK(parse_labels("a\nb\r\n") == std::vector<std::string>{"a", "b"});
    CHECK(parse_labels("x\\ty\n\nlast") == std::vector<std::string>{"x\ty", "", "last"});
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(parse_labels(std::string(100000, '\n')),
                        "read_labels: labels 100000 x " + std::to_string(sizeof(std::string)) + " bytes need " +
                            format_bytes(100000 * sizeof(std::string)) + "; the limit here is 1.0 MiB");
  }

  SECTION("read_npy and read_labels use the one file reader") {
    const std::string dir = std::filesystem::temp_directory_path().string();
    REQUIRE_THROWS_WITH(read_npy(dir), "read_npy: '" + dir + "' is a directory, expected a file");
    REQUIRE_THROWS_WITH(read_labels(dir), "read_labels: '" + dir + "' is a directory, expected a file");
  }

  SECTION("pca checks rows x dim in 64 bits and plans its matrices") {
    const std::vector<float> t(8, 1.0f);
    REQUIRE_THROWS_WITH(pca(t, int64_t{1} << 40, int64_t{1} << 40),
                        "pca: table has 8 values, expected 1099511627776 x 1099511627776");
    std::vector<float> square(400 * 400);
    for (size_t i = 0; i < square.size(); ++i) square[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    std::vector<float> wide(10 * 40000);
    for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    testing::WasmLimits tiny(1 << 20, 1 << 20);
    REQUIRE_THROWS_WITH(pca(square, 400, 400), "pca: covariance matrix 400 x 400 float64 need 1.2 MiB; the limit here is 1.0 MiB");
    REQUIRE_THROWS_WITH(pca(wide, 10, 40000), "pca: centred rows 10 x 40000 float64 need 3.1 MiB; the limit here is 1.0 MiB");
  }

  SECTION("neighbours check rows x dim in 64 bits and plan the scores of all rows") {
    const std::vector<float> t(8, 1.0f);
    REQUIRE_THROWS_WITH(NeighbourIndex(t, int64_t{1} << 40, int64_t{1} << 40),
                        "nearest: table has 8 values, expected 1099511627776 x 1099511627776");
    std::vector<float> col(100000);
    for (size_t i = 0; i < col.size(); ++i) col[i] = 1.0f + static_cast<float>(i);
    const NeighbourIndex idx(col, 100000, 1);
    testing::WasmLimits tiny(1 << 19, 1 << 19);
    REQUIRE_THROWS_WITH(idx.nearest(0, 3), "nearest: candidate scores 100000 x 8 bytes need 781.2 KiB; the limit here is 512.0 KiB");
    REQUIRE_THROWS_WITH(idx.analogy(std::vector<int32_t>{1}, {}, 3),
                        "nearest: candidate scores 100000 x 8 bytes need 781.2 KiB; the limit here is 512.0 KiB");
  }
}
