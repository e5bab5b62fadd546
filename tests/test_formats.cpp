// The format registry (io/formats.hpp): what every registered format must satisfy, so a format
// added with one line in io/format_list.inc is checked here without a test of its own for these:
// unique names and detection ranks, the import and export lists in registry order, its
// extensions naming it, and (for a format that writes) its own bytes read back bit for bit, by
// its extension and by detection alike.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "io/formats.hpp"

using namespace embedlab;

TEST_CASE("every registered format has a unique name and rank, and the lists follow the registry", "[import][formats]") {
  std::set<std::string> names;
  std::set<int> ranks;
  std::vector<std::string> readable, writable;
  for (const TableFormat* f : table_formats()) {
    INFO(f->name);
    CHECK(names.insert(f->name).second);
    CHECK(!f->label.empty());
    CHECK(f->read != nullptr);
    CHECK(f->detect != nullptr);
    CHECK(ranks.insert(f->detect_rank).second);
    CHECK(find_format(f->name) == f);
    if (f->read) readable.push_back(f->name);
    if (f->write) writable.push_back(f->name);
    // a writable format has the extension convert gives its files
    CHECK((f->write == nullptr || !f->out_extension.empty()));
  }
  CHECK(import_formats() == readable);
  CHECK(export_formats() == writable);
  CHECK(find_format("csv") == nullptr);
}

TEST_CASE("a format's extensions name it, in any case", "[import][formats]") {
  for (const TableFormat* f : table_formats()) {
    for (const std::string& e : f->extensions) {
      INFO(f->name << " ." << e);
      CHECK(format_for_name("dir.d/table." + e) == f->name);
      std::string upper = e;
      for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      CHECK(format_for_name("TABLE." + upper) == f->name);
    }
  }
  CHECK(format_for_name("vectors.txt").empty());
  CHECK(format_for_name("dir.npy/table").empty());
}

TEST_CASE("every format that writes reads its own bytes back, by extension and by detection", "[import][formats]") {
  ImportedTable t;
  t.rows = 3;
  t.cols = 2;
  t.data = {0.1f, -2.5f, 1e-5f, 3e38f, -0.0f, 7.0f};
  t.labels = {"the", "cat", "sat"};
  for (const TableFormat* f : table_formats()) {
    if (!f->write) continue;
    INFO(f->name);
    const std::string bytes = export_table(t, f->name);
    CHECK(bytes == f->write(t));
    CHECK(detect_format(bytes) == f->name);
    for (const std::string& name : {std::string("t.") + f->out_extension, std::string()}) {
      const ImportedTable back = import_table(bytes, "", "", name);
      CHECK(back.format == f->name);
      CHECK(back.rows == t.rows);
      CHECK(back.cols == t.cols);
      REQUIRE(back.data.size() == t.data.size());
      for (size_t i = 0; i < t.data.size(); ++i) CHECK(std::memcmp(&back.data[i], &t.data[i], 4) == 0);
      // formats that carry words carry the labels
      if (!back.labels.empty()) CHECK(back.labels == t.labels);
    }
  }
}
