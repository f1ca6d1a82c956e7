#!/usr/bin/env bash
# This build against another (an earlier commit's `staysearch`) on the same listings: the 700-query mix
# (peers.py --emit-queries) run by `batch --threads 1` and `--threads 2` on each build's own index of the same
# generated data, the two interleaved for five rounds; each query's median over the rounds, their p50, p99 and
# mean, and the ratios this ÷ other. The answers' totals must agree.
#
#   bash Benchmarks/builds.sh OTHER_BINARY [--listings N] [--pricing calibrated|dynamic] [--index FILE --other-index FILE]
#
# Without --index, both indexes are generated (seed 1) by their own build into a temporary folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
other=${1:?"usage: bash Benchmarks/builds.sh OTHER_BINARY [--listings N] [--pricing KIND] [--index FILE --other-index FILE]"}
shift
listings=1000000 pricing=dynamic index="" other_index=""
while [ $# -gt 0 ]; do
  case "$1" in
    --listings) listings=$2; shift 2 ;;
    --pricing) pricing=$2; shift 2 ;;
    --index) index=$2; shift 2 ;;
    --other-index) other_index=$2; shift 2 ;;
    *) echo "builds.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
make -C "$root" --no-print-directory release >&2
bin="$root/.build/release/staysearch"
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-builds.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$index" ]; then
  index="$work/this.ssx" other_index="$work/other.ssx"
  "$bin" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$index" >/dev/null
  "$other" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$other_index" >/dev/null
fi
python3 "$root/Benchmarks/peers/peers.py" --emit-queries "$index" --queries 700 --seed 1 > "$work/mix.jsonl"
python3 - "$bin" "$index" "$other" "$other_index" "$work" <<'PY'
import json, statistics, subprocess, sys
this_bin, this_index, other_bin, other_index, work = sys.argv[1:6]
builds = {"this": (this_bin, this_index), "other": (other_bin, other_index)}
pick = lambda values, p: values[max(0, -(-p * len(values) // 100) - 1)]
rounds = 5
for threads in ("1", "2"):
    runs = {kind: [] for kind in builds}
    totals = {}
    print(f"the 700-query mix, batch --threads {threads}, {rounds} interleaved rounds")
    for round in range(rounds):
        for kind in (("this", "other") if round % 2 == 0 else ("other", "this")):
            binary, index = builds[kind]
            out = subprocess.run([binary, "batch", "--index", index, "--queries", f"{work}/mix.jsonl", "--threads", threads],
                                 capture_output=True, text=True, check=True).stdout
            answers = [json.loads(line) for line in out.splitlines()]
            totals.setdefault(kind, [a.get("total") for a in answers])
            runs[kind].append([a["took_us"] for a in answers])
            took = sorted(a["took_us"] for a in answers)
            print(f"  round {round + 1} {kind}: p50 {pick(took, 50):,} µs, p99 {pick(took, 99):,} µs")
    if totals["this"] != totals["other"]:
        sys.exit(f"the builds' totals differ on {sum(a != b for a, b in zip(totals['this'], totals['other']))} queries")
    medians = {kind: sorted(statistics.median(run[k] for run in runs[kind]) for k in range(len(runs[kind][0]))) for kind in runs}
    summary = {kind: (pick(v, 50), pick(v, 99), sum(v) / len(v)) for kind, v in medians.items()}
    for kind in ("other", "this"):
        print(f"{kind} build, each query's median over the rounds: p50 / p99 / mean " + " / ".join(f"{v:,.0f}" for v in summary[kind]) + " µs")
    print("this ÷ other: p50 {:.2f}×, p99 {:.2f}×, mean {:.2f}×".format(*(summary["this"][k] / summary["other"][k] for k in range(3))))
PY
