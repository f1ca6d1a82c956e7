#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer, with AddressSanitizer) and runs each for RUNS inputs.
#   scripts/fuzz.sh [RUNS]        default 1000000
# Crashes are written to .build-fuzz/crashes/; the corpus grows in .build-fuzz/corpus-*.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
out=.build-fuzz
mkdir -p "$out/crashes"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name staysearch)

swiftc "${flags[@]}" -emit-library -static -emit-module -module-name StaySearch \
  -emit-module-path "$out/StaySearch.swiftmodule" $(find Sources/StaySearch -name '*.swift') -o "$out/libStaySearch.a"
for target in csv index; do
  swiftc "${flags[@]}" -module-name StayData -I "$out" -I Sources/CZlib \
    $(find Sources/StayData -name "*.swift") "Fuzz/$target.swift" -L "$out" -lStaySearch -lz -o "$out/fuzz-$target" 2>&1 \
    | { grep -v "Cannot export local symbol" || true; }
done

# Seed corpora: real rows and small real indexes.
mkdir -p "$out/corpus-csv" "$out/corpus-index"
set +o pipefail     # head closes the pipe early on purpose
zcat Data/antwerp/listings.csv.gz | head -c 6000 > "$out/corpus-csv/seed-listings"
{ printf '\x80'; zcat Data/antwerp/listings.csv.gz | sed -n '2,3p'; zcat Data/antwerp/calendar.csv.gz | sed -n '2,40p'; } > "$out/corpus-csv/seed-both"
set -o pipefail
swift build -c release --product staysearch --scratch-path "$out/swiftpm" >/dev/null 2>&1
for n in 3 10 40; do "$out/swiftpm/release/staysearch" generate --listings $n --seed $n --days 30 --output "$out/corpus-index/seed-$n.ssx" >/dev/null; done
for n in 4 12; do   # prices that change every day: dense rows
  "$out/swiftpm/release/staysearch" generate --listings $n --seed $n --days 30 --pricing dynamic --output "$out/corpus-index/seed-dynamic-$n.ssx" >/dev/null
done

for target in csv index; do
  echo "fuzzing $target for $runs inputs"
  "$out/fuzz-$target" "$out/corpus-$target" -runs="$runs" -max_len=8192 -artifact_prefix="$out/crashes/$target-" \
    -print_final_stats=1 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss|Done|==.*ERROR|SUMMARY)" || true
done
ls "$out/crashes" | grep -q . && { echo "crashes found in $out/crashes"; exit 1; }
echo "no crashes"
