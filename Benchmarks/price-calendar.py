#!/usr/bin/env python3
"""The price calendar against one exact search, one core, through `staysearch serve`.

    python3 Benchmarks/price-calendar.py [--listings 1000000] [--pricing calibrated|dynamic] [--repeats 9]
                                         [--index FILE] [--against OTHER_BINARY [--against-index OTHER_FILE]]

Generates the index (seed 1) into .build/ if it is not there, serves it, and for a city (Antwerp) and every
listing, 3 and 7 nights, 2 adults, asks GET /v1/price-calendar for the second month of the calendar and
GET /v1/search for the stay from its 15th: the median `took_us` of each, and their ratio. The first calendar
of each query is asked once before timing (it works out the span's prices, kept for the next).

With --new-spans, every calendar asked is of a span of nights not asked before (months 2–7 of the calendar
× 2–7 nights, as travellers browsing months and lengths ask them), each asked a second time straight after:
the median `took_us` of the first asks (the span's prices worked out) and of the second (kept).

With --against, a second server of the other build serves the same index and every request is asked of both
in turn (one at a time, so each has a core): both builds' figures from the same minutes, and their ratio.
--against-index gives the other build an index of its own (a build that reads another index format: the same
listings made by its `generate`); the days' answers of both are then checked equal. --against-index without
--against serves it with this build beside the first: the same listings in another currency (`generate
--currency KRW`), whose days must hold the same stays (their counts are checked equal, their prices differ).
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


def serve(binary, index):
    server = subprocess.Popen([binary, "serve", "--index", index, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    return server, server.stdout.readline().split("serving ")[1].split(" ")[0].rstrip("/")


def new_spans(bases, pricing, year, month):
    """Each base's calendars of spans it has not worked out before, then the same again, in turn."""
    months = [f"{year + (month - 1 + ahead) // 12}-{(month - 1 + ahead) % 12 + 1:02d}" for ahead in range(1, 7)]
    for region in ["Antwerp", None]:
        first, again = [[] for _ in bases], [[] for _ in bases]
        for shown in months:
            for nights in range(2, 8):
                asked = (f"/v1/price-calendar?region={region}&" if region else "/v1/price-calendar?") + f"adults=2&month={shown}&nights={nights}"
                for position, base in enumerate(bases):
                    first[position].append(get(base, asked)["took_us"])
                    again[position].append(get(base, asked)["took_us"])
        figures = [f"a new span {statistics.median(f) / 1000:.1f} ms (max {max(f) / 1000:.1f}), the same again "
                   f"{statistics.median(a) / 1000:.1f} ms" for f, a in zip(first, again)]
        line = f"{pricing} {region or 'every listing'}, {len(first[0])} spans: " + figures[0]
        if len(bases) > 1:
            line += f" | other build: {figures[1]} | new span this ÷ other {statistics.median(first[0]) / statistics.median(first[1]):.2f}"
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=1_000_000)
    parser.add_argument("--pricing", choices=["calibrated", "dynamic"], default="calibrated")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--index", help="a saved index (default: generated into .build/)")
    parser.add_argument("--against", help="another staysearch binary, measured in turn with this one")
    parser.add_argument("--against-index", help="the other binary's own index of the same listings (default: --index)")
    parser.add_argument("--new-spans", action="store_true", help="calendars of spans not asked before, then the same again")
    arguments = parser.parse_args()
    index = arguments.index or os.path.join(ROOT, f".build/price-calendar-{arguments.pricing}-{arguments.listings}.ssx")
    if not os.path.exists(index):
        subprocess.run([BIN, "generate", "--listings", str(arguments.listings), "--seed", "1", "--pricing", arguments.pricing,
                        "--output", index], check=True)
    binaries = [BIN] + ([arguments.against] if arguments.against else [BIN] if arguments.against_index else [])
    servers = []
    try:
        for binary, served in zip(binaries, [index, arguments.against_index or index]):
            servers.append(serve(binary, served))
        bases = [base for _, base in servers]
        year, month, _ = map(int, get(bases[0], "/v1/index")["calendar"]["first"].split("-"))
        shown = f"{year}-{month + 1:02d}" if month < 12 else f"{year + 1}-01"
        if arguments.new_spans:
            new_spans(bases, arguments.pricing, year, month)
            return
        for region in ["Antwerp", None]:
            for nights in [3, 7]:
                query = (f"region={region}&" if region else "") + "adults=2"
                asked = f"/v1/price-calendar?{query}&month={shown}&nights={nights}"
                days = get(bases[0], asked)["days"]
                day = days[14]
                for base in bases[1:]:
                    other = get(base, asked)["days"]
                    if not arguments.against:
                        days, other = [d.get("count") for d in days], [d.get("count") for d in other]
                    if other != days:
                        raise SystemExit(f"price-calendar: the builds' days differ for {asked}")
                search = f"/v1/search?{query}&checkin={day['checkin']}&checkout={day['checkout']}"
                calendars, searches = [[] for _ in bases], [[] for _ in bases]
                for _ in range(arguments.repeats):
                    for position, base in enumerate(bases):
                        calendars[position].append(get(base, asked)["took_us"])
                        searches[position].append(get(base, search)["took_us"])
                figures = []
                for calendar, one in zip(calendars, searches):
                    c, s = statistics.median(calendar), statistics.median(one)
                    figures.append(f"calendar {c / 1000:.1f} ms, one search {s / 1000:.2f} ms, {c / s:.1f}x")
                line = f"{arguments.pricing} {region or 'every listing'} {nights} nights: " + figures[0]
                if len(bases) > 1:
                    ratio = statistics.median(calendars[0]) / statistics.median(calendars[1])
                    line += f" | {'other build' if arguments.against else 'other index'}: {figures[1]} | calendar this ÷ other {ratio:.2f}"
                print(line, flush=True)
    finally:
        for server, _ in servers:
            server.send_signal(signal.SIGTERM)
            server.wait()


if __name__ == "__main__":
    main()
