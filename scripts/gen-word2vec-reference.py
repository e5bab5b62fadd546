#!/usr/bin/python3
"""Writes tests/reference/word2vec_gensim.json: gensim 4.2 word2vec vectors for a fixed corpus and
seed, and gensim's own seed-to-seed agreement, for the Catch2 test (tests/test_word2vec_gensim.cpp)
that trains embedlab's word2vec on the same corpus with the same settings.

Corpus: web/corpora/tinyshakespeare.txt, one sentence per non-empty line, lower-cased (ASCII),
split on whitespace (as scripts/quality-word2vec.py reads it). Settings (gensim's names):
sg=1, vector_size=32, window=5, negative=5, min_count=5, sample=1e-3, alpha=0.025,
min_alpha=0.0001, epochs=5, workers=1 (deterministic for a seed), seeds 1, 2, 3, 4.
Stored: the WORDS most frequent words (gensim's index_to_key order), the seed-1 vectors of those
words, and the Spearman correlation of the pairwise cosine similarities (upper triangle, W*(W-1)/2
pairs) between every two seeds: the spread a second implementation is judged against.
Usage: PYTHONHASHSEED=0 /usr/bin/python3 scripts/gen-word2vec-reference.py > tests/reference/word2vec_gensim.json
"""
import itertools
import json
import os

import gensim
import numpy as np
from gensim.models import Word2Vec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = "web/corpora/tinyshakespeare.txt"
WORDS = 300
SEEDS = [1, 2, 3, 4]
SETTINGS = dict(sg=1, vector_size=32, window=5, negative=5, min_count=5, sample=1e-3, alpha=0.025,
                min_alpha=0.0001, epochs=5, workers=1)


def ascii_lower(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def spearman(a, b):
    ra = np.argsort(np.argsort(a, kind="mergesort"), kind="mergesort").astype(np.float64)
    rb = np.argsort(np.argsort(b, kind="mergesort"), kind="mergesort").astype(np.float64)
    return float(np.corrcoef(ra, rb)[0, 1])


def pair_cosines(vectors):
    m = np.asarray(vectors, dtype=np.float64)
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    c = m @ m.T
    return c[np.triu_indices(len(m), 1)]


with open(os.path.join(ROOT, CORPUS), encoding="utf-8") as f:
    sentences = [ascii_lower(line).split() for line in f if line.strip()]
models = {s: Word2Vec(sentences, seed=s, **SETTINGS) for s in SEEDS}
words = models[SEEDS[0]].wv.index_to_key[:WORDS]
cosines = {s: pair_cosines([models[s].wv[w] for w in words]) for s in SEEDS}
pairs = [{"seeds": [a, b], "spearman": spearman(cosines[a], cosines[b])} for a, b in itertools.combinations(SEEDS, 2)]
out = {"generated_by": "scripts/gen-word2vec-reference.py (gensim " + gensim.__version__ + ", numpy " + np.__version__ + ")",
       "corpus": CORPUS, "settings": SETTINGS, "seed": SEEDS[0], "words": words,
       "counts": [int(models[SEEDS[0]].wv.get_vecattr(w, "count")) for w in words],
       "vectors": [[float(x) for x in models[SEEDS[0]].wv[w]] for w in words],
       "seed_pairs": pairs, "min_seed_spearman": min(p["spearman"] for p in pairs)}
print(json.dumps(out, separators=(",", ":")))
