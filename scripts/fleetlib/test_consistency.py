"""The fleet's tests of what replicas answer: 10,000 mixed changes against a fresh index, region aliases, the
search page through haproxy."""
import json
import sys
import os
import random
import subprocess
from urllib.parse import quote
import threading
import time
from datetime import date

from .cluster import ROOT, free_port, http
from .checks import answers, check, fresh_answers, mixed_changes, queries_for, send


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


def sample_with_aliases(folder):
    """The shipped sample with an aliases file (two of its regions have Korean names too) and neighbourhood
    outlines (scripts/neighbourhood-outlines.py) and fees (scripts/fees-sample.py), which reach the replicas through the database."""
    os.makedirs(folder, exist_ok=True)
    for name in ["listings.csv.gz", "calendar.csv.gz"]:
        os.symlink(os.path.join(ROOT, "Data/antwerp", name), os.path.join(folder, name))
    with open(os.path.join(folder, "aliases.csv"), "w") as f:
        f.write("alias,region\n앤트워프,Antwerp\n중앙역,Centraal Station\n")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/neighbourhood-outlines.py"), folder], check=True, capture_output=True)
    # Fees on a third of the listings: `db load` carries them, and the page's trip quote through haproxy shows them.
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fees-sample.py"), folder], check=True, capture_output=True)
    return folder


def test_aliases(fleet):
    for replica in fleet.replicas:
        totals = [json.loads(http("GET", f"{replica.base}/v1/search?region={quote(region)}&adults=1&limit=1")[1])["total"]
                  for region in ["중앙역", "Centraal Station", "앤트워프", "Antwerp"]]
        check(totals[0] == totals[1] > 0 and totals[2] == totals[3] > 0,
              f"replica {replica.number} finds regions by the aliases the database holds ({totals})")


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


def test_platform_settings(fleet):
    """`db settings` reaches every replica through the change log: /v1/index shows the service fee and the tax,
    searches price with the fee and quotes show the tax; a city the database lacks is refused in one line
    (exit 64, nothing written); set back to none, the answers are those from before."""
    from .cluster import staysearch
    query = "/v1/search?checkin=2024-07-12&checkout=2024-07-19&adults=3&sort=price&limit=20"
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k != "took_us"}
    before = [strip(http("GET", replica.base + query)[1]) for replica in fleet.replicas]
    position = fleet.latest_position()
    bad = staysearch("db", "settings", fleet.url, "--tax", "Atlantis=5", check=False)
    check(bad.returncode == 64 and "'Atlantis' is not a city of the database" in bad.stderr and bad.stderr.strip().count("\n") == 0
          and fleet.latest_position() == position, f"a tax for an unknown city is refused in one line, nothing logged ({bad.returncode}: {bad.stderr.strip()})")
    said = staysearch("db", "settings", fleet.url, "--service-fee", "14.2", "--tax", "Antwerp=7").stdout.strip()
    check(said.startswith("service fee 14.2 %; taxes: Antwerp 7 %"), f"db settings says what it set: {said}")
    fleet.wait_caught_up()
    for replica, old in zip(fleet.replicas, before):
        fees = json.loads(http("GET", replica.base + "/v1/index")[1])["fees"]
        check(fees == {"service_fee_percent": 14.2, "taxes": {"Antwerp": 7}}, f"replica {replica.number}'s /v1/index shows the settings: {fees}")
        now = strip(http("GET", replica.base + query)[1])
        first = now["results"][0]
        quote = json.loads(http("GET", f"{replica.base}/v1/listings/{first['id']}?checkin=2024-07-12&checkout=2024-07-19&adults=3")[1])["quote"]
        check(now != old and quote["trip_price"] == first["total_price"] and quote["service_fee"]["percent"] == 14.2
              and quote["taxes"]["percent"] == 7, f"replica {replica.number} prices with the service fee and quotes the tax")
    staysearch("db", "settings", fleet.url, "--service-fee", "0", "--tax", "Antwerp=0")
    fleet.wait_caught_up()
    after = [strip(http("GET", replica.base + query)[1]) for replica in fleet.replicas]
    check(after == before, "with the settings back to none, every replica answers as before")
