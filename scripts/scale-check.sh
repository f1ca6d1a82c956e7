#!/usr/bin/env bash
# Measures the scale targets of saved indexes on generated data:
#   bytes per listing, load time, CLI search end to end, CSV import rate.
#   scripts/scale-check.sh [LISTINGS] [IMPORT_LISTINGS]     defaults: 1000000 20000
set -euo pipefail
cd "$(dirname "$0")/.."
listings=${1:-1000000}
import_listings=${2:-20000}
work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
bash scripts/install-deps.sh
swift build -c release --product staysearch >/dev/null
bin=.build/release/staysearch

echo "== generate $listings listings (365-day calendars)"
/usr/bin/time -f "   peak memory %M KB" $bin generate --listings "$listings" --seed 1 --output "$work/big.ssx" 2>&1 | sed 's/^/   /'

echo "== load (median of 5, from --stats)"
for _ in 1 2 3 4 5; do $bin search --index "$work/big.ssx" --limit 0 --stats 2>&1 >/dev/null | sed -E 's/.* in ([0-9.]+) ms.*/\1/'; done \
  | sort -n | sed -n 3p | sed 's/^/   load ms: /'

echo "== CLI search end to end (median of 5 wall-clock runs)"
for _ in 1 2 3 4 5; do
  /usr/bin/time -f "%e" $bin search --index "$work/big.ssx" --region "Zürich" --checkin 2025-07-10 --checkout 2025-07-14 \
    --adults 2 --max-price 300 2>&1 >/dev/null | tail -1
done | sort -n | sed -n 3p | sed 's/^/   search seconds: /'

echo "== import of Inside Airbnb CSV files ($import_listings listings)"
$bin generate --listings "$import_listings" --seed 2 --format insideairbnb --output "$work/csv" > "$work/generated.txt"
mapfile -t data < <(sed -n "s/^  --data '\(.*\)'$/\1/p" "$work/generated.txt")
for _ in 1 2 3; do
  $bin import "${data[@]}" --output "$work/imported.ssx" | head -1 \
    | sed -E 's/.* and ([0-9,]+) calendar rows .* \(read ([0-9.]+) s.*/\1 \2/' | tr -d , \
    | awk '{ printf "   %d calendar rows in %.3f s: %.2f million rows/s\n", $1, $2, $1 / $2 / 1e6 }'
done
for folder in "$work"/csv/*; do gzip -q "$folder"/*.csv; done
$bin import "${data[@]}" --output "$work/imported-gz.ssx" | head -1 \
  | sed -E 's/.* and ([0-9,]+) calendar rows .* \(read ([0-9.]+) s.*/\1 \2/' | tr -d , \
  | awk '{ printf "   gzip: %d calendar rows in %.3f s: %.2f million rows/s\n", $1, $2, $1 / $2 / 1e6 }'
