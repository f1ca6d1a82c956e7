#!/usr/bin/env python3
"""A fleet of staysearch replicas following one PostgreSQL system of record (docs/fleet.md).

usage: fleet.py run   [--replicas N] [--port P] [--no-standby]   a primary and its synchronous standby (pg_auto_failover;
                                                  without: one cluster), the shipped sample loaded, N replicas and
                                                  haproxy in front on 127.0.0.1:P; Ctrl-C stops it all
       fleet.py test                              the fleet's tests (races, 10,000 changes, kills, restarts, a refresh)
       fleet.py failover                          hosts apart (network namespaces, as root): pg_auto_failover's standby,
                                                  partitions, the primary lost while 20 clients book
       fleet.py bench [--rate R] [--seconds S] [--behind N]   the fleet's figures
       fleet.py scale [--listings N] [--changed SHARE]          a roll, a refresh and new replicas at N listings

Everything runs on loopback in a temporary folder: a PostgreSQL cluster started by scripts/pg-cluster.sh (as
the 'postgres' user when run as root), replicas started from an index made by 'import --from'. Standard
library only. BIN names the staysearch binary (default .build/debug/staysearch). The parts live in
scripts/fleetlib/: cluster.py (orchestration), checks.py, test_writes.py, test_consistency.py, test_failures.py,
test_refresh.py (the test groups), hosts.py and test_failover.py (hosts apart, failover), bench.py and scale.py
(the figures).
"""
import os
import shutil
import signal
import sys
import time

from fleetlib.bench import bench
from fleetlib.scale import scale
from fleetlib.checks import check
from fleetlib.cluster import KEY, Fleet, free_port
from fleetlib.hosts import AutoFailover, Loopback
from fleetlib.test_failover import failover
from fleetlib.test_consistency import sample_with_aliases, test_aliases, test_mixed_changes, test_page_through_proxy, test_platform_settings
from fleetlib.test_failures import test_database_restart, test_kill_and_restart, test_tls
from fleetlib.test_refresh import test_refresh_with_kills
from fleetlib.test_writes import test_commit_order, test_keys, test_races, test_read_your_writes


def test(arguments):
    fleet = Fleet(3)
    try:
        fleet.start(data=sample_with_aliases(os.path.join(fleet.work, "antwerp")))
        fleet.psql("ALTER SYSTEM SET track_commit_timestamp = on")
        fleet.pg("restart", fleet.cluster)
        fleet.wait_caught_up()
        # The page first, on the sample as loaded: its test's price checks expect the sample's prices.
        for name, step in [("the search page through haproxy", test_page_through_proxy), ("keys", test_keys), ("races", test_races), ("read your writes", test_read_your_writes),
                           ("commit order", test_commit_order), ("TLS", test_tls), ("region aliases", test_aliases),
                           ("platform settings", test_platform_settings)]:
            print(f"fleet test: {name}")
            step(fleet)
        print("fleet test: 10,000 mixed changes")
        ids = test_mixed_changes(fleet)
        print("fleet test: SIGKILL a replica mid-stream")
        test_kill_and_restart(fleet, ids)
        print("fleet test: restart PostgreSQL under load")
        test_database_restart(fleet, ids)
        print("fleet test: a new scrape taken in while 60 clients book; the refresh and two replicas killed, the window rolled")
        test_refresh_with_kills(fleet)
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


def run(arguments):
    replicas = int(arguments[arguments.index("--replicas") + 1]) if "--replicas" in arguments else 3
    port = int(arguments[arguments.index("--port") + 1]) if "--port" in arguments else 8080
    fleet = Fleet(replicas)
    pair = None
    try:
        url = None
        if "--no-standby" not in arguments:
            # A primary and its synchronous standby on loopback, kept by pg_auto_failover (docs/fleet.md).
            pair = AutoFailover(Loopback(), os.path.join(fleet.work, "formation"), monitor_port=free_port())
            pair.start_monitor()
            pair.create_node("node1", "local", free_port())
            pair.wait_states({"node1": "single"})
            pair.create_node("node2", "local", free_port())
            pair.wait_states({"node1": "primary", "node2": "secondary"})
            url = pair.url()
            print(f"fleet: node1 primary, node2 its synchronous standby (pg_auto_failover; state: "
                  f"pg_autoctl show state --pgdata {pair.monitor})")
        fleet.start(url=url)
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
        # A second Ctrl-C (or a SIGTERM besides it) must not cut the stopping short and leave servers running.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("fleet: stopping")
        if pair:
            fleet.stop(keep=True)
            pair.stop()
            shutil.rmtree(fleet.work, ignore_errors=True)
        else:
            fleet.stop()


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "test", "failover", "bench", "scale"):
        sys.exit(__doc__)
    if sys.argv[1] == "run":
        run(sys.argv[2:])
    elif sys.argv[1] == "test":
        test(sys.argv[2:])
    elif sys.argv[1] == "failover":
        failover(sys.argv[2:])
    elif sys.argv[1] == "scale":
        scale(sys.argv[2:])
    else:
        bench(sys.argv[2:])
