"""Writes tests/reference/embedding_options_torch.json: what torch 1.13 (Debian python3-torch)
returns for nn.Embedding lookups with max_norm, padding_idx and the sqrt(D) scale, and the
weight gradient of a lookup with repeated ids, for tests/test_embedding.cpp.
Usage: /usr/bin/python3 scripts/gen-embedding-options-reference.py"""
import json, math, os

import torch

cases = []
for seed, V, D, ids, max_norm, padding_idx, scale in [
    (3, 4, 8, [1, 1, 3], 1.0, None, False),
    (0, 10, 16, [0, 5, 5, 9], 0.5, None, False),
    (7, 6, 3, [2, 3, 0], 1.2, 0, False),
    (123, 50, 20, [0, 7, 7, 49], None, 7, True),
    (42, 6, 3, [5, 0, 5], None, -1, True),
]:
    torch.manual_seed(seed)
    emb = torch.nn.Embedding(V, D, max_norm=max_norm, padding_idx=padding_idx)
    idx = torch.tensor(ids)
    out = emb(idx)
    if scale:
        out = out * math.sqrt(D)
    dout = torch.arange(out.numel(), dtype=torch.float32).reshape(out.shape) / 10 - 1
    out.backward(dout)
    cases.append({
        "seed": seed, "num_embeddings": V, "embedding_dim": D, "ids": ids, "max_norm": max_norm,
        "padding_idx": padding_idx, "scale": scale,
        "output": out.detach().reshape(-1).tolist(),
        "weight_after": emb.weight.detach().reshape(-1).tolist(),
        "dout": "arange(n * D) / 10 - 1, reshaped (n, D)",
        "grad": emb.weight.grad.reshape(-1).tolist(),
    })
ref = {
    "generated_by": f"scripts/gen-embedding-options-reference.py, torch {torch.__version__} (Debian python3-torch)",
    "pattern": "torch.manual_seed(seed); emb = nn.Embedding(V, D, max_norm, padding_idx); out = emb(ids) [* sqrt(D)]; "
               "out.backward(dout); output, emb.weight after the lookup (max_norm renormalises in place), emb.weight.grad",
    "cases": cases,
}
path = os.path.join(os.path.dirname(__file__), "..", "tests", "reference", "embedding_options_torch.json")
with open(path, "w") as f:
    json.dump(ref, f, separators=(",", ":"))
print(f"wrote {os.path.normpath(path)}: {len(cases)} cases")
