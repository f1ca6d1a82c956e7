#!/usr/bin/env bash
# The recommended order against the price order on one generated index: the 700-query mix run with
# "sort": "price" and with "sort": "recommended" (`batch --threads 1`, or N), interleaved for three rounds. Prints
# each round's took_us p50, p99 and mean, and the recommended ÷ price ratios. The recommended order ranks
# every match after the scan (its score needs the matches' median price), so it costs a pass over the matches.
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
print(f"pricing: {pricing}, the 700-query mix, batch --threads {threads}, three interleaved rounds")
print("| round | order | p50 µs | p99 µs | mean µs |")
print("|---|---|---:|---:|---:|")
figures = {"price": [], "recommended": []}
for round in range(3):
    for order in (("price", "recommended") if round % 2 == 0 else ("recommended", "price")):
        out = subprocess.run([binary, "batch", "--index", index, "--queries", f"{work}/{order}.jsonl", "--threads", threads],
                             capture_output=True, text=True, check=True).stdout
        answers = [json.loads(line) for line in out.splitlines()]
        errors = [a["error"] for a in answers if "error" in a]
        if errors: sys.exit(f"{order}: {len(errors)} errors, first: {errors[0]}")
        took = sorted(a["took_us"] for a in answers)
        figures[order].append((pick(took, 50), pick(took, 99), sum(took) / len(took)))
        print(f"| {round + 1} | {order} | {pick(took, 50):,} | {pick(took, 99):,} | {sum(took) / len(took):,.0f} |")
for k, name in ((0, "p50"), (1, "p99"), (2, "mean")):
    ratios = [r[k] / p[k] for r, p in zip(figures["recommended"], figures["price"])]
    print(f"recommended ÷ price, {name}: {min(ratios):.2f}–{max(ratios):.2f}×")
PY
