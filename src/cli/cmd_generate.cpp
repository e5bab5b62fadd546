// embedlab generate: text sampled from a trained next-token model (train/generate.hpp).
//
// generate --state RUN --prompt TEXT [--tokens 100] [--temperature 1] --seed S
//   RUN: a checkpoint of `embedlab train --model next-token ... --save-state RUN`, or the bytes of
//   the page's run (its autosave; M.Trainer.saveState): the model and its tokenizer are in it.
//   Prints one JSON line {"text": the continuation of the prompt, "ids": [the generated token ids]};
//   prompt + text reads as one passage. M.generate(bytes, {prompt, tokens, temperature, seed})
//   gives the same text and ids.
// It does not train, and reads nothing but RUN.
#include <iostream>
#include <limits>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/file.hpp"
#include "train/generate.hpp"

namespace embedlab::cli {

namespace {

int cmd_generate(Args& a, std::ostream& out) {
  const std::string state = a.text("state");
  const std::string prompt = a.text("prompt");
  SampleOptions o;
  o.tokens = a.integer_or("tokens", o.tokens, 0, kMaxSampleTokens);
  // any number: the engine names the limits (finite, >= 0)
  o.temperature = a.number_or("temperature", o.temperature, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
  o.seed = static_cast<uint64_t>(a.integer("seed", 0, INT64_MAX));
  a.finish("generate");
  const std::string bytes = read_file("--state", state);
  const Generated g = generate(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), prompt, o);
  out << "{\"text\":" << json_string(g.text) << ",\"ids\":";
  write_ints(out, g.ids);
  out << "}\n";
  return 0;
}

}  // namespace

const CommandSpec kGenerate{
    "generate",
    "Samples text from a next-token checkpoint (train --save-state): JSON {text, ids}.",
    {{"state", "RUN", "the checkpoint of a next-token run (train --model next-token --save-state RUN)", true},
     {"prompt", "TEXT", "the text to continue (at least one token)", true},
     {"tokens", "100", "how many tokens to generate, in [0, 4096]"},
     {"temperature", "1", "divides the scores before the softmax; 0 takes the most likely token"},
     {"seed", "S", "the seed of the draws", true}},
    {},
    cmd_generate};

}  // namespace embedlab::cli
