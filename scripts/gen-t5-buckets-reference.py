#!/usr/bin/python3
"""Writes tests/reference/t5_buckets_torch.json: T5 relative-position buckets exactly as HF
transformers computes them, in torch float32, for the Catch2 test that checks embedlab's t5
position kind (src/embed/positions/t5.cpp) bucket for bucket.

t5_relative_position_bucket is T5Attention._relative_position_bucket of HF transformers, copied
verbatim in scripts/t5_buckets.py (shared with gen-next-token-reference.py).

For each (num_buckets, max_distance, bidirectional) case it stores the bucket of every relative
position memory_position - query_position in [-N, N] (N = 3000). embedlab is causal (a decoder):
it uses the bidirectional=False buckets of relative positions <= 0 (n = i - j = -relative >= 0);
the bidirectional cases are stored so that the reference covers HF's function whole.
Usage: /usr/bin/python3 scripts/gen-t5-buckets-reference.py > tests/reference/t5_buckets_torch.json
"""
import json

import torch

from t5_buckets import t5_relative_position_bucket




N = 3000
# The usual settings, and settings where float32 and float64 arithmetic give different buckets
# (found by a search over num_buckets < 80, max_distance < 300: e.g. 9 buckets, max_distance 128,
# distance 8 is bucket 5 in float32 and 4 in float64), so a float64 implementation fails.
CASES = [(32, 128, False), (32, 128, True), (8, 20, False), (16, 64, False), (2, 2, False),
         (64, 1000, False), (6, 8, False), (10, 50, False), (128, 2048, False), (7, 300, False),
         (12, 100, True), (9, 128, False), (10, 160, False), (17, 27, False), (19, 16, False),
         (36, 50, False), (46, 164, False), (51, 144, False), (72, 100, False), (59, 296, False)]
rel = torch.arange(-N, N + 1, dtype=torch.long)
cases = []
for nb, md, bi in CASES:
    b = t5_relative_position_bucket(rel, bidirectional=bi, num_buckets=nb, max_distance=md)
    cases.append({"num_buckets": nb, "max_distance": md, "bidirectional": bi, "first_relative_position": -N,
                  "buckets": b.tolist()})
print(json.dumps({"generated_by": "scripts/gen-t5-buckets-reference.py (torch " + torch.__version__ + ")",
                  "cases": cases}, separators=(",", ":")))
