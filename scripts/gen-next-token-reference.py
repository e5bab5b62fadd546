#!/usr/bin/python3
"""Writes tests/reference/next_token_torch.json: the next-token model in torch 1.13 (autograd),
for the Catch2 test that compares embedlab's forward, hand-written backward and Adam step.

For each case: torch.manual_seed(seed), then the modules in embedlab's draw order
(nn.Embedding(V, D), nn.Embedding(T, D) if learned, q/k/v nn.Linear(D, D, bias=False),
nn.Linear(D, V, bias=False) unless tied), one batch of inputs/targets, and
  loss, every parameter's gradient, and the loss after one torch.optim.Adam(lr) step.
RoPE rotates interleaved pairs (x[2i], x[2i+1]) at position p by p * 10000^(-2i/D); sinusoidal
adds Vaswani's table; ALiBi adds -slope (i - j) to the scaled scores; T5 adds a learned
nn.Embedding(num_buckets, 1) bias indexed by HF transformers' T5Attention._relative_position_bucket
(bidirectional=False; scripts/t5_buckets.py), drawn right after the token table like learned positions.
rope-yarn and rope-partial rotate like RoPE with their own per-pair frequencies (scripts/rope_scaling.py);
rope-yarn also multiplies the scaled scores by its attention scale (0.1 ln factor + 1)^2.
Usage: /usr/bin/python3 scripts/gen-next-token-reference.py > tests/reference/next_token_torch.json
"""
import json
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from rope_scaling import FUNCS as ROPE_SCALINGS
from t5_buckets import t5_relative_position_bucket

torch.set_num_threads(1)


def rope(x, inv_freq=None):  # x (B, T, D); inv_freq (D/2,) float64, RoPE's theta when None
    B, T, D = x.shape
    theta = torch.tensor([10000.0 ** (-2.0 * i / D) for i in range(D // 2)], dtype=torch.float64)
    if inv_freq is not None:
        theta = torch.tensor(inv_freq, dtype=torch.float64)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * theta[None, :]
    c, s = torch.cos(ang).float(), torch.sin(ang).float()
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * c - x1 * s
    out[..., 1::2] = x0 * s + x1 * c
    return out


def sinusoidal(T, D):
    w = torch.tensor([10000.0 ** (-2.0 * i / D) for i in range(D // 2)], dtype=torch.float64)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * w[None, :]
    pe = torch.empty(T, D, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(ang), torch.cos(ang)
    return pe.float()


def case(V, D, T, B, seed, pos, tie, scale, lr, pos_params=None):
    pos_params = pos_params or {}
    torch.manual_seed(seed)
    tok = nn.Embedding(V, D)
    params = {"token": tok.weight}
    if pos == "learned":
        P = nn.Embedding(T, D)
        params["position"] = P.weight
    if pos == "t5":
        nb, md = pos_params.get("num_buckets", 32), pos_params.get("max_distance", 128)
        rel = nn.Embedding(nb, 1)
        params["relative position bias"] = rel.weight
        ctx = torch.arange(T)
        buckets = t5_relative_position_bucket(ctx[None, :] - ctx[:, None], False, nb, md)  # (T, T): memory j - query i
    q, k, v = (nn.Linear(D, D, bias=False) for _ in range(3))
    params.update(query=q.weight, key=k.weight, value=v.weight)
    if not tie:
        head = nn.Linear(D, V, bias=False)
        params["head"] = head.weight
    g = torch.Generator().manual_seed(1000 + seed)
    ids = torch.randint(0, V, (B, T + 1), generator=g)
    x, y = ids[:, :-1], ids[:, 1:]

    def loss_fn():
        h0 = tok(x) * (math.sqrt(D) if scale else 1.0)
        if pos == "learned":
            h0 = h0 + params["position"][None, :T]
        if pos == "sinusoidal":
            h0 = h0 + sinusoidal(T, D)[None]
        Q, K, Vv = q(h0), k(h0), v(h0)
        if pos == "rope":
            Q, K = rope(Q), rope(K)
        attention_scale = 1.0
        if pos in ROPE_SCALINGS:  # scripts/rope_scaling.py: the kind's inv_freq and factor on q.k
            inv_freq, _, _, attention_scale = ROPE_SCALINGS[pos](D, **pos_params)
            Q, K = rope(Q, inv_freq), rope(K, inv_freq)
        a = (Q @ K.transpose(1, 2)) / math.sqrt(D)
        if attention_scale != 1.0:
            a = a * attention_scale
        if pos == "alibi":
            ctx = torch.arange(T)
            a = a - pos_params.get("slope", 0.5) * (ctx[:, None] - ctx[None, :]).float()
        if pos == "t5":
            a = a + rel(buckets)[..., 0][None]
        a = a.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf")).softmax(-1)
        h = h0 + a @ Vv
        logits = h @ (tok.weight if tie else params["head"]).T
        return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))

    loss = loss_fn()
    loss.backward()
    out = {"V": V, "D": D, "T": T, "B": B, "seed": seed, "pos": pos, "pos_params": pos_params, "tie": tie,
           "scale": scale, "lr": lr,
           "inputs": x.flatten().tolist(), "targets": y.flatten().tolist(), "loss": float(loss),
           "init": {n: p.detach().flatten().tolist() for n, p in params.items()},
           "grads": {n: p.grad.flatten().tolist() for n, p in params.items()}}
    opt = torch.optim.Adam(list(params.values()), lr=lr)
    opt.step()
    with torch.no_grad():
        out["loss_after_adam_step"] = float(loss_fn())
    return out


cases = [case(11, 8, 6, 3, 7, "learned", False, False, 0.01),
         case(13, 8, 5, 2, 3, "rope", True, True, 0.01),
         case(9, 6, 4, 2, 5, "none", False, False, 0.05),
         case(10, 8, 6, 2, 11, "sinusoidal", False, True, 0.01),
         case(10, 6, 6, 3, 13, "alibi", True, False, 0.02, {"slope": 0.25}),
         case(12, 8, 12, 2, 17, "t5", False, False, 0.05, {"num_buckets": 6, "max_distance": 8}),
         case(9, 6, 40, 2, 19, "t5", True, True, 0.01),
         case(11, 8, 12, 2, 23, "rope-yarn", False, False, 0.02,
              {"base": 100, "factor": 2.5, "original_context": 16, "beta_fast": 32, "beta_slow": 0.5}),
         case(10, 10, 8, 2, 29, "rope-partial", True, True, 0.01, {"base": 100, "fraction": 0.6})]
print(json.dumps({"generated_by": "scripts/gen-next-token-reference.py (torch " + torch.__version__ + ")", "cases": cases}))
