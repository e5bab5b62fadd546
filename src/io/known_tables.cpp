#include "io/known_tables.hpp"

#include <string>

#include "core/memory.hpp"
#include "tokenizer/tokenizer.hpp"

namespace embedlab {

namespace {

constexpr int64_t kGpt2Vocab = 50257;
constexpr ElementType kLabel{"label", 48};  // a std::string and a short token held inline

bool named(const std::string& tensor, const char* leaf) {
  return tensor == leaf || tensor == std::string("transformer.") + leaf;
}

}  // namespace

void recognise_known_table(ImportedTable& t) {
  if (named(t.tensor, "wte.weight") && t.rows == kGpt2Vocab) {
    t.recognised = "gpt2 token table";
    if (t.labels.empty()) {
      const Tokenizer tok = Tokenizer::gpt2();
      t.labels.resize(plan("gpt2 labels", "labels", t.rows, kLabel));
      for (int64_t id = 0; id < t.rows; ++id) t.labels[static_cast<size_t>(id)] = tok.token_string(static_cast<int32_t>(id));
    }
  } else if (named(t.tensor, "wpe.weight")) {
    t.recognised = "gpt2 position table";
    if (t.labels.empty()) {
      t.labels.resize(plan("gpt2 labels", "labels", t.rows, kLabel));
      for (int64_t p = 0; p < t.rows; ++p) t.labels[static_cast<size_t>(p)] = "position " + std::to_string(p);
    }
  }
}

}  // namespace embedlab
