#!/usr/bin/env bash
# The instructions of a search over every listing in dollars and in another currency (`--currency VND`, dong, or
# KRW, won), counted by callgrind: deterministic where `currency.sh`'s times swing from run to run. For 1, 7 and 14
# nights, the first two searches of that length of `currency.sh`'s set (seed 1; by price, the histogram built) run
# through `batch --threads N` once and four times over; the difference ÷ 6 is a search's instructions with the
# index warm (the load and the first search's page faults cancel). Prints both, their ratio, and the first-level
# data cache misses a search.
#
#   bash Benchmarks/currency-instructions.sh [--currency VND|KRW] [--threads 1|2] [--dollars FILE --won FILE] [LISTINGS]
#   (default 1,000,000 dynamic listings, VND, 2 threads; needs valgrind: apt-get install valgrind)
#   STAYSEARCH_BIN=path/to/staysearch measures that build instead of this checkout's (to compare two).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
currency=VND threads=2 dollars="" won=""
while [ $# -gt 0 ]; do
  case "$1" in
    --currency) currency=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --dollars) dollars=$2; shift 2 ;;
    --won) won=$2; shift 2 ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
command -v valgrind > /dev/null || { echo "currency-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
source_bin=${STAYSEARCH_BIN:-}
if [ -z "$source_bin" ]; then
  make -C "$root" --no-print-directory release >&2
  source_bin="$root/.build/release/staysearch"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Callgrind names functions best without debug information.
strip --strip-debug -o "$work/staysearch" "$source_bin"
bin="$work/staysearch"
if [ -z "$dollars" ]; then
  dollars="$work/dollars.ssx" won="$work/won.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing dynamic --output "$dollars" >&2
  "$bin" generate --listings "$listings" --seed 1 --pricing dynamic --currency "$currency" --output "$won" >&2
fi
python3 - "$bin" "$dollars" "$won" "$work" "$currency" "$threads" <<'PY'
import datetime, json, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
binary, dollars, won, work, currency, threads = sys.argv[1:7]
random.seed(1)
first = datetime.date(2025, 6, 1)
byNights = {}
for k in range(50):
    nights = [0, 1, 3, 7, 14][k % 5]
    query = {"adults": random.choice([1, 2]), "sort": "price", "limit": 20}
    if nights:
        check_in = first + datetime.timedelta(days=random.randrange(1, 330))
        query["checkin"], query["checkout"] = str(check_in), str(check_in + datetime.timedelta(days=nights))
    byNights.setdefault(nights, []).append(query)

def totals(path):
    # Every thread's part: callgrind writes one file per thread when asked, one in all by default.
    for line in open(path):
        if line.startswith("summary:") or line.startswith("totals:"):
            return [int(x) for x in line.split()[1:]]
    raise SystemExit(f"no totals in {path}")

def run(index, queries, name):
    path = f"{work}/{name}.jsonl"
    with open(path, "w") as out:
        out.writelines(json.dumps(q) + "\n" for q in queries)
    profile = f"{work}/{name}.callgrind"
    subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", f"--callgrind-out-file={profile}", binary, "batch",
                    "--index", index, "--queries", path, "--threads", threads],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return totals(profile)

events = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw".split()
print(f"callgrind, batch --threads {threads}: a search's instructions and first-level data misses, index warm")
print(f"| nights | dollars instructions | {currency} instructions | {currency} ÷ dollars | dollars L1 misses | {currency} L1 misses |")
print("|---:|---:|---:|---:|---:|---:|")
for nights in (1, 7, 14):
    queries = byNights[nights][:2]
    jobs = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for kind, index in (("dollars", dollars), ("won", won)):
            jobs[kind] = (pool.submit(run, index, queries, f"{kind}-{nights}-once"), pool.submit(run, index, queries * 4, f"{kind}-{nights}-four"))
        steady = {}
        for kind, (once, four) in jobs.items():
            a, b = once.result(), four.result()
            steady[kind] = {name: (y - x) / 6 for name, x, y in zip(events, a, b)}
    misses = {kind: steady[kind]["D1mr"] + steady[kind]["D1mw"] for kind in steady}
    print(f"| {nights} | {steady['dollars']['Ir'] / 1e6:.1f}M | {steady['won']['Ir'] / 1e6:.1f}M | "
          f"{steady['won']['Ir'] / steady['dollars']['Ir']:.2f}× | {misses['dollars'] / 1e6:.2f}M | {misses['won'] / 1e6:.2f}M |")
PY
