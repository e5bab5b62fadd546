// The CLI's subcommands. Each declares its flags and operands (CommandSpec, see args.hpp) next to
// its implementation; main.cpp lists them, parses, runs, and writes the JSON the command built
// to stdout only when it succeeded. Errors are thrown as embedlab::Error and printed by main.
#pragma once

#include <string>
#include <vector>

#include "cli/args.hpp"
#include "io/table.hpp"

namespace embedlab::cli {

// embed: cmd_embed.cpp
extern const CommandSpec kInit, kLookup, kPosenc, kKinds;
// tokenizer + data: cmd_tokenize.cpp
extern const CommandSpec kTokenize, kDecode, kBpeTrain, kWindows, kBenchTokenize;
// training: cmd_train.cpp
extern const CommandSpec kTrain, kBenchTrain;
// sampling from a trained next-token model: cmd_generate.cpp
extern const CommandSpec kGenerate;
// benchmarks: cmd_bench.cpp
extern const CommandSpec kBenchLookup, kBenchTable;
// inspecting tables: cmd_analysis.cpp
extern const CommandSpec kNeighbours, kAnalogy, kPca;
// cmd_map.cpp: any algorithm of the map registry
extern const CommandSpec kMap;
// table files: cmd_io.cpp
extern const CommandSpec kInspect, kConvert;

// Commands that live outside src/cli: a map algorithm's own commands, in its folder
// (src/maps/NAME/NAME_cli.cpp), add themselves at start-up with
//   const CommandRegistration reg(kMyMap, 10);   // order: their place among the added commands
// so that nothing in src/cli names them.
struct CommandRegistration {
  CommandRegistration(const CommandSpec& spec, int order);
};
// Every command, in the order of `embedlab --help` (command_list.cpp): the built-in ones, then
// the added ones by order, then `map`.
const std::vector<const CommandSpec*>& all_commands();
// The names after "bench " in that order, as a message lists them: "lookup, table, ... or train".
std::string bench_names();

// --table PATH[:TENSOR] (cmd_io.cpp): "m.safetensors:wte.weight" -> {"m.safetensors", "wte.weight"}
// when m.safetensors is a file and the whole is not; else {spec, ""}.
struct TableArg {
  std::string path, tensor;
};
TableArg split_table_arg(const std::string& spec);
// The table named by a --table value, in any format io/formats.hpp reads.
ImportedTable load_table_arg(const std::string& spec);

}  // namespace embedlab::cli
