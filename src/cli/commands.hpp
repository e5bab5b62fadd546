// The CLI's subcommands. Each declares its flags and operands (CommandSpec, see args.hpp) next to
// its implementation; main.cpp lists them, parses, runs, and writes the JSON the command built
// to stdout only when it succeeded. Errors are thrown as embedlab::Error and printed by main.
#pragma once

#include "cli/args.hpp"

namespace embedlab::cli {

// embed: cmd_embed.cpp
extern const CommandSpec kInit, kLookup, kPosenc, kKinds;
// tokenizer + data: cmd_tokenize.cpp
extern const CommandSpec kTokenize, kDecode, kBpeTrain, kWindows, kBenchTokenize;
// training: cmd_train.cpp
extern const CommandSpec kTrain, kBenchTrain;
// benchmarks: cmd_bench.cpp
extern const CommandSpec kBenchLookup;
// inspecting tables: cmd_project.cpp
extern const CommandSpec kNeighbours, kAnalogy, kPca;

}  // namespace embedlab::cli
