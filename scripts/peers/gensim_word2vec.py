#!/usr/bin/python3
"""Speed peer for `embedlab bench train --model skipgram|cbow`: gensim 4.2 Word2Vec, workers=1.

Trains on FILE read as embedlab reads it (one sentence per non-empty line, lower-cased,
whitespace split) with gensim's defaults (vector_size 100, window 5, negative 5, min_count 5,
sample 1e-3, 5 epochs) and times model.train() alone, as gensim reports words/s: effective
words (after min_count and sub-sampling) and raw words. Prints one JSON line.
Run with LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread for the OpenBLAS peer.
Usage: gensim_word2vec.py FILE [skipgram|cbow]
"""
import json
import os
import sys
import time

from gensim.models import Word2Vec
from gensim.models.word2vec_inner import MAX_WORDS_IN_BATCH  # noqa: F401 (checks the C extension loaded)


def blas_name():
    return "openblas-pthread" if "openblas" in os.environ.get("LD_LIBRARY_PATH", "") else "default BLAS"


path = sys.argv[1]
sg = 0 if len(sys.argv) > 2 and sys.argv[2] == "cbow" else 1
workers = int(os.environ.get("PEER_THREADS", "1"))  # scripts/bench threads: 2
with open(path, encoding="utf-8") as f:
    sentences = [line.lower().split() for line in f if line.strip()]
model = Word2Vec(vector_size=100, window=5, negative=5, min_count=5, epochs=5, sg=sg, workers=workers, seed=1)
model.build_vocab(sentences)
t0 = time.perf_counter()
effective, raw = model.train(sentences, total_examples=model.corpus_count, epochs=model.epochs)
seconds = time.perf_counter() - t0
print(json.dumps({"peer": "gensim " + __import__("gensim").__version__ + " workers=" + str(workers) + " (" + blas_name() + ")",
                  "model": "skipgram" if sg else "cbow", "vocab": len(model.wv), "effective_words": effective,
                  "raw_words": raw, "seconds": round(seconds, 4),
                  "effective_words_per_s": round(effective / seconds), "raw_words_per_s": round(raw / seconds)}))
