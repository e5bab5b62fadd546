#!/usr/bin/python3
"""Writes tests/reference/optimizer_torch.json: torch 1.13's SGD, Adam and AdamW steps on a small
embedding table, for the Catch2 test (tests/test_optimizer_torch.cpp) that runs embedlab's
Optimizer (src/train/optimizer.hpp) on the same table and gradients.

For each case: torch.manual_seed(seed); table = nn.Embedding(V, D).weight; then `steps` steps of
torch.optim.<kind>([table], lr, weight_decay, foreach=False) (the single-tensor code path), each
with a fixed gradient drawn beforehand with torch.randn (every other step leaves some rows' gradient
at zero, as an embedding lookup does for rows it did not touch, so Adam's momentum moves them).
Stored: the initial table, each step's gradient and the table after each step (float32 values
as Python floats), and, for Adam(W), exp_avg and exp_avg_sq after the last step.
Usage: /usr/bin/python3 scripts/gen-optimizer-reference.py > tests/reference/optimizer_torch.json
"""
import json

import torch
import torch.nn as nn

torch.set_num_threads(1)


def case(kind, V, D, seed, steps, lr, weight_decay):
    torch.manual_seed(seed)
    table = nn.Embedding(V, D).weight
    init = table.detach().clone()
    grads = []
    for s in range(steps):
        g = torch.randn(V, D)
        if s % 2 == 1:
            g[::2] = 0  # rows 0, 2, 4, ... untouched in this step
        grads.append(g)
    make = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[kind]
    opt = make([table], lr=lr, weight_decay=weight_decay, foreach=False)
    after = []
    for g in grads:
        table.grad = g.clone()
        opt.step()
        after.append(table.detach().flatten().tolist())
    out = {"kind": kind, "V": V, "D": D, "seed": seed, "lr": lr, "weight_decay": weight_decay, "steps": steps,
           "init": init.flatten().tolist(), "grads": [g.flatten().tolist() for g in grads], "after": after}
    if kind != "sgd":
        st = opt.state[table]
        out["exp_avg"] = st["exp_avg"].flatten().tolist()
        out["exp_avg_sq"] = st["exp_avg_sq"].flatten().tolist()
    return out


cases = [case("sgd", 6, 4, 1, 3, 0.1, 0.0),
         case("sgd", 5, 3, 2, 4, 0.5, 0.01),
         case("adam", 6, 4, 3, 5, 0.01, 0.0),
         case("adam", 4, 5, 4, 3, 0.1, 0.05),
         case("adamw", 6, 4, 5, 5, 0.01, 0.01),
         case("adamw", 7, 3, 6, 4, 0.05, 0.1)]
print(json.dumps({"generated_by": "scripts/gen-optimizer-reference.py (torch " + torch.__version__ + ")", "cases": cases},
                 separators=(",", ":")))
