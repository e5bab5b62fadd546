"""The extrapolation table of scripts/quality-next-token.py --extrapolation (issue 26).

What it does: for each positional kind of the registry and each seed, one run of
  embedlab train --model next-token --encoding char --pos P --seed S --vector-size 32 --context 32
      --batch-size 16 --optimizer adam --lr 0.01 --steps 600 --finetune-context 64
      --finetune-steps 100 CORPUS
(the page's "Compare encodings" card defaults), and from its JSON the held-out loss at T, 2T, 4T
and 8T before the fine-tune (finetune.valid_loss_by_length_before) and after it
(valid_loss_by_length). A kind the CLI refuses to fine-tune (it exits non-zero before any step,
e.g. learned: no rows past T) is run again without the fine-tune, with --eval-lengths T,2T,4T,8T;
a length it cannot evaluate keeps the CLI's error text instead of a number. It prints the
markdown table (mean and min-max over seeds), the paired differences of the rotation kinds from
rope, and the JSON summary line last.
It does not change kind parameters (registry defaults) and does not run anything in parallel.
"""
import json
import statistics
import subprocess
import sys

T = 32
LENGTHS = [T, 2 * T, 4 * T, 8 * T]
# the page's "Compare encodings" card defaults (web/src/state.js: tD, ctx, tB, opt, lr, cmp, cmpFt)
SETTINGS = ["--encoding", "char", "--vector-size", "32", "--context", str(T), "--batch-size", "16",
            "--optimizer", "adam", "--lr", "0.01"]


def train(binary, corpus, pos, seed, steps, extra):
    """One `embedlab train` run -> (JSON result or None, last stderr line)."""
    cmd = [binary, "train", "--threads", "1", "--model", "next-token", "--pos", pos, "--seed", str(seed),
           *SETTINGS, "--steps", str(steps), *extra, corpus]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    if done.returncode != 0:
        return None, err
    return json.loads(done.stdout.strip().splitlines()[-1]), err


def by_length(items):
    """[{length, loss} | {length, loss: null, error}] -> {length: loss or error text}."""
    return {it["length"]: (it["loss"] if it.get("loss") is not None else it.get("error", "no value")) for it in items}


def one_seed(binary, corpus, pos, seed, steps, ft_steps):
    """-> {"before": {L: loss|text}, "after": {L: loss|text} or the refusal text}."""
    r, err = train(binary, corpus, pos, seed, steps, ["--finetune-context", str(2 * T), "--finetune-steps", str(ft_steps)])
    if r is not None:
        return {"before": by_length(r["finetune"]["valid_loss_by_length_before"]), "after": by_length(r["valid_loss_by_length"])}
    plain, err2 = train(binary, corpus, pos, seed, steps, ["--eval-lengths", ",".join(map(str, LENGTHS))])
    if plain is None:
        sys.exit(f"quality-next-token: --pos {pos} --seed {seed} failed: {err2} ---> HINT: build it first (scripts/build)")
    return {"before": by_length(plain["valid_loss_by_length"]), "after": err.removeprefix("embedlab: ")}


def summary(values):
    """Numbers over seeds -> {mean, min, max, sd}; any text (a refusal) -> that text."""
    texts = [v for v in values if isinstance(v, str)]
    if texts:
        return texts[0]
    return {"mean": round(statistics.fmean(values), 4), "min": round(min(values), 4), "max": round(max(values), 4),
            "sd": round(statistics.stdev(values), 4) if len(values) > 1 else 0.0}


def cell(s):
    if isinstance(s, str):
        return "no rows past T" if "positions have no rows" in s or "beyond" in s else s
    return f"{s['mean']:.3f} ({s['min']:.3f}–{s['max']:.3f})"


def main(binary, corpus, kinds_info, seeds, steps, ft_steps):
    runs = {}  # kind -> [one_seed result per seed]
    for k in kinds_info:
        runs[k["name"]] = []
        for seed in seeds:
            r = one_seed(binary, corpus, k["name"], seed, steps, ft_steps)
            runs[k["name"]].append(r)
            after = r["after"] if isinstance(r["after"], str) else " ".join(f"{r['after'][L]:.4f}" for L in LENGTHS)
            before = " ".join(f"{v:.4f}" if not isinstance(v, str) else "-" for v in (r["before"][L] for L in LENGTHS))
            print(f"{k['name']:12s} seed {seed}: before {before} | after {after}", file=sys.stderr)

    table = {}
    for name, rs in runs.items():
        table[name] = {"before": {L: summary([r["before"][L] for r in rs]) for L in LENGTHS}}
        if isinstance(rs[0]["after"], str):
            table[name]["after"] = rs[0]["after"]
        else:
            table[name]["after"] = {L: summary([r["after"][L] for r in rs]) for L in LENGTHS}

    n = len(seeds)
    print(f"Held-out loss (nats/char) by evaluation length; mean (min–max) over {n} seeds "
          f"({','.join(map(str, seeds))}); without: {steps} steps at T = {T}; with: then {ft_steps} at {2 * T}.\n")
    print("| kind | fine-tune | " + " | ".join(f"at {L}" + (" (T)" if L == T else f" ({L // T}T)") for L in LENGTHS) + " |")
    print("|---|---|" + "---|" * len(LENGTHS))
    for name, t in table.items():
        print(f"| `{name}` | without | " + " | ".join(cell(t["before"][L]) for L in LENGTHS) + " |")
        after = t["after"]
        if isinstance(after, str):
            print(f"| `{name}` | with | refused: {after} |" + " |" * (len(LENGTHS) - 1))
        else:
            print(f"| `{name}` | with | " + " | ".join(cell(after[L]) for L in LENGTHS) + " |")

    # paired by seed: a seed fixes the batch order (and the draws of the tables every kind has)
    rot = [k["name"] for k in kinds_info if k["provides"] == "rotation" and k["name"] != "rope"]
    diffs = {}
    if "rope" in runs and rot:
        print(f"\nPaired difference from `rope` (same seed), mean (min to max) over {n} seeds, and in how many seeds the "
              f"kind's loss is below rope's; negative = lower loss than rope.\n")
        print("| kind | fine-tune | " + " | ".join(f"at {L}" for L in LENGTHS) + " |")
        print("|---|---|" + "---|" * len(LENGTHS))
        for name in rot:
            diffs[name] = {}
            for phase, label in (("before", "without"), ("after", "with")):
                per_seed = {L: [a[phase][L] - b[phase][L] for a, b in zip(runs[name], runs["rope"])] for L in LENGTHS}
                d = {L: summary(per_seed[L]) for L in LENGTHS}
                for L in LENGTHS:
                    d[L]["below"] = sum(1 for x in per_seed[L] if x < 0)
                diffs[name][phase] = d
                print(f"| `{name}` | {label} | " + " | ".join(
                    f"{d[L]['mean'] + 0:+.3f} ({d[L]['min'] + 0:+.3f} to {d[L]['max'] + 0:+.3f}); {d[L]['below']}/{n} below"
                    for L in LENGTHS) + " |")
    print()
    print(json.dumps({"extrapolation": {"context": T, "lengths": LENGTHS, "steps": steps, "finetune_context": 2 * T,
                                        "finetune_steps": ft_steps, "seeds": seeds, "held_out": table,
                                        "minus_rope": diffs}}))
