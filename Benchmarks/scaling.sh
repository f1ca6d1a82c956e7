#!/usr/bin/env bash
# How cost grows with the data: for each size, generate an index (365-day calendars), then load it
# and answer the peers' query mix (700 queries: region only, dates, dates + guests + price, no region,
# long stays, narrow and wide price ranges; histogram and top 20 each) with `staysearch batch`.
#   bash Benchmarks/scaling.sh [--pricing calibrated|dynamic] [SIZES...]   default: calibrated; 100000 1000000 10000000
# THREADS=1 gives one-core query figures (by default batch lets a query use every core).
# Prints one Markdown table: build time and peak memory, index size, load time, batch peak memory,
# p50/p90/p99 of took_us.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pricing=calibrated
if [ "${1:-}" = "--pricing" ]; then pricing=$2; shift 2; fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000 10000000)
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-scaling.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "pricing: $pricing"
echo "| listings | build s | build peak MiB | index MiB | bytes/listing | load ms | batch peak MiB | p50 µs | p90 µs | p99 µs |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  index="$work/$n.ssx"
  /usr/bin/time -f "%e %M" -o "$work/build.time" "$bin" generate --listings "$n" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
  read -r build_s build_kb < "$work/build.time"
  bytes=$(stat -c %s "$index")
  load_ms=$(for _ in 1 2 3 4 5; do "$bin" regions --index "$index" --stats 2>&1 >/dev/null \
    | sed -nE 's/.* in ([0-9.]+) ms.*/\1/p' | head -1; done | sort -n | sed -n 3p)
  python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --queries 700 --seed 1 > "$work/queries.jsonl"
  /usr/bin/time -f "%M" -o "$work/batch.time" "$bin" batch --index "$index" --queries "$work/queries.jsonl" ${THREADS:+--threads "$THREADS"} > "$work/answers.jsonl"
  batch_kb=$(cat "$work/batch.time")
  python3 - "$n" "$build_s" "$build_kb" "$bytes" "$load_ms" "$batch_kb" "$work/answers.jsonl" <<'PY'
import json, sys
n, build_s, build_kb, size, load_ms, batch_kb, answers = sys.argv[1:]
took = sorted(json.loads(line)["took_us"] for line in open(answers))
pick = lambda p: took[max(0, -(-p * len(took) // 100) - 1)]
print(f"| {int(n):,} | {float(build_s):.1f} | {int(build_kb) / 1024:,.0f} | {int(size) / 2**20:,.0f} | "
      f"{int(size) / int(n):.0f} | {load_ms} | {int(batch_kb) / 1024:,.0f} | {pick(50):,} | {pick(90):,} | {pick(99):,} |")
PY
  rm -f "$index"
done
