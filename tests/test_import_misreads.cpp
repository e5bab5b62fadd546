// Files read as the wrong format, misleading messages, empty tables, and text tables that cost far
// more memory than their size (io/formats.hpp, io/table_files.hpp; issue 22). Each case is
// a file someone may have: a checkpoint cut short, a word2vec file saved with a BOM, numpy's
// savetxt output, random bytes named .npy; each must be read as what it is or refused with the
// format's own message (what was expected, what was found). Tables are planned from the file's
// size: the memory limits below are a small multiple of it, so a reader that plans more fails.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "io/formats.hpp"
#include "io/projector_tsv.hpp"
#include "io/safetensors.hpp"
#include "io/table_files.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

std::string fixture(const std::string& name) { return testing::read_text("tests/reference/tables/" + name); }

// A file named `name` in a fresh temporary folder holding bytes; removed with the object.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const std::string& bytes) {
    const auto dir = std::filesystem::temp_directory_path() / "embedlab-test-misreads";
    std::filesystem::create_directories(dir);
    path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

std::string le64(uint64_t n) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  return out;
}

// A safetensors file from its JSON header and data, the length written as given (or the true one).
std::string safetensors(const std::string& json, const std::string& data, uint64_t length = UINT64_MAX) {
  return le64(length == UINT64_MAX ? json.size() : length) + json + data;
}

// {"name": F32 shape [n], data_offsets [b, e]} entries
std::string entries(const std::vector<std::pair<std::string, std::pair<int, int>>>& ts) {
  std::string json = "{";
  for (const auto& [name, r] : ts) {
    if (json.size() > 1) json += ",";
    json += "\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string((r.second - r.first) / 4) +
            "],\"data_offsets\":[" + std::to_string(r.first) + "," + std::to_string(r.second) + "]}";
  }
  return json + "}";
}

}  // namespace

TEST_CASE("A file's name picks its format: read as that format or refused with its message", "[import][misreads]") {
  SECTION("a .safetensors whose header length is absurd is refused as safetensors, not read as TSV") {
    const TempFile f("absurd.safetensors", safetensors(entries({{"a", {0, 4}}}), std::string(4, '\0'), 1ull << 40));
    REQUIRE_THROWS_WITH(read_table("--table", f.path),
                        "--table " + f.path + ": read safetensors: byte 0: the header length 1099511627776 is over the "
                        "format's limit of 100000000 bytes");
    REQUIRE_THROWS_WITH(read_tensor_list("--table", f.path), Catch::Matchers::Contains("read safetensors: byte 0"));
  }

  SECTION("a .safetensors whose header is shorter than its length claims says it is cut short") {
    const std::string json = entries({{"a", {0, 4}}});
    const TempFile f("short.safetensors", safetensors(json, std::string(4, '\0'), json.size() + 100));
    REQUIRE_THROWS_WITH(read_table("--table", f.path),
                        "--table " + f.path + ": read safetensors: the header needs " + std::to_string(json.size() + 108) +
                            " bytes (8 + its length " + std::to_string(json.size() + 100) + "), the file has " +
                            std::to_string(json.size() + 12) + ": it is cut short");
    TableFileInfo info;
    REQUIRE_THROWS_WITH(read_tensor_list("--table", f.path, &info), Catch::Matchers::Contains(": it is cut short"));
  }

  SECTION("random bytes named .npy get the npy message, with the bytes found") {
    const TempFile f("random.npy", std::string("\x01\x02\t\x03\n\x04\t\x05\t\x06\n", 11));
    REQUIRE_THROWS_WITH(read_table("--table", f.path),
                        "--table " + f.path + ": read npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got "
                        "'\\x01\\x02\\x09\\x03\\x0A\\x04'");
  }

  SECTION("a .bin holds word2vec, text or binary as its bytes say; a .tsv is read as vectors.tsv") {
    const TempFile text("w.bin", "2 3\na 1 2 3\nb 4 5 6\n");
    CHECK(read_table("--table", text.path).format == "word2vec-text");
    const TempFile glove("g.bin", "a 1 2 3\nb 4 5 6\n");
    REQUIRE_THROWS_WITH(read_table("--table", glove.path),
                        Catch::Matchers::EndsWith("read word2vec: line 1: expected the header 'N D' (the number of vectors "
                                                  "and their size), got 'a 1 2 3'"));
    const TempFile tsv("v.TSV", "a 1 2\nb 3 4\n");  // GloVe bytes, named as vectors.tsv (a header line, then rows)
    REQUIRE_THROWS_WITH(read_table("--table", tsv.path), Catch::Matchers::EndsWith("read tsv: line 2: value 1: expected a number, got 'b 3 4'"));
  }
}

TEST_CASE("A table with no rows or no columns is refused by every reader", "[import][misreads]") {
  SECTION("npy, safetensors tensors, text formats") {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    const std::string npy = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
    REQUIRE_THROWS_WITH(import_table(npy),
                        "read npy: the table is 0 x 4: it has no rows; a table needs at least one row and one column");
    REQUIRE_THROWS_WITH(decode_tensor("", "F32", {3, 0}),
                        "read safetensors: the table is 3 x 0: its rows have no values; a table needs at least one row and one column");
    REQUIRE_THROWS_WITH(import_table(safetensors(R"({"e":{"dtype":"F32","shape":[0,768],"data_offsets":[0,0]}})", "")),
                        "read safetensors: tensor 'e': the table is 0 x 768: it has no rows; a table needs at least one row and one column");
    REQUIRE_THROWS_WITH(import_table("\n\n", "tsv"), "read tsv: the table is 0 x 0: it has no rows; a table needs at least one row and one column");
    REQUIRE_THROWS_WITH(import_table("0 3\n"), "read word2vec: the table is 0 x 3: it has no rows; a table needs at least one row and one column");
    REQUIRE_THROWS_WITH(import_table("  \n", "glove"), Catch::Matchers::StartsWith("read glove: the table is 0 x 0: it has no rows"));
  }

  SECTION("a safetensors file with an absurd header length, unnamed, is no table either") {
    const std::string st = safetensors(entries({{"a", {0, 4}}}), std::string(4, '\0'), 1ull << 40);
    REQUIRE_THROWS_WITH(import_table(st), Catch::Matchers::StartsWith("import: cannot tell the format"));
    REQUIRE_THROWS_WITH(import_table(st), Catch::Matchers::Contains("byte 0 is 0x00, which no text table holds"));
  }
}

TEST_CASE("Messages say what was expected and what was found, and that a file is cut short", "[import][misreads]") {
  SECTION("safetensors: a tensor's bytes short of its shape, a file cut inside the data") {
    REQUIRE_THROWS_WITH(decode_tensor(std::string(40, '\0'), "F32", {5, 4}),
                        "read safetensors: shape [5, 4] F32 needs 5 x 4 x 4 = 80 bytes, got 40: the file is cut short");
    REQUIRE_THROWS_WITH(decode_tensor(std::string(84, '\0'), "F32", {5, 4}),
                        "read safetensors: shape [5, 4] F32 needs 5 x 4 x 4 = 80 bytes, got 84, more than the shape holds");
    const std::string one = fixture("one.safetensors");
    REQUIRE_THROWS_WITH(import_table(one.substr(0, one.size() - 1)),
                        "read safetensors: tensor 'embeddings': its data [80, 160) runs past the end of the file "
                        "(159 bytes): the file is cut short");
  }

  SECTION("npy: a file cut in its header or its data") {
    const std::string b = fixture("w_f32.npy");
    REQUIRE_THROWS_WITH(import_table(b.substr(0, 50)), "read npy: the header needs 128 bytes (10 + its length 118), the file has 50: it is cut short");
    REQUIRE_THROWS_WITH(import_table(b.substr(0, b.size() - 3)), "read npy: the data has 77 bytes, expected 5 x 4 x 4 = 80: the file is cut short");
    REQUIRE_THROWS_WITH(import_table(b + "xyz"), "read npy: the data has 83 bytes, expected 5 x 4 x 4 = 80: 3 bytes more than the shape (5, 4) holds");
  }

  SECTION("bytes with control characters are no text table, whatever their first line") {
    REQUIRE_THROWS_WITH(import_table(std::string("\x01\x02\t\x03\n\x04\t\x05\t\x06\n", 11)),
                        Catch::Matchers::StartsWith("import: cannot tell the format: not .npy (no \\x93NUMPY magic), not "
                                                    "safetensors (no header length and '{'), not word2vec (line 1 is not 'N D'), "
                                                    "and byte 0 is 0x01, which no text table holds"));
  }

  SECTION("a safetensors name list is cut at 20 tensors") {
    std::vector<std::pair<std::string, std::pair<int, int>>> ts;
    for (int i = 0; i < 30; ++i) ts.push_back({std::string("t").append(std::to_string(i)), {4 * i, 4 * i + 4}});
    REQUIRE_THROWS_WITH(import_table(safetensors(entries(ts), std::string(120, '\0')), "", "nope"),
                        Catch::Matchers::EndsWith("t18 F32 [1], t19 F32 [1] and 10 more"));
  }
}

TEST_CASE("Text files are read as what they are", "[import][misreads]") {
  SECTION("a byte order mark before word2vec text, vectors.tsv, GloVe or metadata.tsv is skipped") {
    const std::string bom = "\xEF\xBB\xBF";
    const ImportedTable w = import_table(bom + "2 3\na 1 2 3\nb 4 5 6\n");
    CHECK(w.format == "word2vec-text");
    CHECK(w.rows == 2);
    CHECK(w.cols == 3);
    CHECK(w.labels == std::vector<std::string>{"a", "b"});
    // a first row with a typo is no header: it is refused, not dropped
    REQUIRE_THROWS_WITH(import_table("1.5\t2,5\n3\t4\n"), "read tsv: line 1: value 2: expected a number, got '2,5'");
    const ImportedTable v = import_table(bom + "1\t2\n3\t4\n");
    CHECK(v.format == "tsv");
    CHECK(v.data == std::vector<float>{1, 2, 3, 4});
    CHECK(import_table(bom + "a 1 2\nb 3 4\n").labels == std::vector<std::string>{"a", "b"});
    ImportedTable t = v;
    attach_metadata(t, bom + "count\tword\n1\tx\n2\ty\n");
    CHECK(t.metadata_header == std::vector<std::string>{"count", "word"});
    CHECK(t.labels == std::vector<std::string>{"x", "y"});
    CHECK(parse_labels(bom + "king\nqueen\n") == std::vector<std::string>{"king", "queen"});  // neighbours --vocab
    std::string bin = bom + "1 1\nz ";
    const float x = 0.5f;
    bin.append(reinterpret_cast<const char*>(&x), 4);
    CHECK(import_table(bin).data == std::vector<float>{0.5f});
  }

  SECTION("word2vec text is not taken for binary: a tab after the word, a short line 2") {
    const ImportedTable t = import_table("2 3\nword\t1 2 3\nb 4 5 6\n");
    CHECK(t.format == "word2vec-text");
    CHECK(t.labels == std::vector<std::string>{"word", "b"});
    REQUIRE_THROWS_WITH(import_table("2 3\na 1 2\nb 4 5 6\n"), "read word2vec: line 2: expected 3 numbers after the word, got 2");
    // binary records still read as binary (the C tool's '\n' after each vector, a first value
    // whose low byte is '\n')
    std::string b = "2 1\na ";
    const float v1 = 9.18354962e-41f, v2 = 1.5f;  // v1's bytes: 0a 00 01 00 (line 2 is "a ")
    b.append(reinterpret_cast<const char*>(&v1), 4);
    b += "\nb ";
    b.append(reinterpret_cast<const char*>(&v2), 4);
    const ImportedTable bt = import_table(b);
    CHECK(bt.format == "word2vec-binary");
    CHECK(bt.data == std::vector<float>{v1, v2});
  }

  SECTION("numpy.savetxt output is a table of numbers, not GloVe") {
    const std::string text =
        "0.000000000000000000e+00 1.000000000000000000e+00\n2.000000000000000000e+00 3.000000000000000000e+00\n"
        "4.000000000000000000e+00 5.000000000000000000e+00\n";
    const ImportedTable t = import_table(text);
    CHECK(t.format == "savetxt");
    CHECK(t.rows == 3);
    CHECK(t.cols == 2);
    CHECK(t.labels.empty());
    CHECK(t.data == std::vector<float>{0, 1, 2, 3, 4, 5});
    CHECK(import_table("# x y\n1.5 2\n3 4\n").data == std::vector<float>{1.5f, 2, 3, 4});
    // fmt='%d' in two columns: a first line "N D" that is no word2vec header
    const ImportedTable ints = import_table("3 2\n1 4\n5 6\n");
    CHECK(ints.format == "savetxt");
    CHECK(ints.data == std::vector<float>{3, 2, 1, 4, 5, 6});
    REQUIRE_THROWS_WITH(import_table("1 2\n3 4 5\n", "savetxt"), "read savetxt: line 2: expected 2 values (as line 1), got 3");
    // ...while word2vec with number words and GloVe with a number first word stay what they are
    CHECK(import_table("2 1\n5 0.5\n7 0.25\n").labels == std::vector<std::string>{"5", "7"});
    CHECK(import_table("1 0.5 0.25\nthe 0.1 0.2\n").format == "glove");
  }
}

TEST_CASE("Safetensors headers: unique names, packed data ranges", "[import][misreads]") {
  SECTION("a name twice, a key twice") {
    const std::string json = R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})";
    REQUIRE_THROWS_WITH(import_table(safetensors(json, std::string(8, '\0'))),
                        "read safetensors: tensor 'a' appears twice in the header (bytes 13 and 66); each tensor needs its own name");
    REQUIRE_THROWS_WITH(import_table(safetensors(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}})", std::string(4, '\0'))),
                        "read safetensors: tensor 'a': key 'dtype' appears twice");
  }

  SECTION("overlapping ranges, a gap, data before the first tensor, bytes after the last") {
    REQUIRE_THROWS_WITH(import_table(safetensors(entries({{"a", {0, 8}}, {"b", {4, 12}}}), std::string(12, '\0'))),
                        "read safetensors: tensors 'a' [0, 8] and 'b' [4, 12] overlap (data_offsets); each byte of the data "
                        "belongs to one tensor");
    REQUIRE_THROWS_WITH(import_table(safetensors(entries({{"b", {8, 12}}, {"a", {0, 4}}}), std::string(12, '\0'))),
                        "read safetensors: bytes [4, 8) of the data belong to no tensor (after 'a' [0, 4], before 'b' [8, 12]); "
                        "the tensors' data_offsets must leave no gap");
    REQUIRE_THROWS_WITH(import_table(safetensors(entries({{"a", {4, 8}}}), std::string(8, '\0'))),
                        "read safetensors: bytes [0, 4) of the data belong to no tensor (before 'a' [4, 8]); the tensors' "
                        "data_offsets must leave no gap");
    const std::string json = entries({{"a", {0, 4}}});
    const uint64_t end = 8 + json.size() + 4;
    REQUIRE_THROWS_WITH(import_table(safetensors(json, std::string(8, '\0'))),
                        "read safetensors: the tensors' data ends at byte " + std::to_string(end) + ", the file has " +
                            std::to_string(end + 4) + " bytes: bytes [" + std::to_string(end) + ", " + std::to_string(end + 4) +
                            ") belong to no tensor");
    // the fixtures (a real writer's layout) pass
    CHECK(list_tensors(fixture("model.safetensors")).size() == 8);
  }
}

TEST_CASE("Text tables are planned from the file's size", "[import][misreads][memory]") {
  // a long first row, then short ones: the width of line 1 times the lines would be a 16 MB table
  // for an 8 KB file; it must fail on line 2 within a few times the file's size
  std::string tsv, glove;
  for (int i = 0; i < 2000; ++i) tsv += i ? "\t0" : "0";
  glove = "w " + std::string(tsv.size(), ' ');
  for (size_t i = 0; i < tsv.size(); i += 2) glove[2 + i] = '0';
  tsv += "\n";
  glove += "\n";
  for (int i = 0; i < 2000; ++i) tsv += "0\n", glove += "w\n";

  SECTION("an amplifying vectors.tsv or GloVe file fails on its line 2 under 16 x its size") {
    testing::WasmLimits limit(16 * tsv.size(), 16 * tsv.size());
    REQUIRE_THROWS_WITH(import_table(tsv), "read tsv: line 2: expected 2000 values (as line 1), got 1");
    REQUIRE_THROWS_WITH(import_table(glove), "read glove: line 2: expected 2000 numbers after the word, got 0");
  }

  SECTION("valid files of very many very short values fit in 16 x their size") {
    std::string wide, tall, w2v = "5000 1\n", numbers;
    for (int i = 0; i < 10000; ++i) wide += i ? "\t1" : "1";
    for (int i = 0; i < 5000; ++i) tall += "w 1\n", w2v += "w 1\n", numbers += "1 2\n";
    for (const std::string* f : {&wide, &tall, &w2v, &numbers}) {
      testing::WasmLimits limit(16 * f->size(), 16 * f->size());
      const ImportedTable t = import_table(*f);
      CHECK(t.rows * t.cols >= 5000);
    }
  }
}
