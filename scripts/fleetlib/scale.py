"""The fleet's figures at scale (docs/performance.md, "A fleet at scale"): generated listings with day-by-day
prices loaded into PostgreSQL, one replica following a snapshot; the window rolled a day, a later scrape with a
share of listings changed taken in with `db refresh`, and new replicas started from a snapshot plus the log's
tail — each timed, with the replica's search latency measured while it runs."""
import json
import os
import re
import subprocess
import sys
import threading
import time

from .bench import percentile, search_latencies
from .cluster import BIN, ROOT, Fleet, Replica, free_port, http, staysearch


def timed(*args):
    started = time.time()
    result = staysearch(*args)
    return time.time() - started, result.stdout.strip()


def generate(work, name, listings, share):
    out = staysearch("generate", "--listings", str(listings), "--seed", "1", "--pricing", "dynamic", "--format", "insideairbnb",
                     "--gzip", "--changed-share", str(share), "--output", os.path.join(work, name)).stdout
    return re.findall(r"--data '([^']+)'", out)


def ready_seconds(replica, target, started, timeout=900):
    """Seconds from `started` until `replica` answers /healthz 200 at `target` or later."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            status, text = http("GET", replica.base + "/healthz", timeout=2)
            if status == 200 and json.loads(text)["applied_position"] >= target:
                return time.time() - started
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"replica {replica.number} not ready at {target} within {timeout} s")


class Watch:
    """Searches on a replica, 100 a second, and its lag, while something runs."""

    def __init__(self, replica, queries):
        self.replica, self.out, self.lags, self.stop = replica, [], [], threading.Event()
        self.threads = [threading.Thread(target=search_latencies, args=([replica.base], queries, self.stop, [self.out])),
                        threading.Thread(target=self.watch_lag)]
        for thread in self.threads:
            thread.start()

    def watch_lag(self):
        while not self.stop.is_set():
            try:
                status, text = http("GET", self.replica.base + "/healthz", timeout=5)
                health = json.loads(text)
                self.lags.append((health["lag_positions"], health["lag_seconds"]))
            except (OSError, ValueError):
                pass
            time.sleep(0.1)

    def end(self):
        self.stop.set()
        for thread in self.threads:
            thread.join()
        took = [t / 1000 for _, t in self.out]
        wall = [e for e, _ in self.out]
        return (f"{len(took)} searches: took p50 {percentile(took, 0.5):.2f} ms, p99 {percentile(took, 0.99):.2f} ms, "
                f"max {max(took, default=float('nan')):.2f} ms; HTTP p99 {percentile(wall, 0.99):.2f} ms; "
                f"lag at most {max((p for p, _ in self.lags), default=0)} positions, {max((s for _, s in self.lags), default=0):.2f} s")


def scale(arguments):
    listings = int(arguments[arguments.index("--listings") + 1]) if "--listings" in arguments else 1_000_000
    share = float(arguments[arguments.index("--changed") + 1]) if "--changed" in arguments else 0.1
    fleet = Fleet(1)
    report = []

    def say(line):
        print("scale:", line, flush=True)
        report.append(line)

    try:
        seconds = time.time()
        first = generate(fleet.work, "first", listings, 0)
        later = generate(fleet.work, "later", listings, share)
        say(f"generated {listings:,} listings (dynamic prices, seed 1) twice, the second with {share:.0%} changed, in {time.time() - seconds:.0f} s")
        fleet.url = fleet.pg("start", fleet.cluster, str(free_port()))
        staysearch("db", "init", fleet.url)
        took, out = timed("db", "load", fleet.url, *first)
        say(f"db load: {took:.1f} s ({out.splitlines()[0]})")
        staysearch("db", "clock", fleet.url, "--scrape-date")
        snapshots = os.path.join(fleet.work, "snapshots")
        took, out = timed("db", "snapshot", fleet.url, "--to", snapshots)
        say(f"db snapshot: {took:.1f} s ({out})")
        snapshot = os.path.join(snapshots, sorted(os.listdir(snapshots))[-1])
        replica = fleet.replicas[0]
        subprocess.run(["cp", snapshot, replica.index], check=True)
        started = time.time()
        replica.start()
        say(f"a replica from the snapshot, at its position: ready in {ready_seconds(replica, fleet.latest_position(), started):.2f} s")
        cities = [data.split("=", 1)[0] for data in first]
        queries = [json.loads(line) for line in subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts/random-queries.py"), "200", "1", "2025-06-03", "300", *cities],
            capture_output=True, text=True, check=True).stdout.splitlines()]

        watch = Watch(replica, queries)
        time.sleep(10)
        say(f"searches, nothing happening (10 s): {watch.end()}")

        # The window rolls a day.
        watch = Watch(replica, queries)
        time.sleep(2)
        began = time.time()
        staysearch("db", "clock", fleet.url, "--today", "2025-06-02")
        rolled = ready_seconds(replica, fleet.latest_position(), began)
        time.sleep(2)
        say(f"a roll (db clock --today 2025-06-02): applied on the replica {rolled:.3f} s after the clock was set; "
            f"during the 4 s around it: {watch.end()}")

        # A later scrape with a share of listings changed.
        before = fleet.latest_position()
        watch = Watch(replica, queries)
        began = time.time()
        took, out = timed("db", "refresh", fleet.url, *later)
        caught_up = ready_seconds(replica, fleet.latest_position(), began)
        say(f"db refresh: {took:.1f} s; replica caught up {caught_up:.1f} s after it began; log rows {fleet.latest_position() - before:,}; "
            f"log size {fleet.psql('SELECT pg_size_pretty(pg_total_relation_size(' + chr(39) + 'change_log' + chr(39) + '))')}; "
            f"during it: {watch.end()}")
        say(f"  ({out})")

        # New replicas: from the first snapshot (the roll and the refresh to replay), and from a new one.
        for label in ("the first snapshot plus the log's tail (the roll and the refresh)", "a snapshot taken now"):
            if label.startswith("a snapshot"):
                took, out = timed("db", "snapshot", fleet.url, "--to", snapshots)
                say(f"db snapshot: {took:.1f} s ({out})")
                snapshot = os.path.join(snapshots, sorted(os.listdir(snapshots))[-1])
            extra = Replica(fleet, len(fleet.replicas) + 1)
            fleet.replicas.append(extra)
            subprocess.run(["cp", snapshot, extra.index], check=True)
            started = time.time()
            extra.start()
            say(f"a new replica from {label}: ready (health 200 at the latest position) in "
                f"{ready_seconds(extra, fleet.latest_position(), started):.2f} s, copy excluded")
            extra.stop()
        print("\n".join(["scale: summary"] + report))
    finally:
        fleet.stop()
