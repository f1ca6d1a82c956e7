#!/usr/bin/env python3
"""A fleet of staysearch replicas following one PostgreSQL system of record (docs/fleet.md).

usage: fleet.py run   [--replicas N] [--port P]   a cluster, the shipped sample loaded, N replicas and haproxy
                                                  in front on 127.0.0.1:P; Ctrl-C stops it all
       fleet.py test                              the fleet's tests (races, 10,000 changes, kills, restarts)
       fleet.py bench [--rate R] [--seconds S] [--behind N]   the fleet's figures

Everything runs on loopback in a temporary folder: a PostgreSQL cluster started by scripts/pg-cluster.sh (as
the 'postgres' user when run as root), replicas started from an index made by 'import --from'. Standard
library only. BIN names the staysearch binary (default .build/debug/staysearch).
"""
import http.client as httpclient
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from urllib.parse import quote
import threading
import time
import urllib.error
import urllib.request
from datetime import date, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(os.environ.get("BIN", os.path.join(ROOT, ".build/debug/staysearch")))
KEY = "fleet-" + os.urandom(12).hex()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, key=None, timeout=30):
    """(status, text) of one request."""
    request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method)
    if key:
        request.add_header("Authorization", "Bearer " + key)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class Connections:
    """Keep-alive HTTP connections, one per server, for one thread (the figures' load generators: a new TCP
    connection per request would cost the machine more than the requests)."""

    def __init__(self):
        self.open = {}

    def request(self, method, base, path, body=None, key=None):
        """(status, text) of one request; a connection the server closed is opened again once."""
        headers = {"Authorization": "Bearer " + key} if key else {}
        for attempt in (1, 2):
            connection = self.open.get(base)
            if connection is None:
                host, port = base.rsplit("/", 1)[1].split(":")
                connection = self.open[base] = httpclient.HTTPConnection(host, int(port), timeout=60)
            try:
                connection.request(method, path, body=body.encode() if body is not None else None, headers=headers)
                response = connection.getresponse()
                return response.status, response.read().decode()
            except (httpclient.HTTPException, OSError):
                connection.close()
                del self.open[base]
                if attempt == 2:
                    raise


def staysearch(*args, check=True):
    result = subprocess.run([BIN, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"fleet: staysearch {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result


class Replica:
    def __init__(self, fleet, number):
        self.fleet, self.number = fleet, number
        self.index = os.path.join(fleet.work, f"replica{number}.ssx")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        log = open(os.path.join(self.fleet.work, f"replica{self.number}.log"), "a")
        self.process = subprocess.Popen(
            [BIN, "serve", "--index", self.index, "--follow", self.fleet.url_for(self.number), "--port", str(self.port),
             "--write-key-file", self.fleet.keys], stdout=log, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if http("GET", self.base + "/healthz", timeout=2)[0] in (200, 503):
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                sys.exit(f"fleet: replica {self.number} exited: see {log.name}")
            time.sleep(0.1)
        sys.exit(f"fleet: replica {self.number} did not start")

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                print(f"fleet: warning: replica {self.number} did not stop within 20 s of SIGTERM; killed. The end of its log:")
                with open(os.path.join(self.fleet.work, f"replica{self.number}.log")) as log:
                    for line in log.readlines()[-8:]:
                        print("  " + line.rstrip())
                self.process.kill()
                self.process.wait()

    def health(self):
        status, text = http("GET", self.base + "/healthz")
        return status, json.loads(text)


class Fleet:
    def __init__(self, replicas=3):
        self.work = tempfile.mkdtemp(prefix="staysearch-fleet.")
        os.chmod(self.work, 0o755)
        self.cluster = os.path.join(self.work, "pg")
        self.keys = os.path.join(self.work, "keys.txt")
        with open(self.keys, "w") as f:
            f.write(KEY + "\n")
        self.url = None
        self.replicas = [Replica(self, n + 1) for n in range(replicas)]
        self.proxy = None

    def url_for(self, replica):
        """The database URL replica `replica` follows: the last replica reaches it over TLS, its certificate
        verified, when the cluster speaks TLS (scripts/pg-cluster.sh, with openssl)."""
        ca = os.path.join(self.cluster, "ca.pem")
        if replica == len(self.replicas) and os.path.exists(ca):
            return f"{self.url}?sslmode=verify-full&sslrootcert={ca}"
        return self.url

    def pg(self, *args):
        result = subprocess.run(["bash", os.path.join(ROOT, "scripts/pg-cluster.sh"), *args], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"fleet: pg-cluster.sh {args[0]} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def psql(self, sql):
        port = self.url.rsplit(":", 1)[1].split("/")[0]
        result = subprocess.run(["psql", "-h", "127.0.0.1", "-p", port, "-U", "staysearch", "-d", "stays", "-Atqc", sql],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(result.stderr.strip())
        return result.stdout.strip()

    def start(self, data=os.path.join(ROOT, "Data/antwerp")):
        self.url = self.pg("start", self.cluster, str(free_port()))
        staysearch("db", "init", self.url)
        print("fleet:", staysearch("db", "load", self.url, "Antwerp=" + data).stdout.strip())
        snapshot = os.path.join(self.work, "snapshot.ssx")
        print("fleet:", staysearch("import", "--from", self.url, "--output", snapshot).stdout.strip())
        for replica in self.replicas:
            shutil.copy(snapshot, replica.index)
            replica.start()
        print(f"fleet: {len(self.replicas)} replicas on ports {', '.join(str(r.port) for r in self.replicas)}; database {self.url}")

    def start_proxy(self, port):
        config = os.path.join(self.work, "haproxy.cfg")
        servers = "\n".join(f"    server replica{r.number} 127.0.0.1:{r.port} check inter 1s fall 2 rise 1" for r in self.replicas)
        with open(config, "w") as f:
            f.write(f"""global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 2
    option redispatch
frontend staysearch
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /healthz
{servers}
""")
        self.proxy = subprocess.Popen(["haproxy", "-f", config, "-db"], stdout=subprocess.DEVNULL,
                                      stderr=open(os.path.join(self.work, "haproxy.log"), "w"))
        for _ in range(100):
            try:
                if http("GET", f"http://127.0.0.1:{port}/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit("fleet: haproxy did not start (see haproxy.log)")

    def stop(self, keep=False):
        if self.proxy:
            self.proxy.terminate()
            self.proxy.wait(10)
        for replica in self.replicas:
            replica.stop()
        if self.url:
            self.pg("stop", self.cluster)
        if not keep:
            shutil.rmtree(self.work, ignore_errors=True)

    def latest_position(self):
        return int(self.psql("SELECT coalesce(max(position), 0) FROM change_log"))

    def wait_caught_up(self, timeout=120):
        target = self.latest_position()
        deadline = time.time() + timeout
        for replica in self.replicas:
            while True:
                status, health = replica.health()
                if health["applied_position"] >= target:
                    break
                if time.time() > deadline:
                    raise AssertionError(f"replica {replica.number} stuck at {health} (target {target})")
                time.sleep(0.05)
        return target


# ---------------------------------------------------------------------------------------------------------
# The tests

def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("  ok:", message)


def first_listing(base, checkin, checkout):
    status, text = http("GET", f"{base}/v1/search?checkin={checkin}&checkout={checkout}&adults=1&limit=1&sort=price")
    return json.loads(text)["results"][0]["id"]


def test_keys(fleet):
    base = fleet.replicas[0].base
    line = '{"op":"price","id":"1","from":"2024-07-01","to":"2024-07-02","price":10}'
    check(http("POST", base + "/v1/changes", line)[0] == 401, "a write with no key is answered 401")
    check(http("POST", base + "/v1/changes", line, key="not-the-key-0123456789")[0] == 403, "a write with a wrong key is answered 403")
    check(http("GET", base + "/v1/search?adults=1&limit=1")[0] == 200, "a read with no key is answered 200")


def race(fleet, lines):
    """Each line posted at once by its own client, through the replicas in turn; the statuses."""
    statuses = [None] * len(lines)
    barrier = threading.Barrier(len(lines))

    def client(number):
        replica = fleet.replicas[number % len(fleet.replicas)]
        barrier.wait()
        statuses[number] = http("POST", replica.base + "/v1/changes", lines[number], key=KEY)[0]

    threads = [threading.Thread(target=client, args=(n,)) for n in range(len(lines))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def quotes_agree(fleet, listing, checkin, checkout):
    position = fleet.latest_position()
    answers = set()
    for replica in fleet.replicas:
        status, text = http("GET", f"{replica.base}/v1/listings/{listing}?checkin={checkin}&checkout={checkout}&min_position={position}")
        if status != 200:
            return False
        answers.add(text)
    return len(answers) == 1


def test_races(fleet):
    listing = first_listing(fleet.replicas[0].base, "2024-08-05", "2024-08-08")
    same = [json.dumps({"op": "book", "id": listing, "checkin": "2024-08-05", "checkout": "2024-08-08"})] * 60
    statuses = race(fleet, same)
    check(statuses.count(200) == 1 and statuses.count(409) == 59,
          f"60 clients booking the same nights through 3 replicas: one 200, 59 409 (got {sorted(set(statuses))})")
    check(quotes_agree(fleet, listing, "2024-08-05", "2024-08-08"), "every replica quotes the raced nights the same way")

    listing = first_listing(fleet.replicas[0].base, "2024-09-01", "2024-09-12")
    for line in [{"op": "rules", "id": listing, "from": "2024-09-01", "to": "2024-09-12", "minimum_nights": 1, "maximum_nights": 30},
                 {"op": "availability", "id": listing, "from": "2024-09-01", "to": "2024-09-12", "available": True}]:
        status, text = http("POST", fleet.replicas[0].base + "/v1/changes", json.dumps(line), key=KEY)
        check(status == 200, f"{line['op']} of listing {listing} set for the race ({text.strip()})")
    start = date(2024, 9, 1)
    ranges = [(start + timedelta(days=n % 5), start + timedelta(days=n % 5 + 5)) for n in range(60)]  # all share the night of the 5th
    lines = [json.dumps({"op": "book", "id": listing, "checkin": a.isoformat(), "checkout": b.isoformat()}) for a, b in ranges]
    statuses = race(fleet, lines)
    check(statuses.count(200) == 1 and statuses.count(409) == 59,
          f"60 clients booking overlapping different ranges: one 200, 59 409 (got {sorted(set(statuses))})")
    check(quotes_agree(fleet, listing, "2024-09-01", "2024-09-12"), "every replica quotes the overlapping ranges the same way")
    bookings = int(fleet.psql(f"SELECT count(*) FROM bookings WHERE listing = {listing}"))
    check(bookings == 1, f"the database holds one booking of that listing (got {bookings})")


def mixed_changes(rng, ids, count, first, days, new_ids):
    """`count` change lines of every kind, on the given listings and a few new ones."""
    lines = []
    for _ in range(count):
        kind = rng.choices(["book", "cancel", "availability", "price", "rules", "listing", "new", "remove"],
                           [40, 15, 15, 12, 6, 8, 2, 2])[0]
        checkin = first + timedelta(days=rng.randrange(days - 10))
        checkout = checkin + timedelta(days=rng.choice([1, 2, 3, 4, 7]))
        listing = rng.choice(ids)
        if kind == "book":
            change = {"op": "book", "id": listing, "checkin": checkin.isoformat(), "checkout": checkout.isoformat(), "adults": rng.choice([1, 2])}
        elif kind == "cancel":
            change = {"op": "cancel", "id": listing, "checkin": checkin.isoformat(), "checkout": checkout.isoformat()}
        elif kind == "availability":
            change = {"op": "availability", "id": listing, "from": checkin.isoformat(), "to": checkout.isoformat(), "available": rng.random() < 0.5}
        elif kind == "price":
            change = {"op": "price", "id": listing, "from": checkin.isoformat(), "to": checkout.isoformat(), "price": rng.choice([35, 60.5, 99, 140, 480, 5200])}
        elif kind == "rules":
            change = {"op": "rules", "id": listing, "from": checkin.isoformat(), "to": checkout.isoformat(), "minimum_nights": rng.choice([1, 2, 3])}
        elif kind == "listing":
            change = {"op": "listing", "id": listing, "accommodates": rng.choice([1, 2, 4, 6]), "superhost": rng.random() < 0.5}
        elif kind == "new":
            new = str(new_ids.pop())
            ids.append(new)
            change = {"op": "listing", "id": new, "name": f"New stay {new}", "city": "Antwerp", "neighbourhood": rng.choice(["Centraal Station", "Brederode", "Dam"]),
                      "room_type": "Entire home/apt", "accommodates": 4, "price": 90, "latitude": 51.2, "longitude": 4.4}
        else:
            change = {"op": "remove", "id": listing}
        lines.append(json.dumps(change))
    return lines


def answers(base, queries):
    out = []
    for q in queries:
        status, text = http("POST", base + "/v1/search/batch", json.dumps(q) + "\n")
        result = json.loads(text)
        result.pop("took_us", None)
        out.append(json.dumps(result, sort_keys=True))
    return out


def fresh_answers(fleet, queries):
    fresh = os.path.join(fleet.work, "fresh.ssx")
    staysearch("import", "--from", fleet.url, "--output", fresh)
    qfile = os.path.join(fleet.work, "queries.jsonl")
    with open(qfile, "w") as f:
        for q in queries:
            f.write(json.dumps(q) + "\n")
    out = staysearch("batch", "--index", fresh, "--queries", qfile).stdout.splitlines()
    results = []
    for line in out:
        result = json.loads(line)
        result.pop("took_us", None)
        results.append(json.dumps(result, sort_keys=True))
    return results


def queries_for(seed, count=200):
    text = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/random-queries.py"), str(count), str(seed), "2024-06-29", "364",
                           "antwerp", "Centraal Station", "Brederode", "Dam", "Deurne Noord", "Amandus - Atheneum", "중앙역"],
                          capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in text.splitlines()]


def send(fleet, lines, clients=6, per_request=25, on_sent=None):
    """Posts the lines in requests of `per_request`, from `clients` threads, through the replicas in turn."""
    chunks = [lines[i:i + per_request] for i in range(0, len(lines), per_request)]
    failures = []
    lock = threading.Lock()
    position = [0]

    def client(number):
        while True:
            with lock:
                if position[0] >= len(chunks):
                    return
                chunk = chunks[position[0]]
                position[0] += 1
                turn = position[0]
            replica = fleet.replicas[turn % len(fleet.replicas)]
            if replica.process.poll() is not None:
                replica = next(r for r in fleet.replicas if r.process.poll() is None)
            try:
                status, text = http("POST", replica.base + "/v1/changes", "\n".join(chunk), key=KEY, timeout=60)
            except OSError as error:
                status, text = 0, str(error)
            if status != 200:
                failures.append((status, text[:200]))
            if on_sent:
                on_sent(turn)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


def test_mixed_changes(fleet):
    rng = random.Random(27)
    status, text = http("GET", fleet.replicas[0].base + "/v1/search?adults=1&limit=500")
    ids = [r["id"] for r in json.loads(text)["results"]]
    lines = mixed_changes(rng, ids, 10_000, date(2024, 6, 29), 365, list(range(9_000_000_000, 9_000_000_300)))
    queries = queries_for(27)
    stop = threading.Event()
    searched = [0]

    def searcher():
        while not stop.is_set():
            for replica in fleet.replicas:
                http("GET", replica.base + "/v1/search?adults=2&checkin=2024-07-12&checkout=2024-07-15&limit=5")
                searched[0] += 1

    thread = threading.Thread(target=searcher)
    thread.start()
    started = time.time()
    failures = send(fleet, lines)
    seconds = time.time() - started
    stop.set()
    thread.join()
    check(not failures, f"10,000 mixed changes sent through 3 replicas in {seconds:.1f} s while {searched[0]} searches ran (answers per line; {failures[:2]})")
    accepted = int(fleet.psql("SELECT count(*) FROM change_log"))
    print(f"  the database accepted {accepted} changes in all so far")
    target = fleet.wait_caught_up()
    expected = fresh_answers(fleet, queries)
    for replica in fleet.replicas:
        got = answers(replica.base, queries)
        same = sum(a == b for a, b in zip(got, expected))
        check(same == len(queries), f"replica {replica.number} at position {target}: {same} of {len(queries)} answers equal a fresh 'import --from' index's")
        check(replica.health()[1]["refused_here"] == 0, f"replica {replica.number} refused none of the database's changes")
    return ids


def test_kill_and_restart(fleet, ids):
    rng = random.Random(28)
    lines = mixed_changes(rng, ids, 3_000, date(2024, 6, 29), 365, list(range(9_000_001_000, 9_000_001_100)))
    victim = fleet.replicas[1]
    killed = threading.Event()

    def on_sent(turn):
        if turn == 40 and not killed.is_set():
            killed.set()
            victim.process.send_signal(signal.SIGKILL)
            victim.process.wait()

    failures = send(fleet, lines, on_sent=on_sent)
    check(killed.is_set(), "a replica was killed with SIGKILL while changes streamed in")
    check(all(status in (0, 200) for status, _ in failures), f"the other replicas took the stream ({len(failures)} requests lost with the killed one)")
    victim.start()
    target = fleet.wait_caught_up()
    queries = queries_for(28)
    expected = fresh_answers(fleet, queries)
    for replica in fleet.replicas:
        got = answers(replica.base, queries)
        check(got == expected, f"replica {replica.number} at position {target} answers as a fresh index (after the kill and restart)")
    check(victim.health()[1]["refused_here"] == 0, "the restarted replica applied no change twice (none refused)")


def test_database_restart(fleet, ids):
    rng = random.Random(29)
    lines = mixed_changes(rng, ids, 1_500, date(2024, 6, 29), 365, list(range(9_000_002_000, 9_000_002_050)))
    restarted = threading.Event()

    def on_sent(turn):
        if turn == 20 and not restarted.is_set():
            restarted.set()
            fleet.pg("restart", fleet.cluster)

    errors = []
    stop = threading.Event()

    def searcher():
        while not stop.is_set():
            for replica in fleet.replicas:
                status, _ = http("GET", replica.base + "/v1/search?adults=2&limit=3")
                if status != 200:
                    errors.append(status)

    thread = threading.Thread(target=searcher)
    thread.start()
    failures = send(fleet, lines, on_sent=on_sent)
    stop.set()
    thread.join()
    check(restarted.is_set(), f"PostgreSQL restarted under load ({len(failures)} write requests refused while it was down)")
    check(not errors, "every search was answered while the database was away")
    # Writes after the restart are accepted, and every replica follows them without a restart of its own.
    listing = ids[3]
    status, text = http("POST", fleet.replicas[0].base + "/v1/changes",
                        json.dumps({"op": "price", "id": listing, "from": "2024-12-01", "to": "2024-12-05", "price": 77}), key=KEY)
    check(status == 200, f"a write after the restart is accepted ({text.strip()})")
    target = fleet.wait_caught_up()
    reconnects = [replica.health()[1]["reconnects"] for replica in fleet.replicas]
    check(all(r >= 1 for r in reconnects), f"every replica reconnected by itself (reconnects {reconnects}) and reached position {target}")
    queries = queries_for(29)
    expected = fresh_answers(fleet, queries)
    for replica in fleet.replicas:
        check(answers(replica.base, queries) == expected, f"replica {replica.number} answers as a fresh index after the database restart")


def test_tls(fleet):
    ca = os.path.join(fleet.cluster, "ca.pem")
    check(os.path.exists(ca), "the cluster speaks TLS (a certificate authority of its own at ca.pem)")
    encrypted = int(fleet.psql("SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) "
                               "WHERE ssl AND usename = 'staysearch' AND backend_type = 'client backend'"))
    check(encrypted >= 2, f"replica {len(fleet.replicas)} follows and writes over TLS ({encrypted} encrypted connections)")
    snapshot = os.path.join(fleet.work, "tls.ssx")
    for mode in ["sslmode=require", f"sslmode=verify-full&sslrootcert={ca}"]:
        made = staysearch("import", "--from", f"{fleet.url}?{mode}", "--output", snapshot, check=False)
        check(made.returncode == 0, f"import --from over TLS ({mode.split('&')[0]}): {made.stdout.strip()[:60]}…")
    refused = staysearch("import", "--from", f"{fleet.url}?sslmode=verify-full", "--output", snapshot, check=False)
    check(refused.returncode != 0 and len(refused.stderr.strip().splitlines()) == 1 and "certificate" in refused.stderr.lower(),
          f"verify-full without the cluster's authority is refused in one line ({refused.stderr.strip()[:140]})")


def test_commit_order(fleet):
    """Transactions that take their positions in one order and commit in another: a deferred trigger holds a
    marked transaction at its commit for two seconds after it has numbered its change, while 20 others write."""
    fleet.psql("""
        CREATE OR REPLACE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.change LIKE '%"price":1234%' THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$;
        -- Deferred triggers of one event fire in name order: this one after change_log_number has numbered the row.
        CREATE CONSTRAINT TRIGGER zz_slow_commit AFTER INSERT ON change_log DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION slow_commit();
    """)
    try:
        status, text = http("GET", fleet.replicas[0].base + "/v1/search?adults=1&limit=30")
        ids = [r["id"] for r in json.loads(text)["results"]]
        slow = json.dumps({"op": "price", "id": ids[0], "from": "2024-10-01", "to": "2024-10-03", "price": 1234})
        fast = [json.dumps({"op": "price", "id": ids[n], "from": "2024-10-01", "to": "2024-10-03", "price": 300 + n}) for n in range(1, 21)]
        before = fleet.latest_position()
        statuses = race(fleet, [slow] + fast)
        check(all(s == 200 for s in statuses), "a slow-committing change and 20 fast ones, all accepted")
        rows = fleet.psql(f"SELECT position, pg_xact_commit_timestamp(xmin) FROM change_log WHERE position > {before} ORDER BY position")
        check(len(rows.splitlines()) == 21, "21 changes logged")
        stamps = [line.split("|")[1] for line in rows.splitlines()]
        check(stamps == sorted(stamps), "positions follow commit order (commit timestamps rise with position)")
        target = fleet.wait_caught_up()
        for replica in fleet.replicas:
            for n, listing in enumerate(ids[:21]):
                status, text = http("GET", f"{replica.base}/v1/listings/{listing}?checkin=2024-10-01&checkout=2024-10-02&min_position={target}")
                price = json.loads(text)["quote"]["nights"][0]["price"]
                want = 1234 if n == 0 else 300 + n
                if price != want:
                    raise AssertionError(f"replica {replica.number}: listing {listing} night price {price}, want {want}")
        check(True, "every replica applied all 21 changes, the slow one included")
    finally:
        fleet.psql("DROP TRIGGER IF EXISTS zz_slow_commit ON change_log; DROP FUNCTION IF EXISTS slow_commit()")


def test_read_your_writes(fleet):
    listing = first_listing(fleet.replicas[0].base, "2024-11-10", "2024-11-12")
    status, text = http("POST", fleet.replicas[0].base + "/v1/changes",
                        json.dumps({"op": "book", "id": listing, "checkin": "2024-11-10", "checkout": "2024-11-12"}), key=KEY)
    position = json.loads(text)["position"]
    status, text = http("GET", f"{fleet.replicas[2].base}/v1/listings/{listing}?checkin=2024-11-10&checkout=2024-11-12&min_position={position}")
    check(status == 200 and json.loads(text)["quote"]["nights"][0]["status"] == "booked",
          "a read with min_position on another replica sees the booking just made")
    status, text = http("GET", f"{fleet.replicas[2].base}/v1/search?adults=1&min_position={position + 10**9}")
    check(status == 503, "a read with a position no replica has reached is answered 503 after its wait")


def test_page_through_proxy(fleet):
    """The browser test of the search page (scripts/test-browser.py, selenium from the venv test-browser made)
    against haproxy in front of the three replicas: each of its requests may go to another replica."""
    python = os.path.join(ROOT, ".build/venv-browser/bin/python")
    if not os.path.exists(python):
        print("  skipped: no .build/venv-browser (make test-browser makes it)")
        return
    port = free_port()
    fleet.start_proxy(port)
    artefacts = os.path.join(fleet.work, "browser")
    result = subprocess.run([python, os.path.join(ROOT, "scripts/test-browser.py"), f"http://127.0.0.1:{port}", artefacts],
                            capture_output=True, text=True)
    print("\n".join("  " + line for line in result.stdout.strip().splitlines()[-3:]))
    check(result.returncode == 0, f"the search page's browser test passes through haproxy ({result.stderr.strip()[-300:]})")


def sample_with_aliases(folder):
    """The shipped sample with an aliases file: two of its regions have Korean names too."""
    os.makedirs(folder, exist_ok=True)
    for name in ["listings.csv.gz", "calendar.csv.gz"]:
        os.symlink(os.path.join(ROOT, "Data/antwerp", name), os.path.join(folder, name))
    with open(os.path.join(folder, "aliases.csv"), "w") as f:
        f.write("alias,region\n앤트워프,Antwerp\n중앙역,Centraal Station\n")
    return folder


def test_aliases(fleet):
    for replica in fleet.replicas:
        totals = [json.loads(http("GET", f"{replica.base}/v1/search?region={quote(region)}&adults=1&limit=1")[1])["total"]
                  for region in ["중앙역", "Centraal Station", "앤트워프", "Antwerp"]]
        check(totals[0] == totals[1] > 0 and totals[2] == totals[3] > 0,
              f"replica {replica.number} finds regions by the aliases the database holds ({totals})")


def test(arguments):
    fleet = Fleet(3)
    try:
        fleet.start(data=sample_with_aliases(os.path.join(fleet.work, "antwerp")))
        fleet.psql("ALTER SYSTEM SET track_commit_timestamp = on")
        fleet.pg("restart", fleet.cluster)
        fleet.wait_caught_up()
        # The page first, on the sample as loaded: its test's price checks expect the sample's prices.
        for name, step in [("the search page through haproxy", test_page_through_proxy), ("keys", test_keys), ("races", test_races), ("read your writes", test_read_your_writes),
                           ("commit order", test_commit_order), ("TLS", test_tls), ("region aliases", test_aliases)]:
            print(f"fleet test: {name}")
            step(fleet)
        print("fleet test: 10,000 mixed changes")
        ids = test_mixed_changes(fleet)
        print("fleet test: SIGKILL a replica mid-stream")
        test_kill_and_restart(fleet, ids)
        print("fleet test: restart PostgreSQL under load")
        test_database_restart(fleet, ids)
        print("fleet test: SIGTERM stops every replica")
        for replica in fleet.replicas:
            started = time.time()
            replica.stop()
            check(replica.process.returncode == 0 and time.time() - started < 20,
                  f"replica {replica.number} stopped on SIGTERM in {time.time() - started:.1f} s with status {replica.process.returncode}")
        print("fleet test: all passed")
    except AssertionError as error:
        print(f"fleet test FAILED: {error} (logs kept in {fleet.work})")
        fleet.stop(keep=True)
        sys.exit(1)
    fleet.stop()


# ---------------------------------------------------------------------------------------------------------
# The figures

def cpu_seconds(pids):
    """User and system CPU seconds used so far by the processes `pids` (and their waited-for children)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(v) for v in fields[11:15])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def database_pids(fleet):
    """The PostgreSQL server's processes: the postmaster and its children."""
    with open(os.path.join(fleet.cluster, "data", "postmaster.pid")) as f:
        postmaster = int(f.readline())
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == postmaster:
                        children.append(int(entry))
            except OSError:
                pass
    return [postmaster] + children


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def bookable_stays(base, count, nights=3):
    """`count` bookings that can be made, found by searching: listings free for `nights` nights from each
    check-in, check-ins `nights` apart so that no two stays of a listing overlap."""
    stays, first = [], date(2024, 6, 29)
    for window in range(0, 360 // nights):
        checkin = first + timedelta(days=window * nights)
        checkout = checkin + timedelta(days=nights)
        for offset in (0, 500):
            status, text = http("GET", f"{base}/v1/search?checkin={checkin}&checkout={checkout}&adults=1&limit=500&offset={offset}")
            for result in json.loads(text).get("results", []):
                stays.append(json.dumps({"op": "book", "id": result["id"], "checkin": checkin.isoformat(), "checkout": checkout.isoformat()}))
        if len(stays) >= count:
            break
    random.Random(5).shuffle(stays)
    return stays[:count]


def paced_writes(fleet, lines, rate, per_request=10, clients=8):
    """Posts `lines` at `rate` lines a second (0: as fast as they go), `per_request` to a request, through the
    replicas in turn; returns (seconds, accepted, refused)."""
    chunks = [lines[i:i + per_request] for i in range(0, len(lines), per_request)]
    lock, state = threading.Lock(), {"next": 0, "ok": 0, "refused": 0}
    started = time.time()

    def client():
        connections = Connections()
        while True:
            with lock:
                turn = state["next"]
                if turn >= len(chunks):
                    return
                state["next"] += 1
            if rate:
                delay = started + turn * per_request / rate - time.time()
                if delay > 0:
                    time.sleep(delay)
            replica = fleet.replicas[turn % len(fleet.replicas)]
            status, text = connections.request("POST", replica.base, "/v1/changes", "\n".join(chunks[turn]), key=KEY)
            ok = text.count('"ok":true')
            with lock:
                state["ok"] += ok
                state["refused"] += len(chunks[turn]) - ok

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.time() - started, state["ok"], state["refused"]


def search_latencies(bases, queries, stop, outs, rate=100):
    """Runs the queries over and over until `stop`, `rate` a second (each on every server of `bases` in turn,
    so that they are measured at the same moments; paced, not as fast as they go, so that the searches leave
    the machine to the load being measured): (HTTP milliseconds, took_us) of each into the list of `outs`
    beside its server."""
    connections = Connections()
    started, turn = time.time(), 0
    while not stop.is_set():
        for q in queries:
            if stop.is_set():
                break
            turn += 1
            delay = started + turn / rate - time.time()
            if delay > 0:
                time.sleep(delay)
            # Each server first in turn: the first request of a pair may find the CPU idle, the second warm.
            pairs = list(zip(bases, outs))
            for base, out in (pairs if turn % 2 else pairs[::-1]):
                began = time.perf_counter()
                status, text = connections.request("POST", base, "/v1/search/batch", json.dumps(q) + "\n")
                elapsed = (time.perf_counter() - began) * 1000
                took = json.loads(text).get("took_us")
                if took is not None:
                    out.append((elapsed, took))


def visibility_probe(fleet, stays, stop, out):
    """Books one stay through each replica in turn, every 50 ms, and times it until every replica has applied it
    (a read with min_position on each, which the replica answers once it has: no polling)."""
    turn = 0
    while not stop.is_set() and stays:
        line = stays.pop()
        writer = fleet.replicas[turn % 3]
        turn += 1
        started = time.perf_counter()
        status, text = http("POST", writer.base + "/v1/changes", line, key=KEY)
        if status != 200:
            continue
        position = json.loads(text)["position"]
        seen = [http("GET", f"{replica.base}/v1/regions?prefix=zz&limit=1&min_position={position}")[0] for replica in fleet.replicas]
        if all(status == 200 for status in seen):
            out.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)


def bench(arguments):
    rate = int(arguments[arguments.index("--rate") + 1]) if "--rate" in arguments else 1000
    seconds = int(arguments[arguments.index("--seconds") + 1]) if "--seconds" in arguments else 20
    behind = int(arguments[arguments.index("--behind") + 1]) if "--behind" in arguments else 100_000
    fleet = Fleet(3)
    try:
        fleet.start()
        base = fleet.replicas[0].base
        stays = bookable_stays(base, 4_000 + rate * seconds)
        print(f"bench: {len(stays)} bookable stays found on the Antwerp sample")
        queries = queries_for(31, 200)

        # 1. How many bookings a second the database accepts here (8 clients, 10 bookings a request).
        #    And the CPU a booking costs: the database's processes and each replica's, over that run.
        database = database_pids(fleet)
        before = [cpu_seconds(database)] + [cpu_seconds([r.process.pid]) for r in fleet.replicas]
        elapsed, ok, refused = paced_writes(fleet, stays[:3_000], 0)
        print(f"bench: throughput: {ok} bookings accepted ({refused} refused) in {elapsed:.2f} s = {ok / elapsed:.0f} bookings/s")
        fleet.wait_caught_up()
        after = [cpu_seconds(database_pids(fleet))] + [cpu_seconds([r.process.pid]) for r in fleet.replicas]
        used = [(a - b) / max(ok, 1) * 1000 for a, b in zip(after, before)]
        print(f"bench: CPU a booking: database {used[0]:.2f} ms; replicas " + ", ".join(f"{u:.2f}" for u in used[1:]) + " ms")

        # 2. Searches on replica 1 and, beside it, on a server of the same listings that does not follow (an index
        #    imported from the sample's files, which the database was loaded from): first with no writes, then
        #    while the fleet takes `rate` bookings a second; the two are asked in turn, so the frozen one
        #    measures what the machine's load alone does to a search. And how long a booking takes to be
        #    visible on every replica meanwhile.
        frozen_index = os.path.join(fleet.work, "frozen.ssx")
        staysearch("import", "Antwerp=" + os.path.join(ROOT, "Data/antwerp"), "--output", frozen_index)
        frozen_port = free_port()
        frozen_server = subprocess.Popen([BIN, "serve", "--index", frozen_index, "--port", str(frozen_port)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        frozen_base = f"http://127.0.0.1:{frozen_port}"
        for _ in range(100):
            try:
                if http("GET", frozen_base + "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        try:
            quiet, quiet_frozen = [], []
            stop = threading.Event()
            thread = threading.Thread(target=search_latencies, args=([base, frozen_base], queries, stop, [quiet, quiet_frozen]))
            thread.start()
            time.sleep(seconds)
            stop.set()
            thread.join()
            following, beside, visible = [], [], []
            stop = threading.Event()
            searcher = threading.Thread(target=search_latencies, args=([base, frozen_base], queries, stop, [following, beside]))
            probe = threading.Thread(target=visibility_probe, args=(fleet, stays[3_000:4_000], stop, visible))
            searcher.start()
            probe.start()
            load = stays[4_000:4_000 + rate * seconds]
            elapsed, ok, refused = paced_writes(fleet, load, rate)
            stop.set()
            searcher.join()
            probe.join()
        finally:
            frozen_server.terminate()
            frozen_server.wait(20)
        print(f"bench: load: {ok} bookings accepted ({refused} refused) in {elapsed:.2f} s = {ok / elapsed:.0f} bookings/s (asked {rate}/s)")
        for name, values in [("replica 1, no writes", quiet), ("a frozen index beside it, no writes", quiet_frozen),
                             ("replica 1 while following that load", following), ("a frozen index beside it, same moments", beside)]:
            http_ms = [v[0] for v in values]
            took = [v[1] for v in values]
            print(f"bench: searches on {name}: {len(values)} queries; took_us p50 {percentile(took, 0.5)} p99 {percentile(took, 0.99)}; "
                  f"HTTP ms p50 {percentile(http_ms, 0.5):.2f} p99 {percentile(http_ms, 0.99):.2f}")
        print(f"bench: booking -> visible on all 3 replicas ({len(visible)} probes under load): "
              f"p50 {percentile(visible, 0.5):.1f} ms, p99 {percentile(visible, 0.99):.1f} ms")
        fleet.wait_caught_up()

        # 3. Catch-up: replica 3 stopped while `behind` price changes are written, then started again.
        if behind == 0:
            return
        victim = fleet.replicas[2]
        victim.stop()
        status, text = http("GET", base + "/v1/search?adults=1&limit=500")
        ids = [r["id"] for r in json.loads(text)["results"]]
        rng = random.Random(9)
        changes = []
        for n in range(behind):
            checkin = date(2024, 6, 29) + timedelta(days=rng.randrange(350))
            changes.append(json.dumps({"op": "price", "id": rng.choice(ids), "from": checkin.isoformat(),
                                       "to": (checkin + timedelta(days=rng.choice([1, 3, 7]))).isoformat(), "price": rng.choice([45, 80, 120, 300, 5200])}))
        fleet.replicas = fleet.replicas[:2]
        elapsed, ok, refused = paced_writes(fleet, changes, 0, per_request=50)
        fleet.replicas.append(victim)
        print(f"bench: {ok} price changes written with replica 3 stopped, in {elapsed:.1f} s ({ok / elapsed:.0f} changes/s)")
        target = fleet.latest_position()
        started = time.time()
        victim.start()
        while victim.health()[1]["applied_position"] < target:
            time.sleep(0.01)
        took = time.time() - started
        print(f"bench: catch-up: replica 3 started {ok} changes behind, caught up (process start included) in {took:.2f} s = {ok / took:.0f} changes/s")
    finally:
        fleet.stop()


def run(arguments):
    replicas = int(arguments[arguments.index("--replicas") + 1]) if "--replicas" in arguments else 3
    port = int(arguments[arguments.index("--port") + 1]) if "--port" in arguments else 8080
    fleet = Fleet(replicas)
    try:
        fleet.start()
        fleet.start_proxy(port)
        print(f"fleet: haproxy on http://127.0.0.1:{port}/ in front of {replicas} replicas; the write key is in {fleet.keys}")
        print(f"fleet: write with: curl -H 'Authorization: Bearer {KEY}' --data '{{\"op\":...}}' http://127.0.0.1:{port}/v1/changes")
        print("fleet: Ctrl-C stops it", flush=True)
        def interrupt(*_):
            raise KeyboardInterrupt()
        signal.signal(signal.SIGTERM, interrupt)
        signal.signal(signal.SIGINT, interrupt)
        while True:
            signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        print("fleet: stopping")
        fleet.stop()


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "test", "bench"):
        sys.exit(__doc__)
    if sys.argv[1] == "run":
        run(sys.argv[2:])
    elif sys.argv[1] == "test":
        test(sys.argv[2:])
    else:
        bench(sys.argv[2:])
