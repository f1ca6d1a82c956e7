#!/usr/bin/env bash
# The same binary holding the index two ways (`--index-memory huge-pages` and `mapped`), the 700-query mix
# (or the 120 travellers' queries over every listing with --travellers) through `batch --threads 1` (or N),
# seven interleaved rounds. Prints each query's median over the rounds, and of those the p50, p99 and mean
# in each mode and their ratios.
#
#   bash Benchmarks/index-memory.sh [--pricing calibrated|dynamic] [--index FILE] [--threads N] [--travellers] [LISTINGS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pricing=calibrated
index=""
threads=1
mix=(--queries 700)
while [ $# -gt 0 ]; do
  case "$1" in
    --pricing) pricing=$2; shift 2 ;;
    --index) index=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --travellers) mix=(--travellers 120); shift ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-index-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$index" ]; then
  index="$work/index.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" "${mix[@]}" --seed 1 > "$work/queries.jsonl"
python3 - "$bin" "$index" "$work/queries.jsonl" "$threads" <<'PY'
import json, statistics, subprocess, sys
binary, index, queries, threads = sys.argv[1:5]
pick = lambda values, p: values[max(0, -(-p * len(values) // 100) - 1)]
modes, rounds = ("huge-pages", "mapped"), 7
runs = {mode: [] for mode in modes}
for round in range(rounds):
    for mode in (modes if round % 2 == 0 else modes[::-1]):
        out = subprocess.run([binary, "batch", "--index", index, "--queries", queries, "--threads", threads, "--index-memory", mode],
                             capture_output=True, text=True, check=True).stdout
        runs[mode].append([json.loads(line)["took_us"] for line in out.splitlines()])
count = len(runs[modes[0]][0])
summary = {}
for mode in modes:
    medians = sorted(statistics.median(run[k] for run in runs[mode]) for k in range(count))
    summary[mode] = (pick(medians, 50), pick(medians, 99), sum(medians) / count)
    print(f"{mode}: {count} queries, batch --threads {threads}, per-query medians of {rounds} rounds: "
          f"p50 {summary[mode][0]:,.0f} µs, p99 {summary[mode][1]:,.0f} µs, mean {summary[mode][2]:,.0f} µs")
print("huge-pages ÷ mapped: p50 {:.2f}×, p99 {:.2f}×, mean {:.2f}×".format(*(summary["huge-pages"][k] / summary["mapped"][k] for k in range(3))))
PY
