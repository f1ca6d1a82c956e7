"""The fleet's tests of failures: a replica killed mid-stream, PostgreSQL restarted under load, TLS to the database."""
import json
import os
import random
import signal
import threading
from datetime import date

from .cluster import KEY, http, staysearch
from .checks import answers, check, fresh_answers, mixed_changes, queries_for, send


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
