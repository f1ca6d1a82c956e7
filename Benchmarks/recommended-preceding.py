#!/usr/bin/env python3
"""Does the recommended order pay for its own reads, or for what the queries before it left in cache?

    python3 Benchmarks/recommended-preceding.py --index FILE [--rounds 5] [--threads 1]

Takes the 700-query mix of the index (`peers.py --emit-queries`, seed 1) and runs four `batch` files in
which every query k of the mix comes straight after query k − 1, each in one of the two orders:

    PP  k − 1 by price,        k by price
    PR  k − 1 by price,        k recommended
    RR  k − 1 recommended,     k recommended
    RP  k − 1 recommended,     k by price

Only query k's `took_us` is kept; the files run interleaved for `--rounds` rounds and each query's median
over the rounds is the figure. PR ÷ PP is what the recommended order costs with the cache as a price-order
query left it; RR ÷ PR is what a recommended query before it adds (1.00×: nothing).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build/release/staysearch"))
VARIANTS = {"PP": ("price", "price"), "PR": ("price", "recommended"),
            "RR": ("recommended", "recommended"), "RP": ("recommended", "price")}


def pick(values, percent):
    """The nearest-rank percentile of sorted `values`."""
    return values[max(0, -(-percent * len(values) // 100) - 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    options = parser.parse_args()
    emitted = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/peers/peers.py"), "--emit-queries",
                              options.index, "--queries", "700", "--seed", "1"], capture_output=True, text=True, check=True)
    mix = [json.loads(line) for line in emitted.stdout.splitlines()]
    with tempfile.TemporaryDirectory(prefix="staysearch-preceding.") as work:
        for variant, (before, after) in VARIANTS.items():
            with open(os.path.join(work, variant + ".jsonl"), "w") as file:
                for k in range(1, len(mix)):
                    file.write(json.dumps(dict(mix[k - 1], sort=before), ensure_ascii=False) + "\n")
                    file.write(json.dumps(dict(mix[k], sort=after), ensure_ascii=False) + "\n")
        runs = {variant: [] for variant in VARIANTS}
        order = list(VARIANTS)
        for round in range(options.rounds):
            for variant in (order if round % 2 == 0 else order[::-1]):
                out = subprocess.run([BIN, "batch", "--index", options.index, "--queries", os.path.join(work, variant + ".jsonl"),
                                      "--threads", str(options.threads)], capture_output=True, text=True, check=True).stdout
                answers = [json.loads(line) for line in out.splitlines()]
                errors = [answer["error"] for answer in answers if "error" in answer]
                if errors:
                    sys.exit(f"{variant}: {len(errors)} errors, first: {errors[0]}")
                runs[variant].append([answer["took_us"] for answer in answers[1::2]])
    count = len(mix) - 1
    medians = {variant: [statistics.median(run[k] for run in runs[variant]) for k in range(count)] for variant in VARIANTS}
    print(f"the mix's queries 2–700 each after the one before it, batch --threads {options.threads}, "
          f"{options.rounds} interleaved rounds, each query's median")
    print("| query k − 1, query k | p50 µs | p99 µs | mean µs |")
    print("|---|---:|---:|---:|")
    for variant, (before, after) in VARIANTS.items():
        values = sorted(medians[variant])
        print(f"| {before}, {after} | {pick(values, 50):,.0f} | {pick(values, 99):,.0f} | {sum(values) / count:,.0f} |")
    for numerator, denominator in (("PR", "PP"), ("RR", "PR"), ("RR", "PP"), ("RP", "PP")):
        top, bottom = sorted(medians[numerator]), sorted(medians[denominator])
        each = statistics.median(a / b for a, b in zip(medians[numerator], medians[denominator]) if b > 0)
        print(f"{numerator} ÷ {denominator}: p50 {pick(top, 50) / pick(bottom, 50):.3f}×, p99 {pick(top, 99) / pick(bottom, 99):.3f}×, "
              f"mean {sum(top) / sum(bottom):.3f}×, per-query median {each:.3f}×")


if __name__ == "__main__":
    main()
