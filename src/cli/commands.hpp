// The CLI's subcommands. Each takes the parsed arguments after its name, writes JSON on
// stdout and returns the exit code; errors are thrown as embedlab::Error and printed by main.
#pragma once

#include "cli/args.hpp"

namespace embedlab::cli {

using Command = int (*)(Args&);

// embed: cmd_embed.cpp
int cmd_init(Args& a);
int cmd_lookup(Args& a);
int cmd_posenc(Args& a);
// bench: cmd_bench.cpp (dispatches on the first positional: lookup, tokenize, train)
int cmd_bench(Args& a);
// tokenizer + data: cmd_tokenize.cpp
int cmd_tokenize(Args& a);
int cmd_decode(Args& a);
int cmd_bpe_train(Args& a);
int cmd_windows(Args& a);
int cmd_bench_tokenize(Args& a);  // `bench tokenize`, called by cmd_bench
// training: cmd_train.cpp
int cmd_train(Args& a);
int cmd_bench_train(Args& a);  // `bench train`, called by cmd_bench
// inspecting tables: cmd_project.cpp
int cmd_neighbours(Args& a);
int cmd_analogy(Args& a);
int cmd_pca(Args& a);

}  // namespace embedlab::cli
