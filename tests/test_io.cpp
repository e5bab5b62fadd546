// The table writers' text and bytes (io/npy.hpp, io/projector_tsv.hpp): what the CLI writes to files and
// the page exports through the bindings.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/file.hpp"
#include "io/coordinates_csv.hpp"
#include "io/npy.hpp"
#include "io/projector_tsv.hpp"
#include "io/text_rows.hpp"
#include "limits.hpp"

using namespace embedlab;

TEST_CASE("The Projector writers give the text of vectors.tsv and metadata.tsv", "[io]") {
  SECTION("vectors.tsv has one row per line, values as %.9g so float32 round-trips") {
    const std::vector<float> t{0.5f, -1e-5f, 3, 1.0f / 3};
    CHECK(projector_vectors_tsv(t, 2, 2) == "0.5\t-9.99999975e-06\n3\t0.333333343\n");
    CHECK(projector_vectors_tsv({}, 0, 3) == "");
  }

  SECTION("metadata.tsv escapes tabs, newlines, carriage returns and backslashes; an empty label is an empty line") {
    const std::vector<std::string> labels{"the", "a\tb", "", "\r\n", "back\\slash"};
    const std::string text = projector_metadata_tsv(labels);
    CHECK(text == "the\na\\tb\n\n\\r\\n\nback\\\\slash\n");
    CHECK(parse_labels(text) == labels);
  }

  SECTION("a first label that starts with a byte order mark keeps it: the file gets a mark of its own, which the reader drops") {
    const std::vector<std::string> labels{"\xEF\xBB\xBFword", "b"};
    const std::string text = projector_metadata_tsv(labels);
    CHECK(text == "\xEF\xBB\xBF\xEF\xBB\xBFword\nb\n");
    CHECK(parse_labels(text) == labels);
    CHECK(parse_labels("\xEF\xBB\xBFword\nb\n") == std::vector<std::string>{"word", "b"});
  }

  SECTION("write_projector_tsv writes exactly that text") {
    const std::string dir = (std::filesystem::temp_directory_path() / "embedlab-test-io").string();
    const std::vector<float> t{1.5f, -2, 1e-30f, 7};
    for (const std::vector<std::string>& labels : {std::vector<std::string>{"x y", ""}, std::vector<std::string>{"\xEF\xBB\xBF", "z"}}) {
      write_projector_tsv(dir, t, 2, 2, labels);
      CHECK(read_file("test", dir + "/vectors.tsv") == projector_vectors_tsv(t, 2, 2));
      CHECK(read_file("test", dir + "/metadata.tsv") == projector_metadata_tsv(labels));
      CHECK(parse_labels(read_file("test", dir + "/metadata.tsv")) == labels);
    }
    std::filesystem::remove_all(dir);
  }

  SECTION("a table that is not rows x cols, or labels that do not match the rows, are refused") {
    const std::vector<float> t{1, 2, 3};
    REQUIRE_THROWS_WITH(projector_vectors_tsv(t, 2, 2), "projector_vectors_tsv: table of 3 values is not 2 x 2");
    REQUIRE_THROWS_WITH(projector_vectors_tsv(t, 3, 0), "projector_vectors_tsv: cols must be >= 1, got 0");
    REQUIRE_THROWS_WITH(write_projector_tsv("unused", t, 3, 1, {"a"}), "write_projector_tsv: got 1 labels for 3 rows");
  }

  SECTION("the text is planned before it is formed") {
    const std::vector<float> t(100, 1.0f);
    testing::WasmLimits tiny(1024, 1024);
    REQUIRE_THROWS_WITH(projector_vectors_tsv(t, 100, 1),
                        "projector_vectors_tsv: vectors.tsv text 100 x 1 x 16 bytes need 1.6 KiB; the limit here is 1.0 KiB");
    REQUIRE_THROWS_WITH(projector_metadata_tsv(std::vector<std::string>(600, "ab")),
                        "projector_metadata_tsv: metadata.tsv text 1800 bytes need 1.8 KiB; the limit here is 1.0 KiB");
  }
}

TEST_CASE("npy_bytes is the .npy file the CLI writes", "[io]") {
  SECTION("a version 1.0 header padded to a multiple of 64 bytes, then the little-endian float32 rows") {
    const std::vector<float> t{1, -2, 0.5f, 3, 4, 5};
    const std::string b = npy_bytes(t, 2, 3);
    REQUIRE(b.size() == 128 + 24);  // 10 + 60 header bytes + '\n', padded to 128
    CHECK(b.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    CHECK(b.compare(10, dict.size(), dict) == 0);
    CHECK(b[127] == '\n');
    const NpyTable r = parse_npy(b);
    CHECK(r.data == t);
  }
}

TEST_CASE("coordinates_csv writes row, label and coordinates as RFC 4180 CSV", "[io]") {
  SECTION("a worked example: labels quoted with quotes doubled, values as float_repr, CRLF line ends") {
    // 0.5f -> "0.5", -1e-5f -> "-1e-05" (numpy's repr of a float32), 1/3 -> "0.33333334"
    const std::vector<float> p{0.5f, -1e-5f, 1.0f / 3, 2};
    CHECK(coordinates_csv(p, 2, 2, {"say \"hi\", 1", "a\nb"}) ==
          "row,label,x,y\r\n0,\"say \"\"hi\"\", 1\",0.5,-1e-05\r\n1,\"a\nb\",0.33333334,2.0\r\n");
  }

  SECTION("three coordinates get a z column; no labels are empty quoted fields") {
    const std::vector<float> p{1, 2, 3};
    CHECK(coordinates_csv(p, 1, 3, {}) == "row,label,x,y,z\r\n0,\"\",1.0,2.0,3.0\r\n");
    CHECK(coordinates_csv({}, 0, 2, {}) == "row,label,x,y\r\n");
  }

  SECTION("every value reads back to the same float32") {
    const std::vector<float> p{1.17549435e-38f, 1.4e-45f, -3.40282347e+38f, 0.1f};
    const std::string csv = coordinates_csv(p, 2, 2, {"a", "b"});
    std::vector<float> back;
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string f;
      for (int i = 0; std::getline(fields, f, ','); ++i) {
        if (i >= 2) back.push_back(std::strtof(f.c_str(), nullptr));
      }
    }
    REQUIRE(back.size() == p.size());
    for (size_t i = 0; i < p.size(); ++i) CHECK(std::memcmp(&back[i], &p[i], 4) == 0);
  }

  SECTION("a wrong shape, k or label count is refused") {
    const std::vector<float> p{1, 2, 3, 4};
    REQUIRE_THROWS_WITH(coordinates_csv(p, 2, 4, {}), "coordinates_csv: k is 4, expected 2 or 3 coordinates a row");
    REQUIRE_THROWS_WITH(coordinates_csv(p, 3, 2, {}), "coordinates_csv: points hold 4 values, expected 3 x 2");
    REQUIRE_THROWS_WITH(coordinates_csv(p, 2, 2, {"a"}), "coordinates_csv: got 1 labels for 2 rows");
  }
}
