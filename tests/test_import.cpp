// Importing and exporting tables (io/formats.hpp) against files written by real writers:
// np.save, gensim 4.2's save_word2vec_format and a safetensors writer that follows the published
// format (tests/reference/tables/, made by scripts/gen-table-fixtures.py).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "io/formats.hpp"
#include "io/projector_tsv.hpp"
#include "io/safetensors.hpp"
#include "io/text_rows.hpp"
#include "io/vocab.hpp"
#include "limits.hpp"
#include "reference.hpp"

using namespace embedlab;

namespace {

std::string fixture(const std::string& name) { return testing::read_text("tests/reference/tables/" + name); }

const nlohmann::json& values() {
  static const nlohmann::json v = nlohmann::json::parse(fixture("values.json"));
  return v;
}

// The float32 values of a values.json table (float64 numbers that are float32 values exactly).
std::vector<float> floats(const std::string& key) {
  std::vector<float> out;
  for (const double d : testing::flatten(values()[key])) out.push_back(static_cast<float>(d));
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * 4) == 0);
}

const std::vector<std::string> kWords{"the", "cat", "café", "sat", "<unk>"};

}  // namespace

TEST_CASE("import_table reads every format to the values numpy and gensim hold", "[import]") {
  const std::vector<float> w = floats("f32");

  SECTION("npy float32, float64, float16 and Fortran order") {
    for (const char* name : {"w_f32.npy", "w_f64.npy", "w_fortran.npy"}) {
      const ImportedTable t = import_table(fixture(name));
      CHECK(t.format == "npy");
      CHECK(t.rows == 5);
      CHECK(t.cols == 4);
      CHECK(same_bits(t.data, w));
    }
    const ImportedTable h = import_table(fixture("w_f16.npy"));
    CHECK(same_bits(h.data, floats("f16")));
  }

  SECTION("safetensors: the named tensor, in F32, F16, BF16 and F64") {
    const std::string b = fixture("model.safetensors");
    const ImportedTable t = import_table(b, "", "wte.weight");
    CHECK(t.format == "safetensors");
    CHECK(t.tensor == "wte.weight");
    CHECK(same_bits(t.data, w));
    const std::vector<float> w16 = floats("f16");
    CHECK(same_bits(import_table(b, "safetensors", "half").data, w16));
    CHECK(same_bits(import_table(b, "", "brain").data, floats("bf16")));
    const ImportedTable d = import_table(b, "", "double");
    CHECK(d.rows == 2);
    CHECK(same_bits(d.data, std::vector<float>(w.begin(), w.begin() + 8)));
    const ImportedTable bias = import_table(b, "", "bias");
    CHECK(bias.rows == 4);
    CHECK(bias.cols == 1);
    CHECK(same_bits(import_table(fixture("one.safetensors")).data, w));
  }

  SECTION("word2vec text and binary as gensim writes them, GloVe, vectors.tsv") {
    for (const char* name : {"w2v.txt", "w2v.bin", "glove.txt"}) {
      const ImportedTable t = import_table(fixture(name));
      CHECK(t.rows == 5);
      CHECK(t.cols == 4);
      CHECK(t.labels == kWords);
      CHECK(same_bits(t.data, w));
    }
    CHECK(import_table(fixture("w2v.txt")).format == "word2vec-text");
    CHECK(import_table(fixture("w2v.bin")).format == "word2vec-binary");
    CHECK(import_table(fixture("glove.txt")).format == "glove");
    const ImportedTable v = import_table(fixture("vectors.tsv"));
    CHECK(v.format == "tsv");
    CHECK(v.labels.empty());
    CHECK(same_bits(v.data, w));
  }

  SECTION("a vectors.tsv with a header line skips it") {
    const ImportedTable t = import_table("x\ty\n1\t2\n3\t4\n");
    CHECK(t.rows == 2);
    CHECK(t.data == std::vector<float>{1, 2, 3, 4});
  }

  SECTION("a GloVe word may hold spaces: the last D fields are the numbers") {
    const ImportedTable t = import_table("a 1 2\n. . . 3 4\n", "glove");
    CHECK(t.labels == std::vector<std::string>{"a", ". . ."});
    CHECK(t.data == std::vector<float>{1, 2, 3, 4});
  }

  SECTION("word2vec binary with a '\\n' after each vector, as the C tool writes it") {
    std::string b = "2 1\n";
    const float x = 1.5f, y = -2;
    b += "a ";
    b.append(reinterpret_cast<const char*>(&x), 4);
    b += "\nb ";
    b.append(reinterpret_cast<const char*>(&y), 4);
    b += "\n";
    const ImportedTable t = import_table(b);
    CHECK(t.format == "word2vec-binary");
    CHECK(t.labels == std::vector<std::string>{"a", "b"});
    CHECK(t.data == std::vector<float>{1.5f, -2});
  }
}

TEST_CASE("list_tensors and the safetensors header", "[import]") {
  const std::string b = fixture("model.safetensors");

  SECTION("every tensor with its dtype, shape and absolute byte range") {
    const std::vector<TensorInfo> all = list_tensors(b);
    REQUIRE(all.size() == 8);
    CHECK(all[0].name == "wte.weight");
    CHECK(all[0].dtype == "F32");
    CHECK(all[0].shape == std::vector<int64_t>{5, 4});
    const uint64_t start = safetensors_header_size(b);
    CHECK(start % 8 == 0);
    CHECK(all[0].begin == start);
    CHECK(all[0].end == start + 80);
    CHECK(all[2].dtype == "F16");
    CHECK(all[6].shape == std::vector<int64_t>{2, 2, 2});
    CHECK(safetensors_metadata(b) == std::vector<std::pair<std::string, std::string>>{{"format", "pt"}, {"source", "gen-table-fixtures.py"}});
  }

  SECTION("the header alone is enough, and a short head says how many bytes it needs") {
    const uint64_t n = safetensors_header_size(b.substr(0, 8));
    CHECK(safetensors_header(b.substr(0, n)).size() == 8);
    REQUIRE_THROWS_WITH(safetensors_header(b.substr(0, 20)),
                        "read safetensors: the header needs " + std::to_string(n) + " bytes (8 + its length " +
                            std::to_string(n - 8) + "), got 20");
  }

  SECTION("decode_tensor reads only the bytes it is given") {
    const std::vector<TensorInfo> all = list_tensors(b);
    const TensorInfo& t = all[3];
    const ImportedTable d = decode_tensor(b.substr(t.begin, t.end - t.begin), t.dtype, t.shape);
    CHECK(same_bits(d.data, floats("bf16")));
    const std::string bf{"\x80\x3f\x00\xc0", 4};
    CHECK(decode_tensor(bf, "BF16", {2}).data == std::vector<float>{1.0f, -2.0f});
  }

  SECTION("npy and text files list one entry") {
    const std::vector<TensorInfo> n = list_tensors(fixture("w_f16.npy"));
    REQUIRE(n.size() == 1);
    CHECK(n[0].dtype == "F16");
    CHECK(n[0].shape == std::vector<int64_t>{5, 4});
    CHECK(list_tensors(fixture("w_i32.npy"))[0].dtype == "'<i4'");
    const std::vector<TensorInfo> w = list_tensors(fixture("w2v.txt"));
    CHECK(w[0].dtype == "text");
    CHECK(w[0].shape == std::vector<int64_t>{5, 4});
  }
}

TEST_CASE("Exports read back bit-exactly", "[import]") {
  ImportedTable t = import_table(fixture("w2v.bin"));

  SECTION("word2vec text is byte for byte what gensim writes (numpy's float32 repr)") {
    CHECK(export_table(t, "word2vec-text") == fixture("w2v.txt"));
    CHECK(export_table(t, "word2vec-binary") == fixture("w2v.bin"));
    CHECK(export_table(t, "npy") == fixture("w_f32.npy"));
    CHECK(float_repr(0.1f) == "0.1");
    CHECK(float_repr(1e-5f) == "1e-05");
    CHECK(float_repr(1.0f) == "1.0");
    CHECK(float_repr(-0.0f) == "-0.0");
    CHECK(float_repr(123456790.0f) == "123456790.0");
    CHECK(float_repr(1e16f) == "1e+16");
    CHECK(float_repr(3e-45f) == "3e-45");
    // subtle: numpy compares |v| with 1e-4 in double, and float32 1e-4 is just below it
    CHECK(float_repr(1e-4f) == "1e-04");
    CHECK(float_repr(1.00000005e-4f) == "0.000100000005");
    CHECK(float_repr(9.999999e15f) == "9999999000000000.0");
    CHECK(float_repr(1.4e-45f) == "1e-45");
  }

  SECTION("every format pair that holds the data round-trips") {
    // awkward values: subnormals, the extremes, many digits
    t.data[0] = 1.17549435e-38f;
    t.data[1] = 1.4e-45f;
    t.data[2] = -3.40282347e+38f;
    t.data[3] = 0.333333343f;
    for (const std::string& out : export_formats()) {
      const ImportedTable back = import_table(export_table(t, out));
      CHECK(back.rows == t.rows);
      CHECK(back.cols == t.cols);
      CHECK(same_bits(back.data, t.data));
      if (out.rfind("word2vec", 0) == 0) CHECK(back.labels == t.labels);
    }
  }

  SECTION("without labels word2vec words are row numbers; a label with a space is refused") {
    t.labels.clear();
    CHECK(import_table(export_table(t, "word2vec-text")).labels == std::vector<std::string>{"0", "1", "2", "3", "4"});
    t.labels = {"a", "b", "two words", "c", "d"};
    REQUIRE_THROWS_WITH(export_table(t, "word2vec-binary"),
                        "export word2vec-binary: label 'two words' of row 2 holds a space, tab or line break, which a word2vec word cannot");
    REQUIRE_THROWS_WITH(export_table(t, "csv"), "export: unknown format 'csv', expected npy, tsv, word2vec-text, word2vec-binary");
  }
}

TEST_CASE("Metadata and vocabulary files label the rows", "[import]") {
  ImportedTable t = import_table(fixture("w_f32.npy"));

  SECTION("a single column has no header") {
    attach_metadata(t, fixture("metadata.tsv"));
    CHECK(t.labels == kWords);
    CHECK(t.metadata_header.empty());
    CHECK(metadata_tsv(t) == fixture("metadata.tsv"));
  }

  SECTION("several columns: a header, labels from the 'word' column, every column kept") {
    attach_metadata(t, fixture("metadata_columns.tsv"));
    CHECK(t.labels == kWords);
    CHECK(t.metadata_header == std::vector<std::string>{"count", "word"});
    CHECK(t.metadata[2] == std::vector<std::string>{"30", "café"});
    CHECK(metadata_tsv(t) == fixture("metadata_columns.tsv"));
  }

  SECTION("a vocabulary file, one token a line") {
    attach_vocab(t, "a\r\nb\n\nd\ne");
    CHECK(t.labels == std::vector<std::string>{"a", "b", "", "d", "e"});
  }

  SECTION("the wrong number of rows or a ragged row is refused, and the table keeps its labels") {
    attach_metadata(t, fixture("metadata.tsv"));
    REQUIRE_THROWS_WITH(attach_metadata(t, "a\nb\n"), "read metadata: 2 rows for a table of 5 rows");
    REQUIRE_THROWS_WITH(attach_metadata(t, "w\tc\na\t1\nb\n\tc\td\ne\t1\nf\t2\n"),
                        "read metadata: line 3: expected 2 columns (as the header), got 1");
    REQUIRE_THROWS_WITH(attach_vocab(t, "a\n"), "read vocab: 1 rows for a table of 5 rows");
    CHECK(t.labels == kWords);
  }
}

TEST_CASE("Malformed and unsupported files fail naming the line or byte and what was expected", "[import]") {
  SECTION("npy: another dtype, a truncated file") {
    REQUIRE_THROWS_WITH(import_table(fixture("w_i32.npy")), "read npy: dtype '<i4' is not supported (expected '<f4', '<f8' or '<f2')");
    const std::string b = fixture("w_f32.npy");
    REQUIRE_THROWS_WITH(import_table(b.substr(0, b.size() - 3)), "read npy: the data has 77 bytes, expected 5 x 4 x 4 = 80: the file is cut short");
  }

  SECTION("safetensors: truncated data, a bad header, a tensor that is not there, a 3-D or integer tensor") {
    const std::string b = fixture("model.safetensors");
    const std::string one = fixture("one.safetensors");
    REQUIRE_THROWS_WITH(import_table(one.substr(0, one.size() - 1)),
                        "read safetensors: tensor 'embeddings': its data [80, 160) runs past the end of the file (159 bytes): "
                        "the file is cut short");
    std::string bad = one;
    bad[8 + std::string(R"({"embeddings")").size()] = '#';
    REQUIRE_THROWS_WITH(import_table(bad), "read safetensors: byte 21: expected ':' after a key, got '#'");
    REQUIRE_THROWS_WITH(import_table(b, "", "nope"),
                        "read safetensors: no tensor 'nope'; the file has: wte.weight F32 [5, 4], wpe.weight F32 [3, 4], "
                        "half F16 [5, 4], brain BF16 [5, 4], double F64 [2, 4], bias F32 [4], cube F32 [2, 2, 2], ints I32 [2, 2]");
    REQUIRE_THROWS_WITH(import_table(b), Catch::Matchers::StartsWith("read safetensors: 6 of its 8 tensors are 2-D; name the one to read (wte.weight"));
    REQUIRE_THROWS_WITH(import_table(b, "", "cube"), "read safetensors: tensor 'cube': shape [2, 2, 2] has 3 dimensions; a table is 1-D or 2-D");
    REQUIRE_THROWS_WITH(import_table(b, "", "ints"), "read safetensors: tensor 'ints': dtype I32 is not supported (expected F32, F16, BF16 or F64)");
    std::string huge("\xff\xff\xff\xff\xff\xff\xff\x7f{", 9);
    REQUIRE_THROWS_WITH(safetensors_header_size(huge),
                        "read safetensors: byte 0: the header length 9223372036854775807 is over the format's limit of 100000000 bytes");
  }

  SECTION("a header claiming a huge shape is refused before anything is allocated") {
    testing::WasmLimits wasm;
    std::string json = R"({"t":{"dtype":"F32","shape":[4000000000,4000000000],"data_offsets":[0,64000000000000000000]}})";
    std::string st(8, '\0');
    st[0] = static_cast<char>(json.size());
    REQUIRE_THROWS_WITH(import_table(st + json), "read safetensors: byte 78: expected an integer below 2^64, got '6'");
    json = R"({"t":{"dtype":"F32","shape":[100000,100000],"data_offsets":[0,40000000000]}})";
    st[0] = static_cast<char>(json.size());
    REQUIRE_THROWS_WITH(import_table(st + json),
                        "read safetensors: tensor 't': its data [84, 40000000084) runs past the end of the file (84 bytes): "
                        "the file is cut short");
    REQUIRE_THROWS_WITH(import_table("1000000000 1000\nx 1\n"),
                        "read word2vec: line 1: the header claims 1000000000 vectors of 1000 numbers, more than the 4 bytes after it can hold");
  }

  SECTION("word2vec: a short row, a count that does not match, a bad number, a truncated binary") {
    REQUIRE_THROWS_WITH(import_table("2 3\na 1 2 3\nb 1 2\n", "word2vec-text"),
                        "read word2vec: line 3: expected 3 numbers after the word, got 2");
    REQUIRE_THROWS_WITH(import_table("3 2\na 1 2\nb 3 4\n"),
                        "read word2vec: the header promises 3 vectors, the file ends after 2");
    REQUIRE_THROWS_WITH(import_table("1 2\na 1 2\nb 3 4\n"), "read word2vec: line 3: the header promises 1 vectors, found more");
    REQUIRE_THROWS_WITH(import_table("1 2\na 1 x\n", "word2vec-text"), "read word2vec: line 2: value 2: expected a number, got 'x'");
    const std::string b = fixture("w2v.bin");
    REQUIRE_THROWS_WITH(import_table(b.substr(0, b.size() - 2)),
                        "read word2vec: byte 92: vector 5 ('<unk>'): expected 16 bytes of float32, the file has 14");
  }

  SECTION("tsv and GloVe: a ragged row") {
    REQUIRE_THROWS_WITH(import_table("1\t2\t3\n4\t5\n"), "read tsv: line 2: expected 3 values (as line 1), got 2");
    REQUIRE_THROWS_WITH(import_table("a 1 2\nb 3\n"), "read glove: line 2: expected 2 numbers after the word, got 1");
  }

  SECTION("an unknown format, a tensor name on a text file, bytes that are no table") {
    REQUIRE_THROWS_WITH(import_table("1\t2\n", "csv"),
                        "import: unknown format 'csv', expected npy, safetensors, tsv, word2vec-text, word2vec-binary, glove, savetxt");
    REQUIRE_THROWS_WITH(import_table("1\t2\n", "", "x"), "import: a tensor name ('x') only applies to safetensors files, this is tsv");
    REQUIRE_THROWS_WITH(import_table("the cat sat\n"), Catch::Matchers::StartsWith("import: cannot tell the format"));
  }

  SECTION("tables over the memory limit are refused by the planner") {
    const std::string text = fixture("w2v.txt");
    testing::WasmLimits tiny(64, 64);
    REQUIRE_THROWS_WITH(import_table(text),
                        "read word2vec: table 5 x 4 float32 need 80 B; the limit here is 64 B");
  }
}

// A safetensors file in memory: 8-byte little-endian header length, the JSON header, the data.
static std::string safetensors_file(const std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>>& tensors) {
  std::string header = "{", data;
  for (const auto& [name, shape] : tensors) {
    const size_t begin = data.size();
    data.append(static_cast<size_t>(shape.first * shape.second) * 2, '\0');  // F16 zeros
    if (header.size() > 1) header += ",";
    header += "\"" + name + "\":{\"dtype\":\"F16\",\"shape\":[" + std::to_string(shape.first) + "," +
              std::to_string(shape.second) + "],\"data_offsets\":[" + std::to_string(begin) + "," +
              std::to_string(data.size()) + "]}";
  }
  header += "}";
  std::string out(8, '\0');
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  return out + header + data;
}

TEST_CASE("GPT-2 checkpoints are recognised by tensor name and shape", "[import][gpt2]") {
  const std::string file = safetensors_file({{"transformer.wte.weight", {50257, 2}}, {"transformer.wpe.weight", {1024, 2}},
                                             {"h.0.attn.c_attn.weight", {2, 6}}});
  SECTION("wte: the token table comes labelled with the GPT-2 token strings (tiktoken's gpt2 ids)") {
    const ImportedTable t = import_table(file, "", "transformer.wte.weight");
    CHECK(t.recognised == "gpt2 token table");
    REQUIRE(t.labels.size() == 50257);
    CHECK(t.labels[15496] == "Hello");
    CHECK(t.labels[995] == " world");
    CHECK(t.labels[50256] == "<|endoftext|>");
  }
  SECTION("wpe: the learned positions, labelled by position") {
    const ImportedTable t = import_table(file, "", "transformer.wpe.weight");
    CHECK(t.recognised == "gpt2 position table");
    CHECK(t.labels[1023] == "position 1023");
  }
  SECTION("other tensors are left alone") {
    const ImportedTable t = import_table(file, "", "h.0.attn.c_attn.weight");
    CHECK(t.recognised.empty());
    CHECK(t.labels.empty());
  }
}
