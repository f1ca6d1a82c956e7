#!/usr/bin/env bash
# Flexible dates against exact dates on one generated index: the dated queries of the 700-query mix
# (histogram and top 20) run three ways with `batch --threads 1`:
#   exact   — as they are;
#   ±3 days — the same with "flexible_days": 3 (7 check-ins);
#   window  — a 31-day window of check-ins centred on the query's check-in, 7 nights
#             (where the calendar allows it), the form of "a week in August".
# Prints took_us percentiles and each form's ratio to exact. The bounds of docs/query-semantics.md's targets: ±3 ≤ 3×, window ≤ 10×.
#
#   bash Benchmarks/flexible.sh [--pricing calibrated|dynamic] [--index FILE] [LISTINGS]   (default 1,000,000)
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
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-flexible.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$index" ]; then
  index="$work/index.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --queries 700 --seed 1 > "$work/mix.jsonl"
python3 - "$work" <<'PY'
import json, sys
from datetime import date, timedelta
work = sys.argv[1]
mix = [json.loads(line) for line in open(f"{work}/mix.jsonl")]
dated = [q for q in mix if "checkin" in q]
days = [date.fromisoformat(q["checkin"]) for q in dated] + [date.fromisoformat(q["checkout"]) for q in dated]
first, last = min(days), max(days)          # the calendar span the mix draws from
with open(f"{work}/exact.jsonl", "w") as exact, open(f"{work}/shift.jsonl", "w") as shift, open(f"{work}/window.jsonl", "w") as window:
    for q in dated:
        exact.write(json.dumps(q) + "\n")
        shift.write(json.dumps(dict(q, flexible_days=3)) + "\n")
        w = {k: v for k, v in q.items() if k not in ("checkin", "checkout")}
        start = date.fromisoformat(q["checkin"]) - timedelta(days=15)
        start = max(first, min(start, last - timedelta(days=30 + 7)))
        w.update(checkin_from=start.isoformat(), checkin_to=(start + timedelta(days=30)).isoformat(), nights=7)
        window.write(json.dumps(w) + "\n")
PY
for form in exact shift window; do
  "$bin" batch --index "$index" --queries "$work/$form.jsonl" --threads 1 > "$work/$form.out"
done
python3 - "$work" "$pricing" "$(grep -c . "$work/exact.jsonl")" <<'PY'
import json, sys
work, pricing, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
def took(form):
    answers = [json.loads(line) for line in open(f"{work}/{form}.out")]
    errors = [a["error"] for a in answers if "error" in a]
    if errors: sys.exit(f"{form}: {len(errors)} errors, first: {errors[0]}")
    return sorted(a["took_us"] for a in answers), sum(a["total"] for a in answers)
pick = lambda values, p: values[max(0, -(-p * len(values) // 100) - 1)]
exact, _ = took("exact")
print(f"pricing: {pricing}, {count} dated queries of the 700-query mix, batch --threads 1")
print("| form | p50 µs | p90 µs | p99 µs | mean µs | mean ÷ exact | p50 ÷ exact | matches |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for form, label in (("exact", "exact dates"), ("shift", "± 3 days"), ("window", "31-day window, 7 nights")):
    values, matches = took(form)
    mean = sum(values) / len(values)
    print(f"| {label} | {pick(values, 50):,} | {pick(values, 90):,} | {pick(values, 99):,} | {mean:,.0f} | "
          f"{mean / (sum(exact) / len(exact)):.2f}× | {pick(values, 50) / pick(exact, 50):.2f}× | {matches:,} |")
PY
