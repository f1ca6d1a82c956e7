"""The fleet's tests of writes: keys, racing bookings, read-your-writes, commit order."""
import json
from datetime import date, timedelta

from .cluster import KEY, http
from .checks import check, first_listing, quotes_agree, race


def test_keys(fleet):
    base = fleet.replicas[0].base
    line = '{"op":"price","id":"1","from":"2024-07-01","to":"2024-07-02","price":10}'
    check(http("POST", base + "/v1/changes", line)[0] == 401, "a write with no key is answered 401")
    check(http("POST", base + "/v1/changes", line, key="not-the-key-0123456789")[0] == 403, "a write with a wrong key is answered 403")
    check(http("GET", base + "/v1/search?adults=1&limit=1")[0] == 200, "a read with no key is answered 200")


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
