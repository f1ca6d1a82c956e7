"""Helpers the fleet's test groups share: checks, races, answers compared with a fresh index."""
import json
import os
import subprocess
import sys
import threading
from datetime import timedelta

from .cluster import KEY, ROOT, http, staysearch


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("  ok:", message)


def first_listing(base, checkin, checkout):
    status, text = http("GET", f"{base}/v1/search?checkin={checkin}&checkout={checkout}&adults=1&limit=1&sort=price")
    return json.loads(text)["results"][0]["id"]


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
