#!/usr/bin/env python3
"""staysearch side by side with DuckDB and SQLite on the same generated Inside Airbnb data.

One run: generate the data (`staysearch generate --format insideairbnb`), import it into a staysearch
index, load the same CSV files into DuckDB and SQLite with the schema a user would write, run one query
mix through `staysearch batch` and through SQL that follows docs/query-semantics.md, check that every engine gives the
same answer to every query (total, ids in order, histogram), and print one table.

Each engine runs in its own child process, so that its peak memory (max RSS) is its own.
Run it through run.sh, which makes the virtual environment with the Python packages.

usage: peers.py [--listings N] [--queries Q] [--seed S] [--pricing calibrated|dynamic] [--gzip] [--engines staysearch,duckdb,sqlite] [--work DIR]
"""
import argparse
import json
import os
import random
import resource
import shutil
import struct
import subprocess
import sys
import time
import unicodedata
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BINARY = os.environ.get("STAYSEARCH_BINARY", os.path.join(ROOT, ".build", "release", "staysearch"))
FIRST_DAY = date(2025, 6, 1)  # the generator's first calendar day
DAYS = 365
BINS = 30
HIGH_PERCENTILE = 95
ONE_CORE = "staysearch 1 core"

# ---------------------------------------------------------------------------------------------
# The query mix


KINDS = ["region", "dates", "dates_guests_price", "no_region", "long_stay", "narrow_price", "wide_price"]


def index_calendar(path):
    """The first calendar day and the day count of a saved index, from its header (docs/index-file-format.md:
    after the magic, version, header size, file size and rows, the first day as days since 1970 and the day
    count, little-endian Int32s at bytes 32 and 36)."""
    with open(path, "rb") as f:
        head = f.read(40)
    if len(head) < 40 or head[:8] != b"STAYSRCH":
        sys.exit(f"peers.py: {path} is not a saved index")
    first, days = struct.unpack_from("<ii", head, 32)
    return date(1970, 1, 1) + timedelta(days=first), days


def make_queries(count, seed, regions, first_day=FIRST_DAY, days=DAYS):
    """`count` queries, the kinds in turn, each with the default histogram (30 bins) and the top 20; stays
    within the `days` days from `first_day`."""
    rng = random.Random(seed)
    cities = [r for r in regions if r["level"] == "city"]
    queries = []
    for number in range(count):
        kind = KINDS[number % len(KINDS)]
        q = {}
        if kind != "no_region":
            # Cities often, then any city, group or neighbourhood; sometimes typed without accents.
            pool = cities if rng.random() < 0.4 else regions
            name = rng.choice(pool)["name"]
            q["region"] = fold(name) if rng.random() < 0.2 else name
        if kind != "region":
            nights = rng.choice([14, 21, 28]) if kind == "long_stay" else rng.choice([1, 2, 3, 4, 5, 7])
            checkin = first_day + timedelta(days=rng.randrange(days - nights))
            q["checkin"] = checkin.isoformat()
            q["checkout"] = (checkin + timedelta(days=nights)).isoformat()
        q["adults"] = rng.choice([1, 2, 2, 2, 3, 4])
        if kind == "dates_guests_price":
            if rng.random() < 0.5:
                q["children"] = rng.choice([1, 2])
            low = rng.choice([0, 50, 80, 100])
            q["min_price"], q["max_price"] = low, low + rng.choice([50, 100, 200])
            if rng.random() < 0.3:
                q["room_type"] = rng.choice(["Entire home/apt", "Private room"])
        elif kind == "narrow_price":
            low = rng.choice([60, 80, 100, 120, 150])
            q["min_price"], q["max_price"] = low, low + 10
        elif kind == "wide_price":
            q["min_price"], q["max_price"] = 0, rng.choice([500, 1000, 5000])
        q["sort"] = rng.choice(["price", "price", "price-desc", "rating", "reviews"])
        q["limit"] = 20
        q["_kind"] = kind
        queries.append(q)
    return queries


TRAVELLER_STAYS = [1, 2, 3, 7, 14, None]


def make_traveller_queries(count, seed, first_day=FIRST_DAY, days=DAYS):
    """`count` queries of travellers who have not picked a place yet: every listing, one or two adults, no
    room type and no price range, in price order, the top 20; stays of 1, 2, 3, 7 and 14 nights and none
    (no dates) in turn, within the `days` days from `first_day`."""
    rng = random.Random(seed)
    queries = []
    for number in range(count):
        nights = TRAVELLER_STAYS[number % len(TRAVELLER_STAYS)]
        q = {}
        if nights is not None:
            checkin = first_day + timedelta(days=rng.randrange(days - nights))
            q["checkin"] = checkin.isoformat()
            q["checkout"] = (checkin + timedelta(days=nights)).isoformat()
        q["adults"] = rng.choice([1, 2, 2])
        q["sort"] = "price"
        q["limit"] = 20
        queries.append(q)
    return queries


DETAIL_AMENITIES = ["Wifi", "Kitchen", "Washer", "Dedicated workspace", "Free parking on premises", "Pool", "Elevator"]
DETAIL_PROPERTY_TYPES = ["Entire rental unit", "Entire condo", "Entire home", "Private room in home"]


def make_detail_queries(count, seed, centres):
    """`count` queries of the kind "details" (the filter panel and the map): amenities (all of them),
    bedrooms, a map box around the city, property types (any), instant book, superhost; dates most of
    the time. `centres` maps each city to the (lat, lon) its listings sit around."""
    rng = random.Random(seed + 1)
    queries = []
    for _ in range(count):
        city = rng.choice(sorted(centres))
        q = {}
        if rng.random() < 0.5:
            q["region"] = city
        if rng.random() < 0.7:
            nights = rng.choice([1, 2, 3, 4, 5, 7])
            checkin = FIRST_DAY + timedelta(days=rng.randrange(DAYS - nights))
            q["checkin"], q["checkout"] = checkin.isoformat(), (checkin + timedelta(days=nights)).isoformat()
        q["adults"] = rng.choice([1, 2, 2, 3])
        q["amenities"] = rng.sample(DETAIL_AMENITIES[:5], rng.choice([1, 2])) + (["Pool"] if rng.random() < 0.1 else [])
        if rng.random() < 0.6:
            q["bedrooms"] = rng.choice([1, 2, 3])
        if rng.random() < 0.7:
            lat, lon = centres[city]
            half = rng.choice([0.01, 0.02, 0.04])
            q["bbox"] = [round(lat - half, 4), round(lon - 1.5 * half, 4), round(lat + half, 4), round(lon + 1.5 * half, 4)]
        if rng.random() < 0.3:
            q["property_type"] = rng.sample(DETAIL_PROPERTY_TYPES, rng.choice([1, 2]))
        if rng.random() < 0.2:
            q["instant_bookable"] = True
        if rng.random() < 0.2:
            q["superhost"] = True
        q["sort"] = rng.choice(["price", "price-desc", "rating", "reviews"])
        q["limit"] = 20
        if rng.random() < 0.5:
            q["facets"] = ["room_type", "property_type", "amenities", "bedrooms", "instant_bookable", "superhost"]
            q["facet_limit"] = 5
        q["_kind"] = "details"
        queries.append(q)
    return queries


def city_centres(folders):
    """The mean position of each city's first 2,000 listings (the generator scatters them around its centre)."""
    import csv
    centres = {}
    for city, folder in folders:
        with open_text(data_file(folder, "listings")) as f:
            points = [(float(r["latitude"]), float(r["longitude"])) for _, r in zip(range(2000), csv.DictReader(f))]
        if points:
            centres[city] = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    return centres


def fold(text):
    """Folds a name as staysearch matches regions: lower case, no diacritics, ß ø æ … spelled out."""
    spelled = {"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
               "ħ": "h", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n"}
    out = []
    for ch in unicodedata.normalize("NFD", text).lower():
        if unicodedata.category(ch) in ("Mn", "Me", "Mc"):
            continue
        out.append(spelled.get(ch, ch))
    return " ".join("".join(out).split())


# ---------------------------------------------------------------------------------------------
# The SQL engines (one code path; the dialects differ only in the load step)


class SQLEngine:
    """Runs the query mix on a DB-API connection whose tables `listings` and `calendar` are loaded."""

    def __init__(self, connection, names):
        self.db = connection
        self.names = names  # region names present in the data (city, group, neighbourhood)

    def execute(self, sql, parameters=()):
        return self.db.execute(sql, parameters).fetchall()

    def region_condition(self, region):
        """Matches docs/query-semantics.md: a name matches a city, neighbourhood group or neighbourhood, ignoring case and
        diacritics; resolved to the stored spellings first, as an app's region picker would."""
        key = fold(region)
        spellings = sorted({name for name in self.names if fold(name) == key})
        if not spellings:
            raise ValueError(f"unknown region {region!r}")
        marks = ", ".join("?" for _ in spellings)
        return f"(l.city IN ({marks}) OR l.grp IN ({marks}) OR l.hood IN ({marks}))", spellings * 3

    def answer(self, q):
        nights = self.make_matches(q, "m")
        answer = self.answer_from_matches(q, nights)
        if q.get("facets"):
            answer["facets"] = {facet: self.facet(q, facet, nights) for facet in q["facets"]}
        return answer

    FACET_FILTERS = {"room_type": "room_type", "property_type": "property_type", "bedrooms": "bedrooms",
                     "instant_bookable": "instant_bookable", "superhost": "superhost", "amenities": None}

    def facet(self, q, facet, nights):
        """The facet counts of docs/query-semantics.md: over the matches of every filter but the facet's own (amenities: all of
        them), the price range applied; most first, ties by value ascending, at most facet_limit."""
        own = self.FACET_FILTERS[facet]
        table = "m"
        if own is not None and own in q:
            table = "mf"
            self.make_matches({k: v for k, v in q.items() if k != own}, table)
        price, parameters = self.price_condition(q, nights)
        value = {"room_type": "l.room_type", "property_type": "l.ptype_shown", "bedrooms": "l.bedrooms",
                 "instant_bookable": "l.instant", "superhost": "l.superhost", "amenities": "a.shown"}[facet]
        join = "JOIN amenities a ON a.listing_id = l.id" if facet == "amenities" else ""
        rows = self.execute(f"""SELECT {value}, COUNT(*) FROM {table} f JOIN listings l ON l.id = f.id {join}
                                WHERE {price.replace('total', 'f.total')} AND {value} IS NOT NULL GROUP BY {value}""",
                            parameters)
        if facet in ("instant_bookable", "superhost"):
            rows = [(bool(v), n) for v, n in rows]
        rows.sort(key=lambda row: (-row[1], row[0]))
        return [{"value": v, "count": n} for v, n in rows[:q.get("facet_limit", 10)]]

    def price_condition(self, q, nights):
        """The price range on the nightly price, exactly (min × nights ≤ total ≤ max × nights)."""
        price, parameters = "1 = 1", []
        if "min_price" in q:
            price += " AND total >= ?"
            parameters.append(q["min_price"] * 100 * nights)
        if "max_price" in q:
            price += " AND total <= ?"
            parameters.append(q["max_price"] * 100 * nights)
        return price, parameters

    def make_matches(self, q, table):
        """Creates the temporary table `table` of the listings matching every filter of `q` but the price
        range, with their total (or price without dates); returns the nights (1 without dates)."""
        conditions, parameters = ["l.accommodates >= ?"], [q.get("adults", 1) + q.get("children", 0)]
        if "region" in q:
            condition, values = self.region_condition(q["region"])
            conditions.append(condition)
            parameters += values
        if "room_type" in q:
            conditions.append("l.room_type = ?")
            parameters.append(q["room_type"])
        if "bedrooms" in q:
            conditions.append("l.bedrooms >= ?")      # NULL (unknown) never matches
            parameters.append(q["bedrooms"])
        if "property_type" in q:
            conditions.append(f"l.ptype IN ({', '.join('?' for _ in q['property_type'])})")
            parameters += [fold(name) for name in q["property_type"]]
        if q.get("instant_bookable"):
            conditions.append("l.instant")
        if q.get("superhost"):
            conditions.append("l.superhost")
        if "bbox" in q:
            south, west, north, east = (round(value * 1e7) for value in q["bbox"])
            conditions.append("l.lat7 BETWEEN ? AND ?")
            parameters += [south, north]
            conditions.append("l.lon7 BETWEEN ? AND ?" if west <= east else "(l.lon7 >= ? OR l.lon7 <= ?)")
            parameters += [west, east]
        for name in q.get("amenities", []):
            conditions.append("EXISTS (SELECT 1 FROM amenities a WHERE a.listing_id = l.id AND a.name = ?)")
            parameters.append(fold(name))
        where = " AND ".join(conditions)
        if "checkin" in q:
            checkin, checkout = date.fromisoformat(q["checkin"]), date.fromisoformat(q["checkout"])
            nights = (checkout - checkin).days
            # Every night in [checkin, checkout) in the calendar, available and priced (the calendar's
            # price, else the listing's); the stay rules of the check-in night allow `nights`.
            matches = f"""
                SELECT l.id AS id, SUM(COALESCE(c.price, l.price)) AS total, l.rating AS rating, l.reviews AS reviews
                FROM listings l JOIN calendar c ON c.listing_id = l.id
                WHERE {where} AND c.date >= ? AND c.date < ?
                GROUP BY l.id, l.rating, l.reviews, l.minimum_nights, l.maximum_nights
                HAVING COUNT(*) = ?
                   AND MIN(CASE WHEN c.available AND COALESCE(c.price, l.price) IS NOT NULL THEN 1 ELSE 0 END) = 1
                   AND ? >= COALESCE(MAX(CASE WHEN c.date = ? THEN c.minimum_nights END), l.minimum_nights, 1)
                   AND ? <= COALESCE(MAX(CASE WHEN c.date = ? THEN c.maximum_nights END), l.maximum_nights, 2147483647)
            """
            parameters += [self.day(checkin), self.day(checkout), nights,
                           nights, self.day(checkin), nights, self.day(checkin)]
        else:
            nights = 1
            matches = f"""
                SELECT l.id AS id, l.base_price AS total, l.rating AS rating, l.reviews AS reviews
                FROM listings l WHERE {where} AND l.base_price IS NOT NULL
            """
        self.db.execute(f"DROP TABLE IF EXISTS {table}")
        self.db.execute(f"CREATE TEMP TABLE {table} AS {matches}", parameters)
        return nights

    def answer_from_matches(self, q, nights):
        count, low_total, total_sum = self.execute("SELECT COUNT(*), MIN(total), SUM(total) FROM m")[0]
        unit = nights * 100
        # The histogram's bounds: lo the lowest nightly price rounded down to a whole unit, hi the
        # smaller of the nearest-rank 95th percentile and Q3 + 3 × (Q3 − Q1), rounded up (at least
        # lo + 1); both in cents.
        if count == 0:
            lo, hi = 0, 100
        else:
            lo = low_total // unit * 100

            def nearest_rank(percent):
                rank = (percent * count + 99) // 100 - 1
                return self.execute("SELECT total FROM m ORDER BY total LIMIT 1 OFFSET ?", (rank,))[0][0]

            q1, q3 = nearest_rank(25), nearest_rank(75)
            cut = min(nearest_rank(HIGH_PERCENTILE), q3 + 3 * (q3 - q1))
            hi = max((cut + unit - 1) // unit * 100, lo + 100)
        low, high, width = lo * nights, hi * nights, (hi - lo) * nights
        counts, underflow, overflow = [0] * BINS, 0, 0
        for bin_, n in self.execute(f"""
                SELECT CASE WHEN total < ? THEN -1 WHEN total > ? THEN -2
                            ELSE {self.bin_of_total} END AS b, COUNT(*)
                FROM m GROUP BY b""", (low, high, low, width)):
            if bin_ == -1:
                underflow = n
            elif bin_ == -2:
                overflow = n
            else:
                counts[int(bin_)] = n
        average = None if count == 0 else (2 * int(total_sum) + count * nights) // (2 * count * nights)
        histogram = {"lo": lo, "hi": hi, "counts": counts, "underflow": underflow, "overflow": overflow,
                     "count": count, "average": average}
        # The page: the price range on the nightly price, exactly (min × nights ≤ total ≤ max × nights).
        price, price_parameters = self.price_condition(q, nights)
        total = self.execute(f"SELECT COUNT(*) FROM m WHERE {price}", price_parameters)[0][0]
        order = {
            "price": "total ASC, id ASC",
            "price-desc": "total DESC, id ASC",
            "rating": "rating IS NULL, rating DESC, reviews DESC, id ASC",
            "reviews": "reviews DESC, id ASC",
        }[q.get("sort", "price")]
        ids = [str(row[0]) for row in self.execute(
            f"SELECT id FROM m WHERE {price} ORDER BY {order} LIMIT ? OFFSET ?",
            price_parameters + [q.get("limit", 20), q.get("offset", 0)])]
        return {"total": total, "ids": ids, "histogram": histogram}


def csv_folders(data):
    """The (city, folder) pairs of a generated data folder, from the generator's `CITY=DIR` lines."""
    with open(os.path.join(data, "folders.txt"), encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("=", 1)) for line in f if "=" in line]


def data_file(folder, base):
    """`base.csv` in `folder`, or `base.csv.gz` when only that is there (as Inside Airbnb ships them)."""
    plain = os.path.join(folder, base + ".csv")
    return plain if os.path.exists(plain) else plain + ".gz"


def open_text(path):
    import gzip
    return gzip.open(path, "rt", newline="", encoding="utf-8") if path.endswith(".gz") \
        else open(path, newline="", encoding="utf-8")


def gzip_copy(data):
    """A copy of the generated folder with every CSV file gzipped (default level, two files at a time), as
    Inside Airbnb publishes them; made once and kept beside the plain one."""
    target = data + "-gz"
    if os.path.exists(os.path.join(target, "folders.txt")):
        return target
    shutil.rmtree(target, ignore_errors=True)
    lines, jobs = [], []
    for city, folder in csv_folders(data):
        copy = os.path.join(target, os.path.relpath(folder, data))
        os.makedirs(copy, exist_ok=True)
        lines.append(f"{city}={copy}\n")
        for name in ("listings.csv", "calendar.csv"):
            jobs.append((os.path.join(folder, name), os.path.join(copy, name + ".gz")))
    start = time.perf_counter()
    running = []
    for source, destination in jobs:
        if len(running) == 2:
            running.pop(0).wait()
        with open(source, "rb") as input_, open(destination, "wb") as output:
            running.append(subprocess.Popen(["gzip", "-c"], stdin=input_, stdout=output))
    for process in running:
        if process.wait() != 0:
            sys.exit("peers: gzip failed")
    with open(os.path.join(target, "folders.txt"), "w", encoding="utf-8") as f:
        f.write("".join(lines))
    print(f"gzipped the CSV files in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return target


def load_duckdb(data, database):
    import duckdb
    db = duckdb.connect(database)
    money = "CAST(round(CAST(replace(replace({0}, '$', ''), ',', '') AS DECIMAL(18, 2)) * 100) AS BIGINT)"
    db.execute("""CREATE TABLE listings (id BIGINT PRIMARY KEY, city VARCHAR, grp VARCHAR, hood VARCHAR,
                  room_type VARCHAR, accommodates INTEGER, price BIGINT, minimum_nights INTEGER,
                  maximum_nights INTEGER, reviews INTEGER, rating DOUBLE, base_price BIGINT, bedrooms INTEGER,
                  ptype VARCHAR, ptype_shown VARCHAR, instant BOOLEAN, superhost BOOLEAN, lat7 BIGINT, lon7 BIGINT)""")
    db.execute("CREATE TABLE amenities (listing_id BIGINT, name VARCHAR, shown VARCHAR)")
    db.execute("""CREATE TABLE calendar (listing_id BIGINT, date DATE, available BOOLEAN, price BIGINT,
                  minimum_nights INTEGER, maximum_nights INTEGER)""")
    for city, folder in csv_folders(data):
        db.execute(f"""INSERT INTO listings SELECT id, ?, NULLIF(neighbourhood_group_cleansed, ''),
                       neighbourhood_cleansed, room_type, accommodates, {money.format('price')}, minimum_nights,
                       maximum_nights, number_of_reviews, review_scores_rating, NULL,
                       TRY_CAST(bedrooms AS INTEGER), NULLIF(lower(strip_accents(trim(property_type))), ''),
                       NULLIF(trim(property_type), ''),
                       instant_bookable = 't', host_is_superhost = 't',
                       CAST(round(latitude * 1e7) AS BIGINT), CAST(round(longitude * 1e7) AS BIGINT)
                       FROM read_csv(?, header = true, delim = ',', quote = '"', escape = '"',
                                     types = {{'id': 'BIGINT', 'price': 'VARCHAR', 'bedrooms': 'VARCHAR',
                                               'neighbourhood_group_cleansed': 'VARCHAR', 'property_type': 'VARCHAR',
                                               'amenities': 'VARCHAR', 'instant_bookable': 'VARCHAR',
                                               'host_is_superhost': 'VARCHAR', 'latitude': 'DOUBLE', 'longitude': 'DOUBLE'}})""",
                   (city, data_file(folder, "listings")))
        # amenities is a JSON list of strings (DuckDB's json extension reads it, escapes and all); the generated
        # files spell each amenity one way, so its folded name and its shown name pair up.
        db.execute("""INSERT INTO amenities SELECT DISTINCT id, lower(strip_accents(trim(name))), trim(name)
                      FROM (SELECT id, unnest(from_json(amenities, '["VARCHAR"]')) AS name
                            FROM read_csv(?, header = true, delim = ',', quote = '"', escape = '"',
                                          types = {'id': 'BIGINT', 'amenities': 'VARCHAR'}))
                      WHERE trim(name) <> ''""", (data_file(folder, "listings"),))
        db.execute(f"""INSERT INTO calendar SELECT listing_id, date, available = 't', {money.format('price')},
                       minimum_nights, maximum_nights
                       FROM read_csv(?, header = true, delim = ',', quote = '"', escape = '"',
                                     columns = {{'listing_id': 'BIGINT', 'date': 'DATE', 'available': 'VARCHAR',
                                                 'price': 'VARCHAR', 'adjusted_price': 'VARCHAR',
                                                 'minimum_nights': 'INTEGER', 'maximum_nights': 'INTEGER'}})""",
                   (data_file(folder, "calendar"),))
    # The price without dates: the listing's, else its first priced night.
    db.execute("""UPDATE listings SET base_price = COALESCE(listings.price, f.first_price)
                  FROM (SELECT listing_id, arg_min(price, date) FILTER (WHERE price IS NOT NULL) AS first_price
                        FROM calendar GROUP BY listing_id) f
                  WHERE f.listing_id = listings.id""")
    db.execute("UPDATE listings SET base_price = price WHERE base_price IS NULL")
    db.execute("CREATE INDEX amenities_by_listing ON amenities (listing_id, name)")
    db.execute("CHECKPOINT")
    return db


def load_sqlite(data, database):
    try:
        import pysqlite3 as sqlite3  # SQLite from PyPI (a current release)
    except ImportError:
        import sqlite3
    import csv
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -4000000")
    db.execute("PRAGMA temp_store = MEMORY")
    db.execute("""CREATE TABLE listings (id INTEGER PRIMARY KEY, city TEXT, grp TEXT, hood TEXT, room_type TEXT,
                  accommodates INTEGER, price INTEGER, minimum_nights INTEGER, maximum_nights INTEGER,
                  reviews INTEGER, rating REAL, base_price INTEGER, bedrooms INTEGER, ptype TEXT, ptype_shown TEXT,
                  instant INTEGER, superhost INTEGER, lat7 INTEGER, lon7 INTEGER)""")
    db.execute("CREATE TABLE amenities (listing_id INTEGER, name TEXT, shown TEXT, PRIMARY KEY (listing_id, name)) WITHOUT ROWID")
    db.execute("""CREATE TABLE calendar (listing_id INTEGER, date TEXT, available INTEGER, price INTEGER,
                  minimum_nights INTEGER, maximum_nights INTEGER, PRIMARY KEY (listing_id, date)) WITHOUT ROWID""")

    def money(text):
        return int(round(float(text.replace("$", "").replace(",", "")) * 100)) if text else None

    def integer(text):
        return int(text) if text else None

    db.execute("BEGIN")
    for city, folder in csv_folders(data):
        with open_text(data_file(folder, "listings")) as f:
            amenity_rows = []

            def listing_row(r):
                shown = {fold(a): a.strip() for a in reversed(json.loads(r["amenities"] or "[]"))}
                amenity_rows.extend((int(r["id"]), name, spelling) for name, spelling in shown.items() if name)
                return (int(r["id"]), city, r["neighbourhood_group_cleansed"] or None, r["neighbourhood_cleansed"],
                        r["room_type"], int(r["accommodates"]), money(r["price"]), integer(r["minimum_nights"]),
                        integer(r["maximum_nights"]), int(r["number_of_reviews"]),
                        float(r["review_scores_rating"]) if r["review_scores_rating"] else None,
                        integer(r["bedrooms"]), fold(r["property_type"]) or None, r["property_type"].strip() or None,
                        r["instant_bookable"] == "t",
                        r["host_is_superhost"] == "t", round(float(r["latitude"]) * 1e7), round(float(r["longitude"]) * 1e7))
            db.executemany("INSERT INTO listings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)",
                           (listing_row(r) for r in csv.DictReader(f)))
            db.executemany("INSERT INTO amenities VALUES (?, ?, ?)", amenity_rows)
        with open_text(data_file(folder, "calendar")) as f:
            rows = csv.reader(f)
            next(rows)
            db.executemany("INSERT INTO calendar VALUES (?, ?, ?, ?, ?, ?)", (
                (int(r[0]), r[1], r[2] == "t", money(r[3]), integer(r[5]), integer(r[6])) for r in rows))
    db.execute("""UPDATE listings SET base_price = COALESCE(price, (
                      SELECT c.price FROM calendar c WHERE c.listing_id = listings.id AND c.price IS NOT NULL
                      ORDER BY c.date LIMIT 1))""")
    db.execute("COMMIT")
    return db


def run_sql_engine(engine, data, work, queries_path, answers_path):
    """Child process: load, run every query, write answers and per-query times (µs); print the load time."""
    start = time.perf_counter()
    if engine == "duckdb":
        database = os.path.join(work, "peers.duckdb")
        for path in (database, database + ".wal"):
            if os.path.exists(path):
                os.remove(path)
        db = load_duckdb(data, database)
        day = lambda d: d  # DATE parameters
        bin_of_total = f"LEAST((total - ?) * {BINS} // ?, {BINS - 1})"  # // divides integers
    else:
        database = os.path.join(work, "peers.sqlite")
        if os.path.exists(database):
            os.remove(database)
        db = load_sqlite(data, database)
        day = lambda d: d.isoformat()
        bin_of_total = f"MIN((total - ?) * {BINS} / ?, {BINS - 1})"  # / on integers divides integers
    load_seconds = time.perf_counter() - start
    names = {row[0] for row in db.execute(
        "SELECT city FROM listings UNION SELECT grp FROM listings UNION SELECT hood FROM listings").fetchall()
        if row[0] is not None}
    sql = SQLEngine(db, names)
    sql.day = day
    sql.bin_of_total = bin_of_total
    with open(queries_path, encoding="utf-8") as f, open(answers_path, "w", encoding="utf-8") as out:
        for line in f:
            q = json.loads(line)
            began = time.perf_counter()
            answer = sql.answer(q)
            answer["took_us"] = (time.perf_counter() - began) * 1e6
            out.write(json.dumps(answer) + "\n")
    print(json.dumps({"load_seconds": load_seconds, "size_bytes": os.path.getsize(database)}))


# ---------------------------------------------------------------------------------------------
# The parent: generate, run each engine as a child, compare, print the table


def run_child(arguments, **kwargs):
    """Runs a command; returns (stdout, seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, **kwargs)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"peers: {' '.join(arguments[:3])}… failed (status {status})")
    return output.decode(), seconds, usage.ru_maxrss / 1024


def percentile(values, p):
    ordered = sorted(values)
    return ordered[max(0, -(-p * len(ordered) // 100) - 1)]


def staysearch_answer(line):
    output = json.loads(line)
    if "error" in output:
        return {"error": output["error"]}
    h = output["histogram"]
    cents = lambda v: None if v is None else round(v * 100)
    return {"total": output["total"], "ids": [r["id"] for r in output["results"]],
            "histogram": {"lo": cents(h["lo"]), "hi": cents(h["hi"]), "counts": h["counts"],
                          "underflow": h["underflow"], "overflow": h["overflow"], "count": h["count"],
                          "average": cents(h["average_nightly_price"])},
            "took_us": output["took_us"]} | ({"facets": output["facets"]} if "facets" in output else {})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listings", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=700)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--detail-queries", type=int, default=100,
                        help="queries of the kind 'details' (amenities, bedrooms, map box, …) after the mix")
    parser.add_argument("--pricing", choices=["calibrated", "dynamic"], default="calibrated",
                        help="the generator's pricing: flat calendars as in the samples, or prices that change most days")
    parser.add_argument("--engines", default="staysearch,duckdb,sqlite")
    parser.add_argument("--gzip", action="store_true",
                        help="import and load .csv.gz files (as Inside Airbnb ships them) instead of plain CSV")
    parser.add_argument("--work", default=os.path.join(HERE, ".work"))
    parser.add_argument("--emit-queries", metavar="INDEX",
                        help="only print the query mix (JSON lines) for a saved index's regions, and exit")
    parser.add_argument("--travellers", type=int, default=0, metavar="N",
                        help="with --emit-queries: print N queries over every listing with few filters instead "
                             "(stays of 1, 2, 3, 7, 14 nights and none, in turn)")
    parser.add_argument("--child", nargs=5, metavar=("ENGINE", "DATA", "WORK", "QUERIES", "ANSWERS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_sql_engine(*args.child)
        return
    if args.emit_queries:
        output, _, _ = run_child([BINARY, "regions", "--index", args.emit_queries, "--json"])
        # The stays fall in the index's own calendar, whatever its dates.
        first_day, days = index_calendar(args.emit_queries)
        regions = [json.loads(line) for line in output.splitlines()]
        if args.travellers:
            for q in make_traveller_queries(args.travellers, args.seed, first_day, days):
                print(json.dumps(q))
            return
        for q in make_queries(args.queries, args.seed, regions, first_day, days):
            print(json.dumps({k: v for k, v in q.items() if not k.startswith("_")}, ensure_ascii=False))
        return
    engines = args.engines.split(",")
    os.makedirs(args.work, exist_ok=True)
    data = os.path.join(args.work, f"data-{args.listings}-{args.seed}-{args.pricing}-v3")   # v3: listing details
    rows = []  # the table's "load" lines

    if not os.path.exists(os.path.join(data, "folders.txt")):
        shutil.rmtree(data, ignore_errors=True)
        output, seconds, _ = run_child([BINARY, "generate", "--listings", str(args.listings), "--seed", str(args.seed),
                                        "--pricing", args.pricing, "--format", "insideairbnb", "--output", data])
        folders = [line.strip()[len("--data '"):-1] for line in output.splitlines() if line.strip().startswith("--data")]
        with open(os.path.join(data, "folders.txt"), "w", encoding="utf-8") as f:
            f.write("".join(folder + "\n" for folder in folders))
        print(f"generated {args.listings:,} listings ({args.pricing} pricing) in {seconds:.1f} s", file=sys.stderr)
    folders = csv_folders(data)
    csv_bytes = sum(os.path.getsize(os.path.join(folder, name)) for _, folder in folders
                    for name in ("listings.csv", "calendar.csv"))
    calendar_rows = sum(1 for _, folder in folders for _ in open(os.path.join(folder, "calendar.csv"), "rb")) - len(folders)

    if args.gzip:
        data = gzip_copy(data)
        folders = csv_folders(data)
    regions = [{"name": city, "level": "city"} for city, _ in folders]
    index = os.path.join(args.work, f"index-{args.listings}-{args.seed}.ssx")
    answers, loads, memory = {}, {}, {}
    queries_path = os.path.join(args.work, "queries.jsonl")
    if True:
        # The import gives the index (every run: its time is staysearch's load time); regions for the
        # query mix come from it.
        arguments = [BINARY, "import", "--output", index] + [f"{city}={folder}" for city, folder in folders]
        _, seconds, rss = run_child(arguments)
        loads["staysearch"], memory["staysearch import"] = seconds, rss
        output, _, _ = run_child([BINARY, "regions", "--index", index, "--json"])
        regions = [json.loads(line) for line in output.splitlines()]
    queries = make_queries(args.queries, args.seed, regions)
    if args.detail_queries:
        queries += make_detail_queries(args.detail_queries, args.seed, city_centres(folders))
    with open(queries_path, "w", encoding="utf-8") as f:
        for q in queries:
            f.write(json.dumps({k: v for k, v in q.items() if not k.startswith("_")}, ensure_ascii=False) + "\n")

    if "staysearch" in engines:
        # A first pass reads the index file into the page cache (the SQL engines query what they just
        # loaded); the answers and times are the second pass's.
        run_child([BINARY, "batch", "--threads", "1", "--index", index, "--queries", queries_path])
        output, seconds, rss = run_child([BINARY, "batch", "--index", index, "--queries", queries_path])
        answers["staysearch"] = [staysearch_answer(line) for line in output.splitlines()]
        memory["staysearch"] = rss
        # The same on one core (the default uses every core for a scan large enough to split).
        output, seconds, rss = run_child([BINARY, "batch", "--threads", "1", "--index", index, "--queries", queries_path])
        answers[ONE_CORE] = [staysearch_answer(line) for line in output.splitlines()]
        memory[ONE_CORE], loads[ONE_CORE] = rss, loads["staysearch"]
    sizes = {"staysearch": os.path.getsize(index), ONE_CORE: os.path.getsize(index)}
    for engine in ("duckdb", "sqlite"):
        if engine not in engines:
            continue
        answers_path = os.path.join(args.work, f"answers-{engine}.jsonl")
        output, _, rss = run_child([sys.executable, __file__, "--child", engine, data, args.work, queries_path, answers_path])
        report = json.loads(output.strip().splitlines()[-1])
        loads[engine], memory[engine], sizes[engine] = report["load_seconds"], rss, report["size_bytes"]
        with open(answers_path, encoding="utf-8") as f:
            answers[engine] = [json.loads(line) for line in f]
        print(f"{engine}: loaded in {report['load_seconds']:.1f} s, answered {len(answers[engine])} queries", file=sys.stderr)

    # Every engine must give the same answer to every query.
    reference = answers.get("staysearch")
    mismatches = 0
    for engine, rows_ in answers.items():
        if engine == "staysearch" or reference is None:
            continue
        for number, (mine, theirs) in enumerate(zip(reference, rows_)):
            a = {k: v for k, v in mine.items() if k != "took_us"}
            b = {k: v for k, v in theirs.items() if k != "took_us"}
            if a != b:
                mismatches += 1
                if mismatches <= 5:
                    print(f"MISMATCH {engine} query {number + 1}: {json.dumps(queries[number], ensure_ascii=False)}\n"
                          f"  staysearch: {json.dumps(a)}\n  {engine}: {json.dumps(b)}", file=sys.stderr)

    # The table.
    print(f"\n{args.listings:,} listings, {args.pricing} pricing, {calendar_rows:,} calendar rows "
          f"({csv_bytes / 2**20:,.0f} MiB of CSV{', imported and loaded from .csv.gz' if args.gzip else ''}), "
          f"{len(queries)} queries (seed {args.seed}): {', '.join(KINDS)} in turn, then {args.detail_queries} of 'details'; histogram of 30 bins and top 20 each")
    print(f"machine: {os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
          f"times per query: staysearch `took_us` (engine), SQL engines wall clock around their statements\n")
    header = "| engine | p50 µs | p90 µs | p99 µs | p50 vs staysearch | import/load s | rows/s | peak MiB | on disk MiB |"
    print(header)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = None
    for engine in ["staysearch", ONE_CORE, "duckdb", "sqlite"]:
        if engine not in answers:
            continue
        times = [a["took_us"] for a in answers[engine]]
        p50, p90, p99 = (percentile(times, p) for p in (50, 90, 99))
        base = base or p50
        ratio = "1×" if engine == "staysearch" else f"{p50 / base:,.2f}×" if engine == ONE_CORE \
            else f"{p50 / base:,.0f}× slower"
        print(f"| {engine} | {p50:,.0f} | {p90:,.0f} | {p99:,.0f} | {ratio} | {loads[engine]:,.1f} | "
              f"{calendar_rows / loads[engine] / 1e6:,.2f}M | {memory[engine]:,.0f} | {sizes[engine] / 2**20:,.0f} |")
    if "staysearch import" in memory:
        print(f"\nstaysearch import peak memory {memory['staysearch import']:,.0f} MiB; "
              f"the staysearch row's peak is `batch` (mmap of the index plus answers)")
    by_kind = {}
    for engine in answers:
        for q, a in zip(queries, answers[engine]):
            by_kind.setdefault(q["_kind"], {}).setdefault(engine, []).append(a["took_us"])
    print("\n| query kind | " + " | ".join(f"{e} p50 µs" for e in answers) + " |")
    print("|---|" + "---:|" * len(answers))
    for kind in KINDS + (["details"] if args.detail_queries else []):
        print(f"| {kind} | " + " | ".join(f"{percentile(by_kind[kind][e], 50):,.0f}" for e in answers) + " |")
    compared = len([e for e in answers if e != "staysearch"])
    print(f"\nanswers: {'identical' if mismatches == 0 else f'{mismatches} MISMATCHES'} "
          f"on {len(queries)} queries across {compared} peer engine(s) (total, ids in order, histogram)")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
