#!/usr/bin/python3
"""The scikit-learn peer of `embedlab bench tsne`: TSNE(method='barnes_hut', n_jobs=1) of the same
synthetic table (read from the .npy `embedlab bench tsne --save-table` writes; row i belongs to
cluster i % clusters) with the same settings: perplexity, iterations, angle = theta, learning
rate 200, init 'random', early exaggeration 12. Prints one JSON line: seconds (wall and CPU), kl_divergence_, and
the 10-NN label agreement of the map (the same measure as embedlab's bench).
  OMP_NUM_THREADS=1 /usr/bin/python3 scripts/peers/sklearn_tsne.py TABLE.npy [clusters iterations perplexity theta]
"""
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.manifold import TSNE
from sklearn.neighbors import NearestNeighbors

path = sys.argv[1]
clusters, iterations = (int(a) for a in (sys.argv[2:4] if len(sys.argv) >= 4 else (10, 1000)))
perplexity, theta = (float(a) for a in (sys.argv[4:6] if len(sys.argv) >= 6 else (30, 0.5)))
x = np.load(path)
labels = np.arange(x.shape[0]) % clusters
t0, c0 = time.perf_counter(), time.process_time()
tsne = TSNE(n_components=2, perplexity=perplexity, n_iter=iterations, angle=theta, method="barnes_hut",
            learning_rate=200.0, init="random", early_exaggeration=12.0, n_jobs=int(os.environ.get("PEER_THREADS", "1")), random_state=0)  # bench threads: 2
y = tsne.fit_transform(x)
seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
nn = NearestNeighbors(n_neighbors=11).fit(y)
idx = nn.kneighbors(y, return_distance=False)[:, 1:]
agreement = float((labels[idx] == labels[:, None]).mean())
print(json.dumps({"peer": "sklearn " + sklearn.__version__, "rows": int(x.shape[0]), "dim": int(x.shape[1]),
                  "iterations": iterations, "perplexity": perplexity, "angle": theta,
                  "seconds": round(seconds, 3), "cpu_seconds": round(cpu_seconds, 3), "kl": round(float(tsne.kl_divergence_), 6),
                  "label_agreement_10nn": round(agreement, 4)}))
