#!/usr/bin/env bash
# Compares this checkout's build with another revision's on what must not change in a refactoring: the index
# bytes `generate` writes, and the answers (took_us aside) to the 700-query mix of `make peers`, plain and with
# all six facets asked (half of them with a room type, so that a facet's own filter is relaxed), with one and
# two threads, on 100,000 listings of both pricing kinds.
#
# usage: scripts/compare-builds.sh REVISION [LISTINGS]
#   OLD_BIN / NEW_BIN: use these binaries instead of building (release builds, about five minutes each).
set -euo pipefail
cd "$(dirname "$0")/.."
revision=${1:?usage: scripts/compare-builds.sh REVISION [LISTINGS]}
listings=${2:-100000}
work=.build/compare
mkdir -p "$work"

if [ -z "${OLD_BIN:-}" ]; then
  rm -rf "$work/old" && git worktree add -f --detach "$work/old" "$revision" >/dev/null
  (cd "$work/old" && swift build -c release --product staysearch >/dev/null)
  OLD_BIN="$work/old/.build/release/staysearch"
fi
if [ -z "${NEW_BIN:-}" ]; then
  swift build -c release --product staysearch >/dev/null
  NEW_BIN=.build/release/staysearch
fi

for pricing in calibrated dynamic; do
  "$OLD_BIN" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$work/old-$pricing.ssx" >/dev/null
  "$NEW_BIN" generate --listings "$listings" --seed 1 --pricing "$pricing" --output "$work/new-$pricing.ssx" >/dev/null
  cmp "$work/old-$pricing.ssx" "$work/new-$pricing.ssx"
  echo "compare: $pricing index bytes identical ($(stat -c %s "$work/new-$pricing.ssx") bytes)"
  STAYSEARCH_BINARY="$NEW_BIN" python3 Benchmarks/peers/peers.py --emit-queries "$work/new-$pricing.ssx" --queries 700 --seed 1 \
    > "$work/plain-$pricing.jsonl"
  python3 - "$work/plain-$pricing.jsonl" > "$work/facets-$pricing.jsonl" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    q = json.loads(line)
    q["facets"] = ["room_type", "property_type", "amenities", "bedrooms", "instant_bookable", "superhost"]
    if n % 2 == 0:
        q["room_type"] = "Private room"
    print(json.dumps(q, ensure_ascii=False))
PY
  for mix in plain facets; do
    for threads in 1 2; do
      for side in old new; do
        bin=$OLD_BIN; [ "$side" = new ] && bin=$NEW_BIN
        "$bin" batch --index "$work/$side-$pricing.ssx" --queries "$work/$mix-$pricing.jsonl" --threads "$threads" \
          | sed -E 's/,"took_us":[0-9]+//' > "$work/answers-$side-$mix-$pricing-$threads.jsonl"
      done
      cmp "$work/answers-old-$mix-$pricing-$threads.jsonl" "$work/answers-new-$mix-$pricing-$threads.jsonl"
      echo "compare: $pricing, $mix mix, $threads thread(s): $(wc -l < "$work/answers-new-$mix-$pricing-$threads.jsonl") answers identical"
    done
  done
done
