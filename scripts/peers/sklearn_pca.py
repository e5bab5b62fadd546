#!/usr/bin/python3
"""The scikit-learn peer of `embedlab bench table`: PCA to 3 components of a (rows, dim) float32
table with svd_solver='randomized' (sklearn's default for such shapes) and a top-10 cosine query
in numpy, on one thread. Prints one JSON line. Run with OpenBLAS for a fair peer:
  LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread OMP_NUM_THREADS=1 /usr/bin/python3 scripts/peers/sklearn_pca.py 50257 768
"""
import json
import sys
import time

import numpy as np
from sklearn.decomposition import PCA

rows, dim = (int(a) for a in sys.argv[1:3]) if len(sys.argv) >= 3 else (50257, 768)
rng = np.random.default_rng(0)
x = rng.standard_normal((rows, dim), dtype=np.float32)
dirs = rng.standard_normal((8, dim), dtype=np.float32)
coef = rng.standard_normal((rows, 8), dtype=np.float32) * (1.0 / np.arange(1, 9, dtype=np.float32))
x += coef @ dirs  # the same kind of decaying planted spectrum as embedlab's bench
t0 = time.perf_counter()
PCA(n_components=3, svd_solver="randomized", random_state=0).fit_transform(x)
pca_ms = (time.perf_counter() - t0) * 1000
norms = np.linalg.norm(x, axis=1)
times = []
for r in range(7):
    t0 = time.perf_counter()
    q = (r * 7919 + 1) % rows
    s = (x @ x[q]) / (norms * norms[q])
    s[q] = -np.inf
    np.argpartition(-s, 10)[:10]
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps({"peer": "sklearn " + __import__("sklearn").__version__, "rows": rows, "dim": dim,
                  "pca_ms": round(pca_ms, 1), "neighbours_ms": round(sorted(times)[3], 3)}))
