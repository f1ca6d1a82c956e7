#!/usr/bin/env python3
"""Writes N random staysearch batch queries (JSON lines) for a data set's regions and calendar span.

usage: random-queries.py N SEED FIRST_DAY DAYS REGION...
"""
import json
import random
import sys
from datetime import date, timedelta

count, seed, first, days = int(sys.argv[1]), int(sys.argv[2]), date.fromisoformat(sys.argv[3]), int(sys.argv[4])
regions = sys.argv[5:]
rng = random.Random(seed)
for _ in range(count):
    q = {}
    if regions and rng.random() < 0.8:
        q["region"] = rng.choice(regions)
    if rng.random() < 0.8:
        checkin = first + timedelta(days=rng.randrange(days - 1))
        q["checkin"] = checkin.isoformat()
        q["checkout"] = (checkin + timedelta(days=rng.choice([1, 2, 3, 4, 5, 7, 14, 28]))).isoformat()
    q["adults"] = rng.choice([1, 2, 2, 2, 3, 4])
    if rng.random() < 0.3:
        q["children"] = rng.choice([1, 2])
    if rng.random() < 0.5:
        low = rng.choice([0, 50, 80, 100])
        q["min_price"] = low
        q["max_price"] = low + rng.choice([50, 100, 200, 1000])
    if rng.random() < 0.2:
        q["room_type"] = rng.choice(["Entire home/apt", "Private room"])
    q["sort"] = rng.choice(["price", "price", "price-desc", "rating", "reviews", "recommended"])
    q["limit"] = 20
    print(json.dumps(q))
