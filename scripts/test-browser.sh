#!/usr/bin/env bash
# The search page in a real browser: Debian's chromium and chromium-driver (installed here when missing, as
# root), selenium from PyPI in a virtual environment this script makes, against `staysearch serve` on the
# shipped sample (with neighbourhood outlines made from it). scripts/test-browser.py types a region and picks a suggestion, chooses dates on the calendar,
# sets guests, drags the price slider's thumbs, and checks every count and result against the API; then opens a
# listing and checks its total, and a week's stay whose panel lists the fees against the API's quote (fees on a third of
# the listings, a service fee and a tax); then the page in Korean with prices in won (scripts/test-browser-ko.py).
# Screenshots (desktop and phone widths) are left in $ARTEFACTS.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug/staysearch}
VENV=.build/venv-browser
ARTEFACTS=${ARTEFACTS:-.build/browser-artefacts}

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "test-browser: installing chromium and chromium-driver" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  elif command -v sudo >/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "test-browser: please install chromium and chromium-driver (apt-get install chromium chromium-driver)" >&2; exit 1
  fi
fi
if ! "$VENV/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q selenium
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-browser.XXXXXX")
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The shipped sample with neighbourhood outlines beside it (the convex hull of each neighbourhood's listings),
# so that the page's outlines can be checked against where the map puts the listings.
mkdir -p "$work/antwerp"
ln -s "$PWD/Data/antwerp/listings.csv.gz" "$PWD/Data/antwerp/calendar.csv.gz" "$work/antwerp/"
python3 scripts/neighbourhood-outlines.py "$work/antwerp" >/dev/null
# Fees on a third of the listings (scripts/fees-sample.py), a service fee and a tax: the page's prices are trip prices.
python3 scripts/fees-sample.py "$work/antwerp"
"$BIN" import Antwerp="$work/antwerp" --output "$work/sample.ssx" >/dev/null
"$BIN" serve --index "$work/sample.ssx" --port 0 --service-fee 12 --tax Antwerp=7 >"$work/out" 2>"$work/log" &
server=$!
for _ in $(seq 1 100); do grep -q serving "$work/out" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/out")
rm -rf "$ARTEFACTS" && mkdir -p "$ARTEFACTS"
echo "test-browser: $base, $(chromium --version 2>/dev/null | head -1), screenshots in $ARTEFACTS"
"$VENV/bin/python" scripts/test-browser.py "$base" "$ARTEFACTS"
kill -0 "$server" 2>/dev/null || { echo "test-browser: the server died" >&2; cat "$work/log" >&2; exit 1; }
kill "$server"; wait "$server" 2>/dev/null || true; server=""

# The page in Korean: a Seoul-shaped sample in won, the browser asking for Korean.
python3 scripts/seoul-sample.py "$work/seoul"
python3 scripts/fees-sample.py "$work/seoul" 1000
"$BIN" import Seoul="$work/seoul" --output "$work/seoul.ssx" >/dev/null
"$BIN" serve --index "$work/seoul.ssx" --port 0 --currency KRW --service-fee 10 --tax Seoul=10 >"$work/out-ko" 2>"$work/log-ko" &
server=$!
for _ in $(seq 1 100); do grep -q serving "$work/out-ko" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/out-ko")
echo "test-browser: $base (Korean, won)"
"$VENV/bin/python" scripts/test-browser-ko.py "$base" "$ARTEFACTS"
kill -0 "$server" 2>/dev/null || { echo "test-browser: the server died" >&2; cat "$work/log-ko" >&2; exit 1; }
