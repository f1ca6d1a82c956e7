#!/usr/bin/env bash
# How close the queries without a region come to this machine's memory bandwidth (a roofline).
#
# 1. The machine's sustained read bandwidth, one thread and two (Benchmarks/roofline/bandwidth.c: each thread
#    sums its share of a 1 GiB buffer, best of 7).
# 3. Travellers who have not picked a place (`peers.py --travellers 120`: every listing, one or two adults, no
#    other filter, stays of 1, 2, 3, 7 and 14 nights and none), by stay length: took_us p50 / p99 and ns a row,
#    one thread and two, three rounds.
# 2. The mix's queries without a region on a generated index (they scan every row), `batch` with 1 and 2
#    threads, three rounds (the median took_us of each query kept). For each query, the bytes it must read at
#    least: the bit set of every night of the stay (rows / 8 bytes a night; without dates the priced-without-
#    dates bits), the guests column (1 byte a row), the room type column when it filters (1 byte a row), and
#    for each priced candidate (the histogram's count) its price: 4 bytes of run offset and 4 of value on a
#    calibrated index, on a dynamic one 4 of run offset, 2 + 2 of running sums at the stay's ends and 2 of the
#    row's dearest night, whatever the stay's length (4 bytes without dates).
#    Bound = bytes ÷ bandwidth; achieved ÷ bound is how far from the roof a query runs, ns a row its cost.
#
#   bash Benchmarks/roofline.sh [--pricing calibrated|dynamic] [--index FILE] [LISTINGS]   (default 1,000,000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pricing=calibrated
index=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pricing) pricing=$2; shift 2 ;;
    --index) index=$2; shift 2 ;;
    *) break ;;
  esac
done
listings=${1:-1000000}
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-roofline.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc -O3 -march=native -pthread "$root/Benchmarks/roofline/bandwidth.c" -o "$work/bandwidth"
one=$("$work/bandwidth" 1024 1 | cut -d' ' -f1)
two=$("$work/bandwidth" 1024 2 | cut -d' ' -f1)
if [ -z "$index" ]; then
  index="$work/index.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --queries 700 --seed 1 > "$work/mix.jsonl"
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --travellers 120 --seed 1 > "$work/travellers.jsonl"
python3 - "$bin" "$index" "$work" "$pricing" "$one" "$two" <<'PY'
import json, statistics, subprocess, sys
from datetime import date
binary, index, work, pricing, one, two = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
info = subprocess.run([binary, "regions", "--index", index, "--json"], capture_output=True, text=True, check=True).stdout
listings = sum(json.loads(line)["listings"] for line in info.splitlines() if json.loads(line)["level"] == "city")
queries = [json.loads(line) for line in open(f"{work}/mix.jsonl")]
queries = [q for q in queries if "region" not in q]
with open(f"{work}/noregion.jsonl", "w") as f:
    for q in queries: f.write(json.dumps(q) + "\n")
print(f"pricing: {pricing}; {listings:,} listings; {len(queries)} queries of the 700-query mix have no region")
print(f"read bandwidth: {one:.1f} GB/s with 1 thread, {two:.1f} GB/s with 2 (bandwidth.c, 1 GiB, best of 7)")
print("| threads | bytes a query must read (median) | bound (median) | achieved took_us p50 / p99 | achieved ÷ bound p50 / p99 | ns a row p50 |")
print("|---:|---:|---:|---:|---:|---:|")
for threads, bandwidth in ((1, one), (2, two)):
    runs = []
    for round in range(3):
        out = subprocess.run([binary, "batch", "--index", index, "--queries", f"{work}/noregion.jsonl", "--threads", str(threads)],
                             capture_output=True, text=True, check=True).stdout
        runs.append([json.loads(line) for line in out.splitlines()])
    took = [statistics.median(run[k]["took_us"] for run in runs) for k in range(len(queries))]
    if not any(answer.get("histogram", {}).get("count", 0) for answer in runs[0]):
        sys.exit("roofline: no query of the mix matched a listing (an index whose calendar the queries miss?); "
                 "nothing was measured")
    needed, ratios = [], []
    for q, answer, us in zip(queries, runs[0], took):
        nights = (date.fromisoformat(q["checkout"]) - date.fromisoformat(q["checkin"])).days if "checkin" in q else 0
        candidates = answer["histogram"]["count"]
        bits = listings / 8 * max(1, nights)
        columns = listings * (1 + (1 if "room_type" in q else 0))
        price = 4 if nights == 0 else (8 if pricing == "calibrated" else 10)
        total = bits + columns + candidates * price
        needed.append(total)
        ratios.append(us * 1e-6 / (total / (bandwidth * 1e9)))
    pick = lambda values, p: sorted(values)[max(0, -(-p * len(values) // 100) - 1)]
    bound_us = statistics.median(needed) / (bandwidth * 1e9) * 1e6
    print(f"| {threads} | {statistics.median(needed) / 1e6:.2f} MB | {bound_us:,.0f} µs | {pick(took, 50):,.0f} / {pick(took, 99):,.0f} µs | "
          f"{pick(ratios, 50):.1f}× / {pick(ratios, 99):.1f}× | {pick(took, 50) * 1000 / listings:.2f} |")

travellers = [json.loads(line) for line in open(f"{work}/travellers.jsonl")]
stay = lambda q: (date.fromisoformat(q["checkout"]) - date.fromisoformat(q["checkin"])).days if "checkin" in q else None
print()
print(f"travellers: {len(travellers)} queries over every listing (one or two adults, no other filter), by stay length")
print("| threads | stay | queries | took_us p50 / p99 | ns a row p50 / p99 |")
print("|---:|---|---:|---:|---:|")
for threads in (1, 2):
    runs = []
    for round in range(3):
        out = subprocess.run([binary, "batch", "--index", index, "--queries", f"{work}/travellers.jsonl", "--threads", str(threads)],
                             capture_output=True, text=True, check=True).stdout
        runs.append([json.loads(line) for line in out.splitlines()])
    if not any(answer.get("total", 0) for answer in runs[0]):
        sys.exit("roofline: no traveller query matched a listing; nothing was measured")
    took = [statistics.median(run[k]["took_us"] for run in runs) for k in range(len(travellers))]
    for length in (1, 2, 3, 7, 14, None):
        group = [us for q, us in zip(travellers, took) if stay(q) == length]
        p50, p99 = pick(group, 50), pick(group, 99)
        name = "no dates" if length is None else f"{length} night{'s' if length > 1 else ''}"
        print(f"| {threads} | {name} | {len(group)} | {p50:,.0f} / {p99:,.0f} µs | {p50 * 1000 / listings:.2f} / {p99 * 1000 / listings:.2f} |")
PY
