// Tables the engine recognises by their tensor name and shape, so an imported checkpoint reads
// like the model it came from:
//   GPT-2 (HF transformers checkpoints: "wte.weight" or "transformer.wte.weight", 50257 rows,
//   any width: 768 small, 1024 medium, 1280 large, 1600 xl) -> labelled with the built-in GPT-2
//   token strings (the ids of tiktoken's "gpt2"), recognised = "gpt2 token table";
//   "wpe.weight" / "transformer.wpe.weight" (the learned absolute positions, 1024 rows) ->
//   labelled "position 0", "position 1", ..., recognised = "gpt2 position table".
// Labels a file already carries are kept. Other tensors are left as they are (recognised = "").
//
// Example: a safetensors file with "wte.weight" (50257, 768) -> labels[15496] = "Hello".
#pragma once

#include "io/table.hpp"

namespace embedlab {

// Looks at t.tensor and t.rows; sets t.recognised and, if t has no labels, t.labels.
void recognise_known_table(ImportedTable& t);

}  // namespace embedlab
