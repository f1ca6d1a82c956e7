#!/usr/bin/env bash
# Searches over listings with fees against the same listings without: two indexes of one seed (`generate
# --pricing dynamic` with and without `--fees`), the 700-query mix (peers.py --emit-queries) run by `batch
# --threads 1` and `--threads 2`, the two indexes interleaved for five rounds. Prints each round's took_us p50
# and p99 and the steadier figure: each query's median over the rounds, their p50, p99 and mean, and the ratios
# with fees ÷ without. Then the index bytes of both.
#
#   bash Benchmarks/fees.sh [--plain FILE --fees FILE] [LISTINGS]   (default 1,000,000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
plain="" fees=""
while [ $# -gt 0 ]; do
  case "$1" in
    --plain) plain=$2; shift 2 ;;
    --fees) fees=$2; shift 2 ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-fees.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$plain" ]; then
  plain="$work/plain.ssx" fees="$work/fees.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing dynamic --output "$plain" >/dev/null
  "$bin" generate --listings "$listings" --seed 1 --pricing dynamic --fees --output "$fees" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$plain" --queries 700 --seed 1 > "$work/mix.jsonl"
python3 - "$bin" "$plain" "$fees" "$work" <<'PY'
import json, os, statistics, subprocess, sys
binary, plain, fees, work = sys.argv[1:5]
pick = lambda values, p: values[max(0, -(-p * len(values) // 100) - 1)]
rounds = 5
for threads in ("1", "2"):
    runs = {"without": [], "with": []}
    print(f"the 700-query mix, batch --threads {threads}, {rounds} interleaved rounds")
    print("| round | fees | p50 µs | p99 µs |")
    print("|---|---|---:|---:|")
    for round in range(rounds):
        for kind in (("without", "with") if round % 2 == 0 else ("with", "without")):
            out = subprocess.run([binary, "batch", "--index", plain if kind == "without" else fees, "--queries", f"{work}/mix.jsonl",
                                  "--threads", threads], capture_output=True, text=True, check=True).stdout
            answers = [json.loads(line) for line in out.splitlines()]
            errors = [a["error"] for a in answers if "error" in a]
            if errors: sys.exit(f"{kind}: {len(errors)} errors, first: {errors[0]}")
            runs[kind].append([a["took_us"] for a in answers])
            took = sorted(a["took_us"] for a in answers)
            print(f"| {round + 1} | {kind} | {pick(took, 50):,} | {pick(took, 99):,} |")
    medians = {kind: sorted(statistics.median(run[k] for run in runs[kind]) for k in range(len(runs[kind][0]))) for kind in runs}
    summary = {kind: (pick(v, 50), pick(v, 99), sum(v) / len(v)) for kind, v in medians.items()}
    for kind in ("without", "with"):
        print(f"{kind} fees, each query's median over the rounds: p50 / p99 / mean " + " / ".join(f"{v:,.0f}" for v in summary[kind]) + " µs")
    print("with ÷ without: p50 {:.2f}×, p99 {:.2f}×, mean {:.2f}×".format(*(summary["with"][k] / summary["without"][k] for k in range(3))))
size = lambda path: os.path.getsize(path)
print(f"index: without fees {size(plain):,} bytes, with fees {size(fees):,} bytes")
PY
