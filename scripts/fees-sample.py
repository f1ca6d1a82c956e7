#!/usr/bin/env python3
"""Writes a fees.csv beside a sample's listings for the browser tests: every third listing (by id) gets a
cleaning fee, one guest included with a fee a night for each more, and weekly and monthly discounts, in the
sample's own money (SCALE times dollar-sized amounts: 1 for Antwerp, 1000 for the won sample).

usage: fees-sample.py FOLDER [SCALE]
"""
import csv
import gzip
import os
import sys


def main(folder, scale):
    path = os.path.join(folder, "listings.csv.gz")
    opener = gzip.open if os.path.exists(path) else open
    path = path if os.path.exists(path) else os.path.join(folder, "listings.csv")
    with opener(path, "rt", newline="", encoding="utf-8") as f:
        ids = [row["id"] for row in csv.DictReader(f)]
    with open(os.path.join(folder, "fees.csv"), "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["listing_id", "cleaning_fee", "guests_included", "extra_guest_fee", "weekly_discount", "monthly_discount"])
        for number, listing in enumerate(ids):
            if number % 3 == 0:
                writer.writerow([listing, f"${(20 + number % 7 * 10) * scale:,.2f}", 1, f"${(10 + number % 4 * 5) * scale:,.2f}",
                                 f"{5 + number // 3 % 3 * 5}%", "25%"])


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
