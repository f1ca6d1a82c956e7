"""The fleet's figures (docs/performance.md): write rate, search latency while writing, visibility, catch-up."""
import json
import os
import random
import subprocess
import threading
import time
from datetime import date, timedelta

from .cluster import BIN, KEY, ROOT, Connections, Fleet, free_port, http, staysearch
from .checks import queries_for


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
