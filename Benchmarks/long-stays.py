#!/usr/bin/env python3
"""Searches over every listing by the length of the stay, one index, through `staysearch batch`.

    python3 Benchmarks/long-stays.py [--listings 1000000] [--pricing calibrated|dynamic] [--index FILE]
                                     [--threads 1] [--rounds 3] [--nights 3,7,14,16,21,28,42,60]
                                     [--against OTHER_BINARY [--against-index OTHER_FILE]]

Generates the index (seed 1) into .build/ when none is given (with --index, --listings gives its size, for the
time a row). For each number of nights, five check-ins
spread over the index's own calendar (asked of `staysearch serve`'s GET /v1/index), 2 adults, sorted by
price, a page of 20; each round runs the whole query file once with `batch --threads N`. Prints, per number
of nights, the median over its check-ins of each query's median `took_us` over the rounds (ms, and ns a
row of the index) and the matches. With --against, the other build runs the same file after this one in
every round (interleaved), its answers are checked equal, and the per-query ratios' median is printed;
--against-index gives it an index of its own (a build that reads another index format: the same listings
made by its `generate`).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build/release/staysearch"))


def calendar(binary, index):
    """The index's first day and number of days, as its server reports them."""
    server = subprocess.Popen([binary, "serve", "--index", index, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        base = server.stdout.readline().split("serving ")[1].split(" ")[0].rstrip("/")
        with urllib.request.urlopen(base + "/v1/index") as response:
            span = json.load(response)["calendar"]
        return datetime.date.fromisoformat(span["first"]), int(span["days"])
    finally:
        server.terminate()
        server.wait()


def run(binary, index, queries, threads):
    out = subprocess.run([binary, "batch", "--index", index, "--queries", queries, "--threads", str(threads)],
                         capture_output=True, text=True, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    errors = [a["error"] for a in answers if "error" in a]
    if errors:
        sys.exit(f"long-stays: {len(errors)} queries refused, the first: {errors[0]}")
    return [a.pop("took_us") for a in answers], answers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=1_000_000)
    parser.add_argument("--pricing", choices=["calibrated", "dynamic"], default="dynamic")
    parser.add_argument("--index", help="a saved index (default: generated into .build/)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nights", default="3,7,14,16,21,28,42,60")
    parser.add_argument("--against", help="another staysearch binary, run in turn with this one")
    parser.add_argument("--against-index", help="the other binary's own index of the same listings (default: --index)")
    arguments = parser.parse_args()
    lengths = [int(n) for n in arguments.nights.split(",")]
    index = arguments.index or os.path.join(ROOT, f".build/long-stays-{arguments.pricing}-{arguments.listings}.ssx")
    if not os.path.exists(index):
        subprocess.run([BIN, "generate", "--listings", str(arguments.listings), "--seed", "1", "--pricing", arguments.pricing,
                        "--output", index], check=True, stdout=subprocess.DEVNULL)
    first, days = calendar(BIN, index)
    room = days - max(lengths)
    if room < 5:
        sys.exit(f"long-stays: the index's calendar has {days} days, too few for stays of {max(lengths)} nights")
    check_ins = [first + datetime.timedelta(days=room * k // 5) for k in range(5)]
    queries = [{"checkin": str(day), "checkout": str(day + datetime.timedelta(days=n)), "adults": 2, "sort": "price", "limit": 20}
               for n in lengths for day in check_ins]
    binaries = [BIN] + ([arguments.against] if arguments.against else [])
    indexes = {BIN: index, arguments.against: arguments.against_index or index}
    times = {binary: [] for binary in binaries}
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as file:
        file.write("".join(json.dumps(q) + "\n" for q in queries))
        file.flush()
        answers = {}
        for _ in range(arguments.rounds):
            for binary in binaries:
                took, answers[binary] = run(binary, indexes[binary], file.name, arguments.threads)
                times[binary].append(took)
    if arguments.against and answers[BIN] != answers[arguments.against]:
        sys.exit("long-stays: the two builds' answers differ")
    print(f"{index}: {days} days from {first}, batch --threads {arguments.threads}, {arguments.rounds} rounds"
          + (f", against {arguments.against} (answers equal)" if arguments.against else ""))
    medians = {binary: [statistics.median(r[k] for r in times[binary]) for k in range(len(queries))] for binary in binaries}
    for position, nights in enumerate(lengths):
        picked = range(position * 5, position * 5 + 5)
        mine = statistics.median(medians[BIN][k] for k in picked)
        matches = [answers[BIN][k]["total"] for k in picked]
        line = (f"{nights:3d} nights: {mine / 1000:7.2f} ms, {mine * 1000 / arguments.listings:5.2f} ns a row, "
                f"{min(matches):,}–{max(matches):,} matches")
        if arguments.against:
            other = statistics.median(medians[arguments.against][k] for k in picked)
            ratio = statistics.median(medians[BIN][k] / medians[arguments.against][k] for k in picked)
            line += f" | other build {other / 1000:7.2f} ms | this ÷ other {ratio:.2f}"
        print(line)


if __name__ == "__main__":
    main()
