// embedlab: the command-line interface. JSON on stdout; on bad input a one-line message on
// stderr ("embedlab: lookup: token id 10 out of range [0, 10)") and exit code 2.
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "core/error.hpp"

namespace {

struct Entry {
  const char* name;
  embedlab::cli::Command run;
  const char* usage;
};

const Entry kCommands[] = {
    {"init", embedlab::cli::cmd_init, "init --seed S --num-embeddings V --embedding-dim D [--padding-idx P]"},
    {"lookup", embedlab::cli::cmd_lookup,
     "lookup --seed S --num-embeddings V --embedding-dim D --ids 2,3,1 [--scale] [--padding-idx P] [--max-norm M]"},
    {"posenc", embedlab::cli::cmd_posenc,
     "posenc --kind sinusoidal|learned|rope|alibi --positions T --dim D [--seed S] [--base 10000]"},
    {"tokenize", embedlab::cli::cmd_tokenize,
     "tokenize --encoding gpt2|whitespace|word|char|bpe:<file> [--lowercase] [--allow-special] [--min-count N] [--max-size N] FILE"},
    {"decode", embedlab::cli::cmd_decode, "decode --encoding gpt2|whitespace|word|char|bpe:<file> --ids 1,2,3 [FILE]"},
    {"bpe-train", embedlab::cli::cmd_bpe_train, "bpe-train --vocab-size N FILE -o OUT"},
    {"windows", embedlab::cli::cmd_windows,
     "windows --encoding E --max-length L --stride S --batch-size B [--shuffle --seed S] [--drop-last true|false] [--limit K] FILE"},
    {"bench", embedlab::cli::cmd_bench,
     "bench lookup [--num-embeddings V --embedding-dim D --batch B --context T --reps R]"
     " | bench tokenize --encoding gpt2 [--reps R] FILE"
     " | bench train --model skipgram|cbow FILE | bench train --model next-token [--vocab-size V --vector-size D"
     " --context T --batch-size B --steps N --optimizer adam --pos learned]"},
    {"train", embedlab::cli::cmd_train,
     "train --model skipgram|cbow|next-token --encoding E [--lowercase] --seed S FILE [--out table.npy]"
     " [--out-tsv DIR] [--table input|output|position] [word2vec: --vector-size 100 --window 5 --negative 5"
     " --min-count 5 --sample 1e-3 --alpha 0.025 --min-alpha 0.0001 --epochs 5 --cbow-sum] [next-token:"
     " --vector-size 64 --context 32 --stride T --batch-size 16 --steps 1000"
     " --pos none|learned|sinusoidal|rope|alibi --alibi-slope 0.5 --optimizer sgd|adam|adamw --lr X"
     " --weight-decay W --scale --tie --valid-fraction 0.1]"},
    {"neighbours", embedlab::cli::cmd_neighbours,
     "neighbours --table T.npy (--id N | --word W --vocab metadata.tsv) [--k 10] [--metric cosine|euclidean]"},
    {"analogy", embedlab::cli::cmd_analogy,
     "analogy --table T.npy --positive a,b [--negative c] [--vocab metadata.tsv] [--k 10]"},
    {"pca", embedlab::cli::cmd_pca, "pca --table T.npy [--k 2] [--ids 1,2,3]"},
};

int usage(std::ostream& os) {
  os << "usage: embedlab <command> [options]\n";
  for (const auto& e : kCommands) os << "  embedlab " << e.usage << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(std::cerr);
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  for (const auto& e : kCommands) {
    if (name != e.name) continue;
    try {
      embedlab::cli::Args args(argc, argv, 2);
      return e.run(args);
    } catch (const std::exception& ex) {
      std::cerr << "embedlab: " << ex.what() << "\n";
      return 2;
    }
  }
  std::cerr << "embedlab: unknown command '" << name << "'\n";
  return usage(std::cerr);
}
