#!/usr/bin/env python3
"""The price calendar against one exact search, one core, through `staysearch serve`.

    python3 Benchmarks/price-calendar.py [--listings 1000000] [--pricing calibrated|dynamic] [--repeats 7]

Generates the index (seed 1) into .build/ if it is not there, serves it, and for a city (Antwerp) and every
listing, 3 and 7 nights, 2 adults, asks GET /v1/price-calendar for the second month of the calendar and
GET /v1/search for the stay from its 15th: the median `took_us` of each, and their ratio.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build/release/staysearch"))


def get(base, path):
    with urllib.request.urlopen(base + path) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=1_000_000)
    parser.add_argument("--pricing", choices=["calibrated", "dynamic"], default="calibrated")
    parser.add_argument("--repeats", type=int, default=7)
    arguments = parser.parse_args()
    index = os.path.join(ROOT, f".build/price-calendar-{arguments.pricing}-{arguments.listings}.ssx")
    if not os.path.exists(index):
        subprocess.run([BIN, "generate", "--listings", str(arguments.listings), "--seed", "1", "--pricing", arguments.pricing,
                        "--output", index], check=True)
    server = subprocess.Popen([BIN, "serve", "--index", index, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = server.stdout.readline().split("serving ")[1].split(" ")[0].rstrip("/")
        year, month, _ = map(int, get(base, "/v1/index")["calendar"]["first"].split("-"))
        shown = f"{year}-{month + 1:02d}" if month < 12 else f"{year + 1}-01"
        for region in ["Antwerp", None]:
            for nights in [3, 7]:
                query = (f"region={region}&" if region else "") + "adults=2"
                calendar, search = [], []
                for _ in range(arguments.repeats):
                    answer = get(base, f"/v1/price-calendar?{query}&month={shown}&nights={nights}")
                    calendar.append(answer["took_us"])
                    day = answer["days"][14]
                    search.append(get(base, f"/v1/search?{query}&checkin={day['checkin']}&checkout={day['checkout']}")["took_us"])
                c, s = statistics.median(calendar), statistics.median(search)
                print(f"{arguments.pricing} {region or 'every listing'} {nights} nights: calendar {c / 1000:.1f} ms, "
                      f"one search {s / 1000:.2f} ms, {c / s:.1f}x", flush=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()


if __name__ == "__main__":
    main()
