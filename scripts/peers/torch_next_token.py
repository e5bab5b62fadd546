#!/usr/bin/python3
"""Speed peer for `embedlab bench train --model next-token`: the same model in torch 1.13 on one thread.

Model (as src/train/next_token_model.hpp): nn.Embedding(V, D) + learned positions nn.Embedding(T, D)
-> q, k, v = Linear(D, D, bias=False) -> causal softmax(q k^T / sqrt(D)) v + residual
-> Linear(D, V, bias=False) -> cross-entropy over all B*T positions; Adam (lr 1e-3).
Batches of B windows of T+1 uniform random ids. One warm-up step, then STEPS timed steps.
Prints one JSON line with tokens/s = B*T*steps / time.
Usage: torch_next_token.py [V D T B STEPS]
"""
import json
import os
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, T, B, STEPS = (int(x) for x in (sys.argv[1:6] if len(sys.argv) > 5 else (5000, 64, 32, 256, 5)))
torch.set_num_threads(int(os.environ.get("PEER_THREADS", "1")))  # scripts/bench threads: 2
torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(T, D)
        self.q = nn.Linear(D, D, bias=False)
        self.k = nn.Linear(D, D, bias=False)
        self.v = nn.Linear(D, D, bias=False)
        self.head = nn.Linear(D, V, bias=False)
        self.register_buffer("mask", torch.triu(torch.ones(T, T, dtype=torch.bool), 1))

    def forward(self, x):
        h = self.tok(x) + self.pos(torch.arange(T))
        a = (self.q(h) @ self.k(h).transpose(1, 2)) / math.sqrt(D)
        a = a.masked_fill(self.mask, float("-inf")).softmax(-1)
        return self.head(h + a @ self.v(h))


model = Model()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randint(0, V, (B * T * (STEPS + 2) + 1,))


def step(i):
    ix = torch.arange(B) * T + i * B * T
    x = torch.stack([data[j:j + T] for j in ix])
    y = torch.stack([data[j + 1:j + T + 1] for j in ix])
    loss = F.cross_entropy(model(x).view(-1, V), y.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss)


first = step(0)
t0 = time.perf_counter()
for i in range(STEPS):
    last = step(i + 1)
seconds = time.perf_counter() - t0
threads = torch.get_num_threads()
print(json.dumps({"peer": f"torch {torch.__version__} {threads} thread{'' if threads == 1 else 's'}", "V": V, "D": D, "T": T, "B": B, "steps": STEPS,
                  "ms_per_step": round(seconds / STEPS * 1000, 2), "tokens_per_s": round(B * T * STEPS / seconds),
                  "first_loss": round(first, 4), "last_loss": round(last, 4)}))
