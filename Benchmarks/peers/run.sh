#!/usr/bin/env bash
# staysearch beside DuckDB and SQLite on the same generated data; prints one table.
#   bash Benchmarks/peers/run.sh                       # 100,000 listings, all three engines
#   bash Benchmarks/peers/run.sh --listings 1000000 --engines staysearch,duckdb
# Makes its own virtual environment (Benchmarks/peers/.venv) with DuckDB and SQLite from PyPI, and builds
# the release binary. Exits non-zero when any engine answers any query differently.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb, pysqlite3' 2>/dev/null; then
  echo "peers: making $venv with duckdb and pysqlite3-binary from PyPI" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check duckdb==2.0.0 pysqlite3-binary==0.5.4.post2
fi
make -C "$root" --no-print-directory release >&2
exec "$venv/bin/python" "$here/peers.py" "$@"
