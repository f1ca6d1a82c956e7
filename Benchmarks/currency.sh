#!/usr/bin/env bash
# Searches over listings priced in won (or another currency: `--currency VND`, dong, whose dearest nights are wide
# prices) against the same listings priced in dollars: two indexes of one seed
# (`generate --pricing KIND`, with and without `--currency KRW`), 50 searches over every listing (no dates, and
# 1, 3, 7 and 14 nights; one or two adults; price order, the histogram built), run by `batch --threads 1` and
# `--threads 2`, the two indexes interleaved for five rounds. Prints each kind of query's median took_us (each
# query's median over the rounds, then the median of those) in dollars and in the other currency, the ratio of
# the two, and the index bytes of both.
#
#   bash Benchmarks/currency.sh [--pricing dynamic|calibrated] [--currency KRW|JPY|VND] [--dollars FILE --won FILE] [LISTINGS]
#   (default 1,000,000 listings, KRW; --won names the other currency's index whatever it is)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pricing=dynamic currency=KRW dollars="" won=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pricing) pricing=$2; shift 2 ;;
    --currency) currency=$2; shift 2 ;;
    --dollars) dollars=$2; shift 2 ;;
    --won) won=$2; shift 2 ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-currency.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$dollars" ]; then
  dollars="$work/dollars.ssx" won="$work/won.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$dollars" >&2
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --currency "$currency" --output "$won" >&2
fi
python3 - "$bin" "$dollars" "$won" "$work" "$currency" <<'PY'
import datetime, json, os, random, statistics, subprocess, sys
binary, dollars, won, work, currency = sys.argv[1:6]
random.seed(1)
first = datetime.date(2025, 6, 1)
queries, kinds = [], []
for k in range(50):
    nights = [0, 1, 3, 7, 14][k % 5]
    query = {"adults": random.choice([1, 2]), "sort": "price", "limit": 20}
    if nights:
        check_in = first + datetime.timedelta(days=random.randrange(1, 330))
        query["checkin"], query["checkout"] = str(check_in), str(check_in + datetime.timedelta(days=nights))
    queries.append(query)
    kinds.append(f"{nights} nights" if nights else "no dates")
with open(f"{work}/queries.jsonl", "w") as out:
    out.writelines(json.dumps(q) + "\n" for q in queries)
rounds = 5
for threads in ("1", "2"):
    runs = {"dollars": [], "won": []}
    for round in range(rounds):
        for kind in (("dollars", "won") if round % 2 == 0 else ("won", "dollars")):
            out = subprocess.run([binary, "batch", "--index", dollars if kind == "dollars" else won, "--queries", f"{work}/queries.jsonl",
                                  "--threads", threads], capture_output=True, text=True, check=True).stdout
            answers = [json.loads(line) for line in out.splitlines()]
            errors = [a["error"] for a in answers if "error" in a]
            if errors: sys.exit(f"{kind}: {len(errors)} errors, first: {errors[0]}")
            runs[kind].append([a["took_us"] for a in answers])
    print(f"batch --threads {threads}, {rounds} interleaved rounds: each kind's median took_us")
    print(f"| queries | dollars µs | {currency} µs | {currency} ÷ dollars |")
    print("|---|---:|---:|---:|")
    for name in ("no dates", "1 nights", "3 nights", "7 nights", "14 nights"):
        picked = [k for k, kind in enumerate(kinds) if kind == name]
        median = {kind: statistics.median(statistics.median(run[k] for run in runs[kind]) for k in picked) for kind in runs}
        print(f"| {name} | {median['dollars']:,.0f} | {median['won']:,.0f} | {median['won'] / median['dollars']:.2f}× |")
size = lambda path: os.path.getsize(path)
print(f"index: dollars {size(dollars):,} bytes, {currency} {size(won):,} bytes, {currency} ÷ dollars {size(won) / size(dollars):.3f}×")
PY
