#!/usr/bin/env bash
# Load on `staysearch serve` from wrk (Debian's), on 127.0.0.1 only: a mixed script of searches (city and
# neighbourhood with dates, no region, price ranges, facets), region suggestions and listing quotes, at 1, 8
# and 64 connections, without and with a stream of live changes (100 bookings every 100 ms, 1,000 a second,
# POST /v1/changes); the server's resident memory sampled every 10 s.
#
#   bash Benchmarks/load/run.sh --index FILE [--duration 30] [--connections "1 8 64"] [--replicas 2]
#
# With --replicas N, N servers each load their own copy of the index and nginx (Debian's) balances the mix
# over them on loopback; the change stream posts every group to each replica in the same order (one writer,
# an ordered log fanned out), so all of them hold the same calendars.
#
# The index should be a saved one (`staysearch generate --listings 1000000 --output FILE`); the script works on
# a copy, so that its journal never touches FILE.
set -euo pipefail
cd "$(dirname "$0")/../.."
index="" duration=30 connections="1 8 64" replicas=1
while [ $# -gt 0 ]; do
  case "$1" in
    --index) index=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --replicas) replicas=$2; shift 2 ;;
    *) echo "load: unknown option $1" >&2; exit 64 ;;
  esac
done
[ -n "$index" ] || { echo "load: give --index FILE" >&2; exit 64; }
need=(); command -v wrk >/dev/null || need+=(wrk); [ "$replicas" -gt 1 ] && ! command -v nginx >/dev/null && need+=(nginx)
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; fi
BIN=.build/release/staysearch
[ -x "$BIN" ] || swift build -c release --product staysearch

work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-load.XXXXXX")
server="" stream="" sampler=""
cleanup() { for p in $stream $sampler $server; do kill "$p" 2>/dev/null || true; done; [ -f "${work:-}/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
servers=() bases=()
# The key the change stream writes with (writes need one).
write_key="load-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo "$write_key" > "$work/keys.txt"
for k in $(seq 1 "$replicas"); do
  cp "$index" "$work/index$k.ssx"
  "$BIN" serve --index "$work/index$k.ssx" --port 0 --write-key-file "$work/keys.txt" >"$work/out$k" 2>/dev/null &
  servers+=($!)
  for _ in $(seq 1 600); do grep -q serving "$work/out$k" 2>/dev/null && break; sleep 0.1; done
  bases+=("$(grep -o 'http://127.0.0.1:[0-9]*' "$work/out$k")")
done
server="${servers[*]}"
base=${bases[0]}
if [ "$replicas" -gt 1 ]; then
  upstreams=$(for b in "${bases[@]}"; do echo "server ${b#http://};"; done)
  cat >"$work/nginx.conf" <<NGINX
worker_processes 1; pid $work/nginx.pid; error_log $work/nginx.err; daemon off;
events { worker_connections 4096; }
http { access_log off; upstream staysearch { $upstreams keepalive 64; }
  server { listen 127.0.0.1:18080; location / { proxy_pass http://staysearch; proxy_http_version 1.1; proxy_set_header Connection ""; } } }
NGINX
  nginx -c "$work/nginx.conf" &
  server="$server $!"
  sleep 1
  base=http://127.0.0.1:18080
fi
echo "load: $base over $replicas replica(s) (${bases[*]}), index $index, $(nproc) cores"

# The mix, from the index itself: its regions, its first month, some listing ids.
python3 - "$base" "$work" <<'PY'
import json, sys, urllib.request, random
base, work = sys.argv[1], sys.argv[2]
get = lambda p: json.load(urllib.request.urlopen(base + p))
regions = [r["path"] for r in get("/v1/regions?prefix=&limit=100")]
cities = sorted({p[0] for p in regions}); hoods = [p[-1] for p in regions if len(p) > 1]
some = get("/v1/search?limit=50&sort=reviews")["results"]
first = get("/v1/listings/%s/calendar" % some[0]["id"])["months"][0]["days"][0]["date"]
y, m, d = map(int, first.split("-"))
import datetime
start = datetime.date(y, m, d)
random.seed(7)
paths = []
q = urllib.parse.quote
for k in range(400):
    c = start + datetime.timedelta(days=random.randint(10, 200)); n = random.choice([1, 2, 3, 3, 5, 7])
    dates = "checkin=%s&checkout=%s" % (c, c + datetime.timedelta(days=n))
    r = random.random()
    if r < 0.35: paths.append("/v1/search?region=%s&%s&adults=2&limit=20" % (q(random.choice(hoods)), dates))
    elif r < 0.55: paths.append("/v1/search?region=%s&%s&adults=2&limit=20&max_price=%d" % (q(random.choice(cities)), dates, random.choice([80, 150, 300])))
    elif r < 0.65: paths.append("/v1/search?%s&limit=20" % dates)
    elif r < 0.75: paths.append("/v1/search?region=%s&limit=20&facets=room_type&facets=amenities" % q(random.choice(hoods)))
    elif r < 0.9: paths.append("/v1/regions?prefix=%s&limit=8" % q(random.choice(hoods)[:random.randint(1, 4)].lower()))
    else: paths.append("/v1/listings/%s?%s&adults=2" % (random.choice(some)["id"], dates))
with open(work + "/mix.lua", "w") as f:
    f.write("local paths = {%s}\nlocal i = 0\nrequest = function()\n  i = i %% #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n" % ",".join(json.dumps(p) for p in paths))
    f.write('done = function(summary, latency, requests)\n  io.write(string.format("RESULT %d %d %d %.0f %.0f %.0f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50), latency:percentile(99), summary.requests / (summary.duration / 1e6)))\nend\n')
ids = [s["id"] for s in some]
with open(work + "/changes.py", "w") as f:
    f.write("""import json, random, sys, time, urllib.request
bases, start, key = sys.argv[1].split(), sys.argv[2], open(sys.argv[3]).read().strip()
import datetime
d0 = datetime.date.fromisoformat(start); random.seed(3); ids = %s
while True:
    t = time.time(); lines = []
    for _ in range(100):
        c = d0 + datetime.timedelta(days=random.randint(10, 300)); n = random.randint(1, 5)
        lines.append(json.dumps({"op": random.choice(["book", "book", "cancel"]), "id": random.choice(ids), "checkin": str(c), "checkout": str(c + datetime.timedelta(days=n))}))
    for base in bases:   # every replica, in the same order: one writer fanning out an ordered log
        urllib.request.urlopen(urllib.request.Request(base + "/v1/changes", data=("\\n".join(lines) + "\\n").encode(),
                                                      headers={"Authorization": "Bearer " + key})).read()
    time.sleep(max(0, 0.1 - (time.time() - t)))
""" % json.dumps(ids))
with open(work + "/start", "w") as f: f.write(str(start))
PY

rss() { for p in "${servers[@]}"; do awk '/VmRSS/ {printf "%d ", int($2/1024)}' /proc/"$p"/status; done; }
( while true; do echo "$(date +%s) $(rss)" >> "$work/rss"; sleep 10; done ) &
sampler=$!
echo "| changes | connections | requests/s | p50 ms | p99 ms | non-2xx | socket errors |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for mode in none stream; do
  if [ "$mode" = stream ]; then python3 "$work/changes.py" "${bases[*]}" "$(cat "$work/start")" "$work/keys.txt" & stream=$!; fi
  for c in $connections; do
    threads=$(( c < 2 ? 1 : 2 ))
    line=$(wrk -t"$threads" -c"$c" -d"${duration}s" --latency -s "$work/mix.lua" "$base" | grep RESULT)
    read -r _ requests status errors p50 p99 rate <<<"$line"
    awk -v m="$([ "$mode" = none ] && echo no || echo "1,000/s")" -v c="$c" -v r="$rate" -v a="$p50" -v b="$p99" -v s="$status" -v e="$errors" \
      'BEGIN { printf "| %s | %d | %.0f | %.2f | %.2f | %d | %d |\n", m, c, r, a / 1000, b / 1000, s, e }'
  done
done
echo "load: server memory (MiB, each replica) every 10 s: $(cut -d' ' -f2- "$work/rss" | tr '\n' '|')"
