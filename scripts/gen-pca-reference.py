#!/usr/bin/python3
"""Writes tests/reference/pca_randomized_hard.json: numpy's SVD of a table that is hard for a
randomized PCA (tests/test_pca_randomized.cpp, "PCA's randomized solver matches numpy's SVD ...").

Run with Debian's python3 and its python3-numpy package:
    /usr/bin/python3 scripts/gen-pca-reference.py
The table is not stored: the test rebuilds it bit for bit from this recipe, in exact or
order-fixed double arithmetic, and checks its sum against `table_sum`:
    G (n, D)   g = g * 1664525 + 1013904223 (mod 2^32) from seed, one draw per value in row-major
               order, value ((g >> 8) - 2^23) / 2^23 in [-1, 1) (exact)
    s_j        1 / sqrt(j + 1), j < D: a slowly decaying spectrum (singular values ~ s_j)
    H (D, D)   the Sylvester-Hadamard matrix, H[j][d] = (-1)^popcount(j & d) (not normalised)
    row i      float32(offset + scale * (sum_j (s_j * G[i][j]) * H[j][d]) / sqrt(D)), the sum over
               j ascending in double, D a power of 4 so that sqrt(D) is exact
so the principal directions are mixed (the rows of H / sqrt(D), not the axes) and every value
carries a mean of `offset` (1e4) that a float32 product must not cancel carelessly.
The reference: numpy.linalg.svd (float64, LAPACK gesdd) of the float32 rows widened to double
and centred on their mean: explained_variance = S^2 / (n - 1), explained_variance_ratio over
the total variance, the top k right singular vectors (components, each sign chosen so that its
largest-|loading| entry is positive, as the engine's sign rule), all as sklearn's
PCA(svd_solver='full') computes them.
"""
import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'reference', 'pca_randomized_hard.json')
N, D, K = 2000, 64, 3
SEED, OFFSET, SCALE = 12345, 1.0e4, 1.0


def table():
    g = SEED
    G = np.empty((N, D), dtype=np.float64)
    for i in range(N):
        for j in range(D):
            g = (g * 1664525 + 1013904223) & 0xFFFFFFFF
            G[i, j] = ((g >> 8) - (1 << 23)) / float(1 << 23)
    s = [1.0 / np.sqrt(float(j + 1)) for j in range(D)]
    H = [[-1.0 if bin(j & d).count('1') % 2 else 1.0 for d in range(D)] for j in range(D)]
    root = np.sqrt(float(D))
    X = np.empty((N, D), dtype=np.float32)
    for i in range(N):
        a = [s[j] * G[i, j] for j in range(D)]  # one rounding each, as the C++ side
        for d in range(D):
            acc = 0.0
            for j in range(D):
                acc += a[j] * H[j][d]
            X[i, d] = np.float32(OFFSET + SCALE * (acc / root))
    return X


def main():
    X = table()
    Xd = X.astype(np.float64)
    C = Xd - Xd.mean(axis=0)
    U, S, Vt = np.linalg.svd(C, full_matrices=False)
    var = S ** 2 / (N - 1)
    total = var.sum()
    comps = []
    for c in range(K):
        v = Vt[c].copy()
        if v[np.argmax(np.abs(v))] < 0:
            v = -v
        comps.append([float(x) for x in v])
    ref = {
        'generated_by': 'scripts/gen-pca-reference.py (numpy %s, numpy.linalg.svd in float64)' % np.__version__,
        'recipe': {'n': N, 'dim': D, 'k': K, 'seed': SEED, 'offset': OFFSET, 'scale': SCALE},
        'table_sum': float(np.sum(Xd)),
        'table_first_row': [float(x) for x in X[0, :4]],
        'explained_variance': [float(x) for x in var[:K]],
        'explained_variance_ratio': [float(x) for x in (var[:K] / total)],
        'singular_values_next': [float(x) for x in S[K:K + 6]],
        'components': comps,
    }
    with open(OUT, 'w') as f:
        json.dump(ref, f, separators=(',', ':'))
        f.write('\n')
    print('wrote', OUT, 'singular values', S[:8])


if __name__ == '__main__':
    main()
