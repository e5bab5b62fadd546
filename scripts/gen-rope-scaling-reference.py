#!/usr/bin/python3
"""Writes tests/reference/rope_scaling.json: each pair's frequency (inv_freq) and the RoPE angle
table (cos, sin of p * inv_freq_i) of the four RoPE scalings, computed in numpy float64 from the
published formulas (scripts/rope_scaling.py), for the Catch2 test ([rope-scaling]) that checks embedlab's kinds
rope-pi, rope-ntk, rope-yarn and rope-partial (src/embed/positions/rope_*.cpp) at 1e-6.

- rope-pi: Chen et al. 2023, "Extending Context Window of Large Language Models via Positional
  Interpolation", eq. 4: f'(x, m) = f(x, m L / L'), i.e. RoPE at position m / factor. The table
  is computed from the scaled positions (m / factor) * theta_i, inv_freq as theta_i / factor.
- rope-ntk: NTK-aware scaling as HF transformers' rope utilities implement it
  (_compute_dynamic_ntk_parameters: base * (...)^(dim / (dim - 2))), in its static form at the full
  factor: base' = base * factor^(D / (D - 2)), inv_freq = 1 / base'^(arange(0, D, 2) / D).
- rope-yarn: Peng et al. 2023, "YaRN", sec. 3.2-3.4, written after HF transformers'
  _compute_yarn_parameters (truncate=True): find_correction_dim / find_correction_range /
  linear_ramp_factor, the blend of inv_freq_interpolation and inv_freq_extrapolation, and
  attention_factor = 0.1 ln(factor) + 1 (embedlab's attention_scale is its square: it multiplies q.k).
- rope-partial: p-RoPE (Barbero et al. 2024): RoPE's theta_i for the first int(p * D // 2) pairs,
  0 (no rotation) for the rest.
transformers is not installed; the formulas are re-typed here from those sources, in float64
(HF computes in float32; embedlab in double, rounded to float only in the table).
Usage: /usr/bin/python3 scripts/gen-rope-scaling-reference.py > tests/reference/rope_scaling.json
"""
import json

import numpy as np

from rope_scaling import FUNCS

T = 40  # positions in each angle table (rows 0..T-1)


def table(positions, inv_freq):
    """positions (T,), inv_freq (D/2,) -> (T, D) interleaved (cos, sin) pairs."""
    ang = np.outer(positions, inv_freq)
    out = np.empty((len(positions), 2 * len(inv_freq)))
    out[:, 0::2], out[:, 1::2] = np.cos(ang), np.sin(ang)
    return out


# (kind, D, params): D not a power of two and non-integer factors in each kind.
CASES = [
    ("rope-pi", 8, {"base": 10000, "factor": 4, "original_context": 64}),
    ("rope-pi", 6, {"base": 10000, "factor": 2.5, "original_context": 32}),
    ("rope-pi", 24, {"base": 500, "factor": 1.75, "original_context": 100}),
    ("rope-ntk", 8, {"base": 10000, "factor": 4, "original_context": 64}),
    ("rope-ntk", 6, {"base": 10000, "factor": 2.5, "original_context": 32}),
    ("rope-ntk", 30, {"base": 1000, "factor": 3.3, "original_context": 128}),
    ("rope-yarn", 8, {"base": 10000, "factor": 4, "original_context": 64, "beta_fast": 32, "beta_slow": 1}),
    ("rope-yarn", 6, {"base": 10000, "factor": 2.5, "original_context": 32, "beta_fast": 32, "beta_slow": 1}),
    ("rope-yarn", 64, {"base": 10000, "factor": 8, "original_context": 4096, "beta_fast": 32, "beta_slow": 1}),
    ("rope-yarn", 48, {"base": 500, "factor": 3.5, "original_context": 2048, "beta_fast": 16, "beta_slow": 2}),
    ("rope-yarn", 12, {"base": 10000, "factor": 1.5, "original_context": 1e5, "beta_fast": 32, "beta_slow": 1}),
    ("rope-partial", 8, {"base": 100, "fraction": 0.5}),
    ("rope-partial", 6, {"base": 10000, "fraction": 0.75}),
    ("rope-partial", 20, {"base": 10000, "fraction": 0.25}),
    ("rope-partial", 10, {"base": 10000, "fraction": 1.0}),
]
cases = []
for kind, D, params in CASES:
    inv, position_divisor, theta, scale = FUNCS[kind](D, **params)
    tab = table(np.arange(T, dtype=np.float64) / position_divisor, theta)
    cases.append({"kind": kind, "dim": D, "positions": T, "params": params, "inv_freq": inv.tolist(),
                  "attention_scale": scale, "table": tab.ravel().tolist()})
print(json.dumps({"generated_by": "scripts/gen-rope-scaling-reference.py (numpy " + np.__version__ + ", float64)",
                  "cases": cases}, separators=(",", ":")))
