#!/usr/bin/python3
"""Compare embedlab's word2vec vectors with gensim 4.2's on the same corpus.

What it does:
  1. trains gensim Word2Vec on CORPUS (one sentence per non-empty line, lower-cased,
     whitespace split; vector_size 100, window 5, negative 5, min_count 5, 5 epochs,
     workers=1, sg=1 unless --cbow) and measures its effective and raw words/s;
  2. trains embedlab with the same settings through the CLI (`embedlab train ... --out-tsv`)
     unless --tsv DIR names an existing vectors.tsv + metadata.tsv;
  3. over the 500 most frequent words, computes the Spearman correlation between the two
     models' pairwise cosine similarities (upper triangle), and, for scale, between two
     gensim runs with different seeds;
  4. prints nearest neighbours of a few common words for both, and a JSON summary last.
It does not judge: the acceptance number (>= 0.95) is printed next to the figure.

Run with Debian's python3 (gensim 4.2); for a fair speed peer point gensim at OpenBLAS:
  LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread /usr/bin/python3 \
      scripts/quality-word2vec.py --embedlab build/native/embedlab
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    from gensim.models import Word2Vec
except ImportError:
    sys.exit("quality-word2vec: gensim not found ---> HINT: run with /usr/bin/python3 (Debian's python3-gensim)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBES = ["king", "love", "good", "lord", "man", "death", "day", "father"]


def read_sentences(path):
    with open(path, encoding="utf-8") as f:
        return [line.lower().split() for line in f if line.strip()]


def gensim_speed(sentences, sg, seed):
    """Times model.train() alone (vocabulary built beforehand), as gensim reports words/s."""
    model = Word2Vec(vector_size=100, window=5, negative=5, min_count=5, epochs=5, sg=sg,
                     workers=1, seed=seed)
    model.build_vocab(sentences)
    t0 = time.perf_counter()
    effective, raw = model.train(sentences, total_examples=model.corpus_count, epochs=model.epochs)
    elapsed = time.perf_counter() - t0
    return model, effective / elapsed, raw / elapsed, elapsed


def read_tsv(directory):
    vectors = np.loadtxt(os.path.join(directory, "vectors.tsv"), delimiter="\t", dtype=np.float64, ndmin=2)
    with open(os.path.join(directory, "metadata.tsv"), encoding="utf-8") as f:
        words = [line.rstrip("\n") for line in f]
    if words and words[0] == "word\tcount":  # two-column metadata has a header row
        words = [w.split("\t")[0] for w in words[1:]]
    if len(words) != len(vectors):
        sys.exit(f"quality-word2vec: {directory} has {len(vectors)} vectors but {len(words)} words")
    return dict(zip(words, vectors))


def cosine_matrix(rows):
    m = np.asarray(rows, dtype=np.float64)
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    return m @ m.T


def rankdata(x):
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x), dtype=np.float64)
    ranks[order] = np.arange(len(x), dtype=np.float64)
    return ranks  # ties are negligible for continuous similarities


def spearman(a, b):
    ra, rb = rankdata(a), rankdata(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def pairwise_spearman(words, va, vb):
    iu = np.triu_indices(len(words), k=1)
    ca = cosine_matrix([va[w] for w in words])[iu]
    cb = cosine_matrix([vb[w] for w in words])[iu]
    return spearman(ca, cb)


def neighbours(vecs, word, k=5):
    if word not in vecs:
        return []
    words = list(vecs)
    m = np.asarray([vecs[w] for w in words], dtype=np.float64)
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    sims = m @ m[words.index(word)]
    order = [i for i in np.argsort(-sims) if words[i] != word][:k]
    return [f"{words[i]} {sims[i]:.2f}" for i in order]


def run_embedlab(binary, corpus, sg, seed, out_dir):
    cmd = [binary, "train", "--model", "skipgram" if sg else "cbow", "--encoding", "whitespace",
           "--lowercase", "--vector-size", "100", "--window", "5", "--negative", "5",
           "--min-count", "5", "--epochs", "5", "--seed", str(seed), corpus, "--out-tsv", out_dir]
    print("running:", " ".join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"quality-word2vec: embedlab train failed (exit {done.returncode}) ---> HINT: build it first (scripts/build)")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "web/corpora/tinyshakespeare.txt"))
    ap.add_argument("--embedlab", default=os.path.join(ROOT, "build/native/embedlab"))
    ap.add_argument("--tsv", help="use vectors.tsv + metadata.tsv from this directory instead of running embedlab")
    ap.add_argument("--cbow", action="store_true", help="compare CBOW (sg=0) instead of skip-gram")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=500)
    args = ap.parse_args()
    sg = 0 if args.cbow else 1

    sentences = read_sentences(args.corpus)
    print(f"corpus {args.corpus}: {len(sentences)} sentences, {sum(map(len, sentences))} words", file=sys.stderr)
    g1, eff_s, raw_s, g_elapsed = gensim_speed(sentences, sg, args.seed)
    print(f"gensim sg={sg}: {eff_s:.0f} effective words/s, {raw_s:.0f} raw words/s ({g_elapsed:.2f} s)", file=sys.stderr)
    g2, _, _, _ = gensim_speed(sentences, sg, args.seed + 1)

    summary = {}
    if args.tsv:
        tsv_dir = args.tsv
    else:
        tsv_dir = tempfile.mkdtemp(prefix="embedlab-w2v-")
        summary["embedlab"] = run_embedlab(args.embedlab, args.corpus, sg, args.seed, tsv_dir)
    ours = read_tsv(tsv_dir)
    gen1 = {w: g1.wv[w] for w in g1.wv.index_to_key}
    gen2 = {w: g2.wv[w] for w in g2.wv.index_to_key}

    top = [w for w in g1.wv.index_to_key[: args.top]]
    missing = [w for w in top if w not in ours]
    if missing:
        sys.exit(f"quality-word2vec: {len(missing)} of the top {args.top} gensim words are missing from embedlab's vocabulary, e.g. {missing[:5]}")
    rho = pairwise_spearman(top, ours, gen1)
    rho_gg = pairwise_spearman(top, gen2, gen1)
    print(f"Spearman of pairwise cosines over the top {args.top} words: embedlab vs gensim {rho:.4f} "
          f"(target >= 0.95); gensim seed {args.seed} vs seed {args.seed + 1}: {rho_gg:.4f}")
    for w in PROBES:
        print(f"  {w:8s} embedlab: {', '.join(neighbours(ours, w))}")
        print(f"  {'':8s} gensim:   {', '.join(neighbours(gen1, w))}")
    summary.update({
        "sg": sg, "top": args.top, "spearman_embedlab_gensim": round(rho, 4),
        "spearman_gensim_gensim": round(rho_gg, 4),
        "gensim_effective_words_per_s": round(eff_s), "gensim_raw_words_per_s": round(raw_s),
        "vocab_embedlab": len(ours), "vocab_gensim": len(gen1),
    })
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
