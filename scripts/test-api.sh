#!/usr/bin/env bash
# The HTTP API under attack, bounded: schemathesis (PyPI, in a virtual environment this script makes) generates
# requests from /openapi.json against a `staysearch serve` of the shipped sample, and fails on any 5xx or a
# crash; then hand-written abuse: a very long query string, invalid UTF-8, deeply nested JSON, a body over
# 10 MiB, a client that trickles its request in while others are answered, and 2,000 idle connections.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug/staysearch}
VENV=.build/venv-api
EXAMPLES=${EXAMPLES:-30}

if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q schemathesis
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/staysearch-api.XXXXXX")
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$BIN" import Antwerp=Data/antwerp --output "$work/sample.ssx" >/dev/null
key="test-api-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo "$key" > "$work/keys.txt"
"$BIN" serve --index "$work/sample.ssx" --port 0 --write-key-file "$work/keys.txt" >"$work/out" 2>"$work/log" &
server=$!
for _ in $(seq 1 100); do grep -q serving "$work/out" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/out")
echo "test-api: $base"

"$VENV/bin/schemathesis" run "$base/openapi.json" --checks not_a_server_error -n "$EXAMPLES" --no-color --seed 1 \
  -H "Authorization: Bearer $key" \
  | tail -n 25

python3 - "$base" "$key" "$work/log" <<'PY'
import socket, sys, threading, time, urllib.request, urllib.error
base, key, log = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = base.split("//")[1].split(":")
port = int(port)

def status(path, data=None, raw=None, headers=None):
    if raw is not None:
        with socket.create_connection((host, port), timeout=10) as s:
            s.sendall(raw)
            reply = s.recv(4096).decode("latin-1")
            return int(reply.split(" ")[1])
    try:
        if headers is None and path == "/v1/changes":
            headers = {"Authorization": "Bearer " + key}
        with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers or {}), timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code

failures = []
def expect(name, got, allowed):
    if got not in allowed:
        failures.append(f"{name}: {got} not in {allowed}")
    print(f"test-api: {name}: {got}")

expect("long query string", status("/v1/search?region=" + "a" * 60000), {400, 414, 431})
expect("invalid UTF-8 in a query", status(None, raw=b"GET /v1/search?region=%FF%FE HTTP/1.1\r\nHost: x\r\n\r\n"), {400})
# A body of one line is answered with that line's status: a line that is not a change is 400 (invalid_change).
expect("invalid UTF-8 body", status("/v1/changes", data=b"\xff\xfe{\"op\":1}\n"), {400})
expect("deep JSON", status("/v1/search/batch", data=(b"[" * 100000) + b"\n"), {200})
expect("body over 10 MiB", status("/v1/changes", data=b" " * (10 * 1024 * 1024 + 1)), {413})
booking = b'{"op": "book", "id": "50904", "checkin": "2024-08-01", "checkout": "2024-08-03"}\n'
expect("a write without a key", status("/v1/changes", data=booking, headers={}), {401})
expect("a write with another key", status("/v1/changes", data=booking, headers={"Authorization": "Bearer x" + key}), {403})
expect("a read without a key", status("/v1/search?limit=1", headers={}), {200})

# A client that trickles its request in, a byte every 50 ms, must not hold up others.
def trickle():
    with socket.create_connection((host, port), timeout=30) as s:
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n":
            s.send(bytes([byte])); time.sleep(0.05)
        s.recv(4096)
slow = threading.Thread(target=trickle); slow.start()
time.sleep(0.2)
start = time.time()
for _ in range(20): status("/v1/search?region=zuid&limit=1")
elapsed = time.time() - start
expect("20 searches while a client trickles (s < 5)", elapsed < 5, {True})
slow.join()

# Thousands of idle connections: the server still answers.
idle = []
for _ in range(2000):
    try: idle.append(socket.create_connection((host, port), timeout=5))
    except OSError: break
expect(f"a search with {len(idle)} idle connections open", status("/v1/search?region=zuid&limit=1"), {200})
for s in idle: s.close()
expect("healthz afterwards", status("/healthz"), {200})
expect("the write key is not in the server's log", key in open(log, encoding="utf-8", errors="replace").read(), {False})
if failures:
    print("test-api: FAILED:", *failures, sep="\n  ")
    sys.exit(1)
PY
kill -TERM "$server"
wait "$server"
echo "test-api: the server stopped cleanly on SIGTERM"
server=""
