"""The RoPE scalings' per-pair frequencies from the published formulas, in numpy float64, shared by
scripts/gen-rope-scaling-reference.py (inv_freq and angle tables) and scripts/gen-next-token-reference.py
(torch autograd of the model with rope-yarn and rope-partial). Sources are in the first script's
docstring. Each kind's function takes (D, **params) and returns (inv_freq (D/2,), position_divisor, theta,
attention_scale): the angle of pair i at position p is (p / position_divisor) * theta_i; theta is inv_freq for
every kind but rope-pi (whose table is RoPE's theta at p / factor, as the PI paper writes it).
"""
import math

import numpy as np


def rope_theta(D, base):
    return 1.0 / (base ** (np.arange(0, D, 2, dtype=np.float64) / D))


def rope_pi(D, base, factor, original_context):
    inv = rope_theta(D, base) / factor
    return inv, factor, rope_theta(D, base), 1.0


def rope_ntk(D, base, factor, original_context):
    inv = rope_theta(D, base * factor ** (D / (D - 2)))
    return inv, 1.0, inv, 1.0


def rope_yarn(D, base, factor, original_context, beta_fast=32, beta_slow=1):
    def find_correction_dim(num_rotations, dim, base, max_position_embeddings):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    def find_correction_range(low_rot, high_rot, dim, base, max_position_embeddings):
        low = math.floor(find_correction_dim(low_rot, dim, base, max_position_embeddings))
        high = math.ceil(find_correction_dim(high_rot, dim, base, max_position_embeddings))
        return max(low, 0), min(high, dim - 1)

    def linear_ramp_factor(lo, hi, dim):
        if lo == hi:
            hi += 0.001
        return np.clip((np.arange(dim, dtype=np.float64) - lo) / (hi - lo), 0, 1)

    pos_freqs = base ** (np.arange(0, D, 2, dtype=np.float64) / D)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    low, high = find_correction_range(beta_fast, beta_slow, D, base, original_context)
    inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, D // 2)
    inv = (inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
           + inv_freq_extrapolation * inv_freq_extrapolation_factor)
    attention_factor = 0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0
    return inv, 1.0, inv, attention_factor ** 2


def rope_partial(D, base, fraction):
    inv = rope_theta(D, base)
    inv[int(fraction * D // 2):] = 0.0
    return inv, 1.0, inv, 1.0


FUNCS = {"rope-pi": rope_pi, "rope-ntk": rope_ntk, "rope-yarn": rope_yarn, "rope-partial": rope_partial}
