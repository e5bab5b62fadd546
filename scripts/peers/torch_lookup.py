"""Peer benchmark: torch 1.13 (Debian) on one thread doing the engine's lookup,
tok(ids) * sqrt(D) + pos, and the sparse backward, timed like `embedlab bench lookup`
(median of reps after a warm-up). Prints one JSON line.
Usage: /usr/bin/python3 scripts/peers/torch_lookup.py [V D B T reps]"""
import json, math, sys, time

import torch

V, D, B, T, reps = (int(x) for x in (sys.argv[1:] or [50257, 768, 32, 256, 15]))
torch.set_num_threads(1)
torch.manual_seed(0)
tok = torch.nn.Embedding(V, D, sparse=True)
pos = torch.randn(T, D)
ids = torch.randint(0, V, (B, T))
scale = math.sqrt(D)


def forward():
    return tok(ids) * scale + pos


def median_ms(f, n):
    f()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[n // 2]


with torch.no_grad():
    fwd = median_ms(forward, reps)
out = forward()
dout = torch.ones_like(out)


def backward():
    tok.weight.grad = None
    out2 = tok(ids) * scale + pos
    out2.backward(dout)
    tok.weight.grad.coalesce()


bwd = median_ms(backward, max(3, reps // 3))
nbytes = B * T * D * 4
print(json.dumps({"peer": f"torch {torch.__version__}", "threads": 1, "median_ms": fwd,
                  "gb_per_s": nbytes / (fwd * 1e6), "backward_ms": bwd}))
