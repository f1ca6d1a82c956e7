#!/usr/bin/env bash
# The recommended order against the price order on one generated index: the 700-query mix run with
# "sort": "price" and with "sort": "recommended" (`batch --threads 1`, or N), interleaved for seven rounds. Prints
# each round's took_us p50, p99 and mean with the ratios of each round's pair, then the steadier figure: each
# query's median over the rounds, and of those the p50, p99 and mean in each order and their ratios (on a
# machine whose wall clock swings 25–50 % from one round to the next, the rounds' own ratios spread widely).
#
#   bash Benchmarks/recommended.sh [--pricing calibrated|dynamic] [--index FILE] [--threads N] [LISTINGS]   (default 1,000,000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pricing=calibrated
index=""
threads=1
while [ $# -gt 0 ]; do
  case "$1" in
    --pricing) pricing=$2; shift 2 ;;
    --index) index=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-recommended.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$index" ]; then
  index="$work/index.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --queries 700 --seed 1 > "$work/mix.jsonl"
python3 - "$bin" "$index" "$work" "$pricing" "$threads" <<'PY'
import json, subprocess, sys
binary, index, work, pricing, threads = sys.argv[1:6]
mix = [json.loads(line) for line in open(f"{work}/mix.jsonl")]
for order in ("price", "recommended"):
    with open(f"{work}/{order}.jsonl", "w") as f:
        for q in mix:
            f.write(json.dumps(dict(q, sort=order), ensure_ascii=False) + "\n")
pick = lambda values, p: values[max(0, -(-p * len(values) // 100) - 1)]
rounds = 7
print(f"pricing: {pricing}, the 700-query mix, batch --threads {threads}, {rounds} interleaved rounds")
print("| round | order | p50 µs | p99 µs | mean µs |")
print("|---|---|---:|---:|---:|")
figures = {"price": [], "recommended": []}
runs = {"price": [], "recommended": []}
for round in range(rounds):
    for order in (("price", "recommended") if round % 2 == 0 else ("recommended", "price")):
        out = subprocess.run([binary, "batch", "--index", index, "--queries", f"{work}/{order}.jsonl", "--threads", threads],
                             capture_output=True, text=True, check=True).stdout
        answers = [json.loads(line) for line in out.splitlines()]
        errors = [a["error"] for a in answers if "error" in a]
        if errors: sys.exit(f"{order}: {len(errors)} errors, first: {errors[0]}")
        runs[order].append([a["took_us"] for a in answers])
        took = sorted(a["took_us"] for a in answers)
        figures[order].append((pick(took, 50), pick(took, 99), sum(took) / len(took)))
        print(f"| {round + 1} | {order} | {pick(took, 50):,} | {pick(took, 99):,} | {sum(took) / len(took):,.0f} |")
for k, name in ((0, "p50"), (1, "p99"), (2, "mean")):
    ratios = [r[k] / p[k] for r, p in zip(figures["recommended"], figures["price"])]
    print(f"recommended ÷ price, {name}, the rounds' pairs: {min(ratios):.2f}–{max(ratios):.2f}×")
import statistics
medians = {order: sorted(statistics.median(run[k] for run in runs[order]) for k in range(len(mix))) for order in runs}
summary = {order: (pick(values, 50), pick(values, 99), sum(values) / len(values)) for order, values in medians.items()}
print("each query's median over the rounds: price p50 / p99 / mean " + " / ".join(f"{v:,.0f}" for v in summary["price"])
      + " µs, recommended " + " / ".join(f"{v:,.0f}" for v in summary["recommended"]) + " µs")
print("recommended ÷ price of those: p50 {:.2f}×, p99 {:.2f}×, mean {:.2f}×".format(
    *(summary["recommended"][k] / summary["price"][k] for k in range(3))))
PY
