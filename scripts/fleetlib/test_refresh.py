"""The fleet's test of a new scrape taken in (db refresh) while 60 clients book, with kills: the refresh itself
SIGKILLed midway and run again, a replica SIGKILLed during the refresh, another during a roll of the window."""
import csv
import gzip
import io
import json
import os
import random
import signal
import subprocess
import threading
import time
from datetime import date, timedelta

from .cluster import BIN, KEY, ROOT, http, staysearch
from .checks import answers, check, fresh_answers, queries_for


def later_scrape(folder, rng):
    """The shipped sample as a new scrape in `folder`: 40 listings gone, 30 new (copies with new ids), 600
    repriced 7 %, 50 renamed. Returns the ids it keeps."""
    os.makedirs(folder, exist_ok=True)
    with gzip.open(os.path.join(ROOT, "Data/antwerp/listings.csv.gz"), "rt", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    ids = [row[0] for row in rows]
    shuffled = ids[:]
    rng.shuffle(shuffled)
    gone, repriced, renamed = set(shuffled[:40]), set(shuffled[40:640]), set(shuffled[640:690])
    name = header.index("name")
    kept, added = [], {}
    for row in rows:
        if row[0] in gone:
            continue
        if row[0] in renamed:
            row[name] += " (renovated)"
        kept.append(row)
    for number, row in enumerate(kept[:30]):
        copy = row[:]
        copy[0] = str(9_400_000_000 + number)
        copy[name] = f"New listing {number}"
        added[row[0]] = copy[0]
        kept.append(copy)
    with gzip.open(os.path.join(folder, "listings.csv.gz"), "wt", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(kept)
    with gzip.open(os.path.join(ROOT, "Data/antwerp/calendar.csv.gz"), "rt", newline="") as f:
        reader = csv.reader(f)
        calendar_header = next(reader)
        calendar = list(reader)
    price = calendar_header.index("price")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(calendar_header)
    for row in calendar:
        if row[0] in gone:
            continue
        if row[0] in repriced and row[price].startswith("$"):
            value = float(row[price][1:].replace(",", ""))
            row[price] = f"${value * 1.07:.2f}"
        writer.writerow(row)
        if row[0] in added:
            writer.writerow([added[row[0]]] + row[1:])
    with gzip.open(os.path.join(folder, "calendar.csv.gz"), "wt", newline="") as f:
        f.write(out.getvalue())
    return [int(row[0]) for row in kept], gone


def refresh_entries(fleet):
    return int(fleet.psql("""SELECT count(*) FROM change_log WHERE change LIKE '{"fields"%' OR change LIKE '{"from"%'"""))


def test_refresh_with_kills(fleet):
    rng = random.Random(40)
    folder = os.path.join(fleet.work, "antwerp-later")
    kept, gone = later_scrape(folder, rng)
    listings = kept[:300] + sorted(int(i) for i in gone)
    started_at = fleet.psql("SELECT now()")
    writer = fleet.replicas[0]
    accepted, uncertain = set(), set()
    lock = threading.Lock()
    stop = threading.Event()

    def client(number):
        crng = random.Random(1000 + number)
        while not stop.is_set():
            listing = crng.choice(listings)
            check_in = date(2024, 7, 2) + timedelta(days=crng.randrange(0, 150))
            stay = (listing, check_in.isoformat(), (check_in + timedelta(days=crng.randrange(1, 5))).isoformat())
            line = json.dumps({"op": "book", "id": str(stay[0]), "checkin": stay[1], "checkout": stay[2], "adults": 2})
            try:
                status, _ = http("POST", writer.base + "/v1/changes", line, key=KEY)
            except OSError:
                status = None
            with lock:
                (accepted if status == 200 else uncertain if status is None or status >= 500 else set()).add(stay)
            time.sleep(0.02)

    clients = [threading.Thread(target=client, args=(n,)) for n in range(60)]
    for thread in clients:
        thread.start()
    try:
        # The refresh, killed once it has written some of its listings; a replica killed with it.
        before = refresh_entries(fleet)
        process = subprocess.Popen([BIN, "db", "refresh", fleet.url, "Antwerp=" + folder, "--chunk-size", "10"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while refresh_entries(fleet) < before + 60 and process.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        check(process.poll() is None, "the refresh was still running when it was to be killed")
        process.send_signal(signal.SIGKILL)
        fleet.replicas[1].process.send_signal(signal.SIGKILL)
        process.wait()
        fleet.replicas[1].process.wait()
        partial = refresh_entries(fleet) - before
        check(0 < partial < 690, f"the killed refresh left some of its listings written ({partial} entries)")
        fleet.replicas[1].start()
        # The window rolls a day; a replica killed as it takes the day.
        print("fleet:", staysearch("db", "clock", fleet.url, "--today", "2024-07-01").stdout.strip())
        fleet.replicas[2].process.send_signal(signal.SIGKILL)
        fleet.replicas[2].process.wait()
        fleet.replicas[2].start()
        # The refresh run again finishes the work.
        again = staysearch("db", "refresh", fleet.url, "Antwerp=" + folder, "--chunk-size", "10")
        print("fleet:", again.stdout.strip())
        time.sleep(1)
    finally:
        stop.set()
        for thread in clients:
            thread.join()
    target = fleet.wait_caught_up()

    rows = fleet.psql(f"SELECT listing || ' ' || lower(stay) || ' ' || upper(stay) FROM bookings WHERE booked_at >= '{started_at}'")
    booked = [tuple(line.split(" ")) for line in rows.splitlines()]
    held = {(int(a), b, c) for a, b, c in booked}
    check(len(accepted) > 100, f"the clients booked during the refresh ({len(accepted)} accepted)")
    check(len(held) == len(booked), "no booking is held twice")
    check(accepted <= held, f"every accepted booking is held ({len(accepted - held)} lost)")
    check(held - accepted <= uncertain, "the database holds no booking no client asked for")
    open_nights = fleet.psql("""
        SELECT count(*) FROM bookings b JOIN listings l ON l.id = b.listing CROSS JOIN staysearch_calendar k
        CROSS JOIN LATERAL generate_series(greatest(lower(b.stay), DATE '2024-07-01') - k.first_day + 1, upper(b.stay) - k.first_day) AS d(n)
        WHERE l.night_open[d.n]""")
    check(open_nights == "0", f"every booked night from today on is closed ({open_nights} open)")
    check(fleet.psql(f"SELECT count(*) FROM listings WHERE id IN ({','.join(sorted(gone))})") == "0", "the listings the scrape lost are removed")
    check(fleet.psql("SELECT count(*) FROM listings WHERE name LIKE 'New listing %'") == "30", "the scrape's new listings are added")
    # Every answer whole: dated ones, and those without dates, where a listing without a price of its own
    # is priced by its first priced night from today on, as an index made fresh today prices it.
    queries = queries_for(40)
    dated = sum("checkin" in q for q in queries)
    expected = fresh_answers(fleet, queries)
    for replica in fleet.replicas:
        got = answers(replica.base, queries)
        check(got == expected,
              f"replica {replica.number} at position {target} answers {len(queries)} queries ({dated} dated) as a fresh index")
        check(replica.health()[1]["refused_here"] == 0, f"replica {replica.number} applied no change twice (none refused)")
    third = staysearch("db", "refresh", fleet.url, "Antwerp=" + folder).stdout
    check(" 0 added, 0 updated," in third and " 0 removed" in third, f"the same scrape again changes nothing: {third.strip()}")
