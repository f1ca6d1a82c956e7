#!/usr/bin/env bash
# Installs the system libraries staysearch builds against, when they are missing:
# zlib (reading .csv.gz) and libgd (PNG graphs), found through pkg-config; with FLEET=1 also PostgreSQL, haproxy
# and pg_auto_failover.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
  pkg-config --exists zlib || missing+=(zlib1g-dev)
  pkg-config --exists gdlib || missing+=(libgd-dev)
else
  missing+=(zlib1g-dev libgd-dev)
fi
# DejaVu Sans for the PNG charts (without it they fall back to gd's built-in font, with a warning).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
# Noto Sans CJK for Korean charts (--locale ko): DejaVu has no Hangul.
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
# With FLEET=1 (make fleet, make test-fleet, make test-failover): PostgreSQL with btree_gist (postgresql-contrib),
# haproxy, pg_auto_failover and iproute2.
if [ "${FLEET:-0}" = 1 ]; then
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  ls /usr/share/postgresql/*/extension/btree_gist.control >/dev/null 2>&1 || missing+=(postgresql-contrib)
  command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
  command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
  # pg_auto_failover (a monitor, a primary and its synchronous standby: make test-failover) and ip (iproute2,
  # the network namespaces that keep its hosts apart), for the PostgreSQL major version installed (Debian 12: 15).
  major=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1)
  ls /usr/share/postgresql/*/extension/pgautofailover.control >/dev/null 2>&1 || missing+=("postgresql-${major:-15}-auto-failover")
  command -v pg_autoctl >/dev/null 2>&1 || missing+=(pg-auto-failover-cli)
  command -v ip >/dev/null 2>&1 || missing+=(iproute2)
fi
command -v swift >/dev/null 2>&1 || { echo "install-deps: swift is not on PATH; install Swift 6 first (swift.org)" >&2; exit 1; }

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null 2>&1; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "install-deps: please install ${missing[*]} (Debian/Ubuntu: apt-get install ${missing[*]})" >&2
  exit 1
fi
