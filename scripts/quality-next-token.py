#!/usr/bin/python3
"""Held-out loss of the next-token model per positional encoding on a character task.

What it does: for each encoding of the engine's registry (`embedlab kinds`) and each seed, runs
  embedlab train --model next-token --encoding char --pos P --seed S CORPUS
with the same settings (D 64, T 64, B 32, Adam lr 3e-3, 1000 steps; the last 10% of the
characters held out), and prints the held-out loss (nats per character) per encoding, the
mean over seeds, and how much worse "none" is than the best encoding. Character order
matters here (which letters follow which), so a model without positions should be clearly
worse. The JSON summary is the last line on stdout.

With --extrapolation (issue 26, "what it shows"): for each kind of the registry and each seed, the
settings of the page's "Compare encodings" card (D 32, T 32, B 16, Adam lr 0.01, 600 steps), then
a fine-tune of 100 steps at 2T; the held-out loss at T, 2T, 4T and 8T without the fine-tune (the
CLI's finetune.valid_loss_by_length_before: the same numbers as a run of 600 steps alone) and
with it (valid_loss_by_length). A kind the CLI refuses to fine-tune (learned: no rows past T) is
run without it, and its table cells carry the CLI's words instead of numbers. Prints a markdown
table of the mean and the range (min-max) over seeds, then the paired difference (same seed) of
each rotation kind from rope, then the JSON summary line. Kind parameters stay at the registry's
defaults. Runs one process at a time, each with --threads 1 (the bytes are the same at any count).

Usage: scripts/quality-next-token.py [--embedlab build/native/embedlab] [--corpus FILE]
                                      [--steps 1000] [--seeds 1,2]
       scripts/quality-next-token.py --extrapolation [--seeds 1,2,3,4,5] [--steps 600]
                                      [--finetune-steps 100]
"""
import argparse
import json
import os
import subprocess
import sys

import quality_extrapolation

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kinds_info(binary):
    """The positional kinds of the engine's registry, in its order, as `embedlab kinds` gives them."""
    out = subprocess.run([binary, "kinds"], stdout=subprocess.PIPE, check=True, text=True).stdout
    return json.loads(out)["positional"]


def kinds(binary):
    """The names of the positional kinds of the engine's registry, in its order."""
    return [k["name"] for k in kinds_info(binary)]


def run(binary, corpus, pos, seed, steps):
    cmd = [binary, "train", "--model", "next-token", "--encoding", "char", "--pos", pos, "--seed", str(seed),
           "--steps", str(steps), "--vector-size", "64", "--context", "64", "--batch-size", "32",
           "--optimizer", "adam", "--lr", "3e-3", corpus]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if done.returncode != 0:
        sys.exit(f"quality-next-token: {' '.join(cmd)} failed (exit {done.returncode}) ---> HINT: build it first (scripts/build)")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--embedlab", default=os.path.join(ROOT, "build/native/embedlab"))
    ap.add_argument("--corpus", default=os.path.join(ROOT, "web/corpora/tinyshakespeare.txt"))
    ap.add_argument("--steps", type=int, help="training steps (default 1000; 600 with --extrapolation)")
    ap.add_argument("--seeds", help="comma list (default 1,2; 1,2,3,4,5 with --extrapolation)")
    ap.add_argument("--extrapolation", action="store_true",
                    help="held-out loss at T, 2T, 4T, 8T per kind, without and with a fine-tune at 2T")
    ap.add_argument("--finetune-steps", type=int, default=100, help="with --extrapolation: steps of the fine-tune at 2T")
    args = ap.parse_args()
    if args.extrapolation:
        seeds = [int(s) for s in (args.seeds if args.seeds is not None else "1,2,3,4,5").split(",")]
        quality_extrapolation.main(args.embedlab, args.corpus, kinds_info(args.embedlab), seeds,
                                   args.steps if args.steps is not None else 600, args.finetune_steps)
        return
    args.steps = args.steps if args.steps is not None else 1000
    args.seeds = args.seeds if args.seeds is not None else "1,2"
    seeds = [int(s) for s in args.seeds.split(",")]

    table = {}
    for pos in kinds(args.embedlab):
        losses = []
        for seed in seeds:
            r = run(args.embedlab, args.corpus, pos, seed, args.steps)
            losses.append(r["valid_loss"])
            print(f"{pos:11s} seed {seed}: train {r['loss']:.4f}  held-out {r['valid_loss']:.4f}  "
                  f"({r['tokens_per_s']:.0f} tokens/s)", file=sys.stderr)
        table[pos] = {"held_out": [round(x, 4) for x in losses], "mean": round(sum(losses) / len(losses), 4)}
    best = min((v["mean"], k) for k, v in table.items() if k != "none")
    print(f"held-out loss (nats/char, mean of seeds {args.seeds}, {args.steps} steps):")
    for pos in kinds(args.embedlab):
        print(f"  {pos:11s} {table[pos]['mean']:.4f}")
    gap = table["none"]["mean"] - best[0]
    print(f"none is {gap:.4f} nats/char worse than the best encoding ({best[1]})")
    print(json.dumps({"steps": args.steps, "seeds": seeds, "held_out": table, "best": best[1],
                      "none_minus_best": round(gap, 4)}))


if __name__ == "__main__":
    main()
