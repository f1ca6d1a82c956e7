"""Hosts apart: the primary, its synchronous standby and two replicas each in its own network namespace,
pg_auto_failover keeping the pair, haproxy in front. Bookings with and without the standby, the standby
cut off, a replica cut off, the primary lost twice (its data kept, then deleted) while 20 clients book."""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, timedelta

from .checks import answers, check, queries_for
from .cluster import BIN, KEY, ROOT, free_port, http, staysearch, start_haproxy
from .hosts import AutoFailover, Hosts

MAX_LAG = 5
CLIENT_TIMEOUT = 20  # a client's own deadline: a booking is answered within the writer's 10 s or it is a hang


class HostReplica:
    """`serve --follow` in host `name`, listening on its address."""

    def __init__(self, hosts, work, name, url, keys):
        self.hosts, self.work, self.name, self.url, self.keys = hosts, work, name, url, keys
        self.base = f"http://{hosts.address(name)}:8080"
        self.index = os.path.join(work, f"{name}.ssx")
        self.process = None

    def start(self):
        log = open(os.path.join(self.work, f"{self.name}.log"), "a")
        self.process = subprocess.Popen(self.hosts.command(
            self.name, BIN, "serve", "--index", self.index, "--follow", self.url, "--host", self.hosts.address(self.name),
            "--port", "8080", "--write-key-file", self.keys, "--max-lag", str(MAX_LAG)), stdout=log, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if http("GET", self.base + "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise AssertionError(f"replica {self.name} exited: see {log.name}")
            time.sleep(0.1)
        raise AssertionError(f"replica {self.name} did not start")

    def health(self):
        status, text = http("GET", self.base + "/healthz", timeout=5)
        return status, json.loads(text)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Bookers:
    """`clients` threads booking stays of 1–3 nights on `ids` (within the sample's calendar year) through
    `base`, as fast as they are answered;
    every answer recorded as (started, ended, status, code, booking, position, copies)."""

    def __init__(self, base, ids, clients=20, seed=82):
        self.base, self.ids, self.clients, self.seed = base, ids, clients, seed
        self.records = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = []

    def start(self):
        self.stopping.clear()
        self.threads = [threading.Thread(target=self.client, args=(n,)) for n in range(self.clients)]
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join()

    def client(self, number):
        rng = random.Random(self.seed * 1000 + number + len(self.records))
        while not self.stopping.is_set():
            checkin = date(2024, 7, 1) + timedelta(days=rng.randrange(330))
            booking = (rng.choice(self.ids), checkin.isoformat(), (checkin + timedelta(days=rng.randint(1, 3))).isoformat())
            line = json.dumps({"op": "book", "id": booking[0], "checkin": booking[1], "checkout": booking[2]})
            started = time.time()
            try:
                status, text = http("POST", self.base + "/v1/changes", line, key=KEY, timeout=CLIENT_TIMEOUT)
            except OSError as error:
                status, text = 0, json.dumps({"error": {"code": f"no answer: {error}"}})
            ended = time.time()
            try:
                answer = json.loads(text)
            except ValueError:
                answer = {"error": {"code": f"not JSON: {text[:80]!r}"}}
            code = answer.get("code") or (answer["error"].get("code") if isinstance(answer.get("error"), dict) else None)
            with self.lock:
                self.records.append((started, ended, status, code, booking, answer.get("position"), answer.get("copies")))

    def between(self, start, end):
        with self.lock:
            return [r for r in self.records if start <= r[0] and r[1] <= end]

    @staticmethod
    def figures(records, seconds):
        """Requests answered a second, bookings accepted a second, and the p50/p99 of the accepted ones'
        latency in ms (only an accepted booking commits, so only it waits for the standby)."""
        accepted = sorted((r[1] - r[0]) * 1000 for r in records if r[2] == 200)
        if not accepted:
            return len(records) / seconds, 0, 0, 0
        return (len(records) / seconds, len(accepted) / seconds, accepted[len(accepted) // 2],
                accepted[min(len(accepted) - 1, len(accepted) * 99 // 100)])


def wait_for(condition, what, timeout=60):
    started = time.time()
    while time.time() - started < timeout:
        try:
            if condition():
                return time.time() - started
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def measure_window(bookers, seconds):
    start = time.time()
    time.sleep(seconds)
    records = bookers.between(start, time.time())
    return records, Bookers.figures(records, seconds)


def primary_of(pair):
    return next((name for name, (current, assigned) in pair.states().items() if current in ("primary", "wait_primary", "single")
                 and assigned == current), None)


def check_answers_while_failing(records, what):
    """Every booking answered in time: 200, 409 for nights taken, or 503 with its error code while no
    primary takes writes; none past its deadline."""
    statuses = {}
    for r in records:
        statuses[(r[2], r[3])] = statuses.get((r[2], r[3]), 0) + 1
    allowed = {(200, None), (409, "nights_not_available"), (503, "database_unreachable")}
    check(set(statuses) <= allowed, f"{what}: every booking answered 200, 409 or 503 database_unreachable ({statuses})")
    slowest = max(r[1] - r[0] for r in records)
    check(slowest < 12, f"{what}: no booking waited past the writer's 10 s deadline (slowest {slowest:.1f} s)")


def outage(records, since):
    """(first refused after `since`, first accepted after it, seconds between; seconds from `since` to it)."""
    after = sorted((r for r in records if r[1] >= since), key=lambda r: r[1])
    refused = next((r for r in after if r[2] == 503), None)
    if refused is None:
        return None
    accepted = next((r for r in after if r[2] == 200 and r[0] > refused[1] - 0.001 and r[1] > refused[1]), None)
    if accepted is None:
        return None
    return accepted[1] - refused[1], accepted[1] - since


def failover(arguments):
    """fleet.py failover: the whole test; exits 1 on the first failed check."""
    work = tempfile.mkdtemp(prefix="staysearch-failover.")
    os.chmod(work, 0o755)
    hosts = Hosts({"pg1": 11, "pg2": 12, "r1": 21, "r2": 22})
    hosts.create()
    pair = AutoFailover(hosts, os.path.join(work, "pg"))
    replicas, proxy, bookers = [], None, None
    figures = {}
    try:
        started = time.time()
        pair.start_monitor()
        pair.create_node("node1", "pg1", 6011)
        pair.wait_states({"node1": "single"})
        pair.create_node("node2", "pg2", 6012)
        pair.wait_states({"node1": "primary", "node2": "secondary"})
        check(pair.psql("node1", "SHOW synchronous_standby_names") != "",
              f"pg_auto_failover keeps node1 primary and node2 its synchronous standby in their own hosts ({time.time() - started:.0f} s)")
        url = pair.url()
        staysearch("db", "init", url)
        staysearch("db", "load", url, "Antwerp=" + os.path.join(ROOT, "Data/antwerp"))
        staysearch("db", "clock", url, "--scrape-date")
        keys = os.path.join(work, "keys.txt")
        with open(keys, "w") as f:
            f.write(KEY + "\n")
        snapshot = os.path.join(work, "snapshot.ssx")
        staysearch("import", "--from", url, "--output", snapshot)
        for name in ("r1", "r2"):
            replica = HostReplica(hosts, work, name, url, keys)
            shutil.copy(snapshot, replica.index)
            replica.start()
            replicas.append(replica)
        port = free_port()
        proxy = start_haproxy(work, port, [(r.name, f"{hosts.address(r.name)}:8080") for r in replicas])
        base = f"http://127.0.0.1:{port}"
        check(True, f"the database loaded through {url} and two replicas following it behind haproxy")
        ids = [r["id"] for offset in range(0, 1000, 100)
               for r in json.loads(http("GET", f"{base}/v1/search?adults=1&limit=100&offset={offset}")[1])["results"]]
        bookers = Bookers(base, ids)
        bookers.start()

        # Two copies: the standby acknowledges each commit.
        time.sleep(2)
        records, figures["two copies"] = measure_window(bookers, 8)
        check(records and all(r[6] == 2 for r in records if r[2] == 200),
              "bookings with the standby answer copies 2 ({:.0f} requests/s, {:.0f} bookings/s, p50 {:.1f} ms, p99 {:.1f} ms)".format(*figures["two copies"]))
        check(all(r.health()[1]["database_copies"] == 2 for r in replicas), "/healthz says the database keeps 2 copies")

        # The standby cut off: pg_auto_failover chooses availability (wait_primary, one copy), and says so.
        cut = time.time()
        hosts.unplug("pg2")
        figures["standby lost noticed"] = pair.wait_states({"node1": "wait_primary"}, timeout=60, what="node1 in wait_primary")
        time.sleep(1.5)
        records, figures["one copy"] = measure_window(bookers, 8)
        check(records and all(r[6] == 1 for r in records if r[2] == 200),
              "with the standby cut off, node1 goes on alone after {:.1f} s (wait_primary): bookings answer copies 1 "
              "({:.0f} requests/s, {:.0f} bookings/s, p50 {:.1f} ms, p99 {:.1f} ms)".format(figures["standby lost noticed"], *figures["one copy"]))
        check_answers_while_failing(bookers.between(cut, time.time()), "standby cut off")
        check(all(r.health()[1]["database_copies"] == 1 for r in replicas), "/healthz says the database keeps 1 copy")
        metrics = http("GET", replicas[0].base + "/metrics")[1]
        check("staysearch_database_copies 1" in metrics, "/metrics says staysearch_database_copies 1")
        hosts.plug("pg2")
        figures["standby back"] = pair.wait_states({"node1": "primary", "node2": "secondary"}, timeout=90, what="node2 to catch up")
        time.sleep(3)
        records = bookers.between(time.time() - 2.5, time.time())
        check(records and all(r[6] == 2 for r in records if r[2] == 200),
              f"the link back, node2 caught up in {figures['standby back']:.1f} s and bookings are on two copies again")
        wait_for(lambda: all(r.health()[1]["database_copies"] == 2 for r in replicas), "/healthz to say 2 copies", 10)

        # A replica cut off from the database: out of haproxy's turn, searches answered throughout, back after.
        searches = []
        searching = threading.Event()

        def searcher():
            while not searching.is_set():
                try:
                    searches.append(http("GET", base + "/v1/search?adults=2&limit=3", timeout=10)[0])
                except OSError:
                    searches.append(0)
                time.sleep(0.02)

        thread = threading.Thread(target=searcher)
        thread.start()
        hosts.block("r1", "pg1", "pg2")
        figures["replica unready"] = wait_for(lambda: replicas[0].health()[0] == 503, "r1 /healthz 503", 30)
        check(figures["replica unready"] <= MAX_LAG + 6, f"r1 cut off from the database: /healthz 503 after {figures['replica unready']:.1f} s (--max-lag {MAX_LAG})")
        time.sleep(3)
        hosts.unblock("r1", "pg1", "pg2")
        target = int(pair.psql("node1", "SELECT coalesce(max(position), 0) FROM change_log"))
        figures["replica catch-up"] = wait_for(lambda: replicas[0].health()[0] == 200 and replicas[0].health()[1]["applied_position"] >= target,
                                               "r1 to catch up", 60)
        searching.set()
        thread.join()
        check(searches and all(s == 200 for s in searches),
              f"{len(searches)} searches through haproxy all answered while r1 was cut off; r1 caught up {figures['replica catch-up']:.1f} s after the link came back")

        # The primary lost, its data kept: node2 promoted; node1 back, demoted, takes no writes.
        for name, delete in (("node1", False), ("node2", True)):
            survivor = "node2" if name == "node1" else "node1"
            check(primary_of(pair) == name, f"{name} is the primary before it is lost")
            time.sleep(2)
            killed = time.time()
            pair.kill_node(name, delete=delete)
            figures[f"promoted {survivor}"] = pair.wait_states({survivor: "wait_primary"}, timeout=90, what=f"{survivor} promoted")
            wait_for(lambda: any(r[2] == 200 and r[0] > killed + figures[f"promoted {survivor}"] for r in bookers.records), "a booking accepted again", 60)
            time.sleep(2)
            records = bookers.between(killed - 1, time.time())
            gap = outage(records, killed)
            figures[f"outage {name}"] = gap
            check_answers_while_failing(records, f"{name} killed{' and its data deleted' if delete else ''}")
            check(gap is not None, f"{name} killed{' and its data deleted' if delete else ''} while 20 clients book: {survivor} promoted after "
                  f"{figures[f'promoted {survivor}']:.1f} s; bookings refused (503) for {gap[0] if gap else 0:.1f} s, accepted again "
                  f"{gap[1] if gap else 0:.1f} s after the kill")
            if not delete:
                # The old primary returns with its data: the monitor demotes it; it rejoins as the standby.
                writable = []
                watching = threading.Event()

                def watch():
                    while not watching.is_set():
                        answer = pair.psql("node1", "SELECT pg_is_in_recovery()", check=False)
                        if answer == "f":
                            writable.append(time.time())
                        time.sleep(0.1)

                watcher = threading.Thread(target=watch)
                watcher.start()
                pair.checkpoint("node2")  # the promotion's timeline in node2's control file, for pg_rewind
                pair.start_node("node1")
                figures["old primary rejoined"] = pair.wait_states({"node2": "primary", "node1": "secondary"}, timeout=120,
                                                                   what="node1 to rejoin as the standby")
                rewound = "pg_rewind" in open(os.path.join(pair.work, "node1.log")).read() and \
                    "Failed to rewind" not in open(os.path.join(pair.work, "node1.log")).read()
                watching.set()
                watcher.join()
                events = [line for line in pair.events(40).splitlines() if "node1" in line and ("demote" in line or "secondary" in line)]
                check(not writable, f"node1 returned with its data: demoted, {'rewound' if rewound else 'copied again'}, a standby again after {figures['old primary rejoined']:.1f} s, "
                      f"never answering as a primary ({len(events)} monitor events: {events[-1].strip()[:120] if events else ''})")
                status, text = http("POST", base + "/v1/changes", json.dumps({"op": "price", "id": ids[0], "from": "2024-12-20", "to": "2024-12-22", "price": 321}), key=KEY)
                check(status == 200 and json.loads(text).get("copies") == 2, f"writes go to node2 with node1 as its standby ({text.strip()})")

        bookers.stop()
        check_answers_while_failing(bookers.records, "the whole run")
        accepted = [r for r in bookers.records if r[2] == 200]
        held = set(tuple(line.split("|")) for line in pair.psql("node1", "SELECT listing, lower(stay), upper(stay) FROM bookings").splitlines())
        missing = [r[4] for r in accepted if (str(r[4][0]), r[4][1], r[4][2]) not in held]
        check(not missing, f"all {len(accepted)} acknowledged bookings are in the last primary, node1, after two failovers (missing {missing[:3]})")
        nights = {}
        doubled = 0
        for r in accepted:
            listing, checkin, checkout = r[4]
            day = date.fromisoformat(checkin)
            while day < date.fromisoformat(checkout):
                doubled += (listing, day) in nights
                nights[(listing, day)] = True
                day += timedelta(days=1)
        check(doubled == 0, f"no night is booked twice among the {len(accepted)} acknowledged bookings")
        target = int(pair.psql("node1", "SELECT coalesce(max(position), 0) FROM change_log"))
        for replica in replicas:
            wait_for(lambda: replica.health()[1]["applied_position"] >= target, f"{replica.name} at position {target}", 60)
            shown = 0
            for r in accepted:
                status, text = http("GET", f"{replica.base}/v1/listings/{r[4][0]}?checkin={r[4][1]}&checkout={r[4][2]}&min_position={target}")
                shown += status == 200 and all(n["status"] == "booked" for n in json.loads(text)["quote"]["nights"])
            check(shown == len(accepted), f"replica {replica.name} shows all {len(accepted)} acknowledged bookings booked ({shown})")
            check(replica.health()[1]["refused_here"] == 0, f"replica {replica.name} applied no change twice")
        queries = queries_for(82, 100)
        fresh = os.path.join(work, "fresh.ssx")
        staysearch("import", "--from", url, "--output", fresh)
        qfile = os.path.join(work, "queries.jsonl")
        with open(qfile, "w") as f:
            f.writelines(json.dumps(q) + "\n" for q in queries)
        expected = []
        for line in staysearch("batch", "--index", fresh, "--queries", qfile).stdout.splitlines():
            result = json.loads(line)
            result.pop("took_us", None)
            expected.append(json.dumps(result, sort_keys=True))
        for replica in replicas:
            check(answers(replica.base, queries) == expected, f"replica {replica.name} answers 100 queries as a fresh index of node1 (no position skipped)")
        figures["whole test"] = time.time() - started
        print("fleet failover: figures: " + json.dumps({k: v for k, v in figures.items()}, default=str))
        print("fleet failover: all passed")
    except AssertionError as error:
        print(f"fleet failover FAILED: {error} (logs kept in {work})")
        if bookers:
            bookers.stop()
        cleanup(hosts, pair, replicas, proxy)
        sys.exit(1)
    cleanup(hosts, pair, replicas, proxy)
    if os.environ.get("KEEP") != "1":
        shutil.rmtree(work, ignore_errors=True)


def cleanup(hosts, pair, replicas, proxy):
    if proxy:
        proxy.terminate()
        proxy.wait(10)
    for replica in replicas:
        replica.stop()
    pair.stop()
    hosts.remove()
