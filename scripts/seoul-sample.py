#!/usr/bin/env python3
"""Writes a Seoul-shaped sample for the Korean page's test: the shipped Antwerp listings and calendars with
Seoul's 25 districts as their neighbourhoods (each Antwerp neighbourhood becomes one district, in turn), prices
in won (each dollar amount times 1,000, at most
₩20,000,000), and an aliases.csv naming the city and two districts in Hangul.

usage: seoul-sample.py OUTPUT_DIR
"""
import csv
import gzip
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DISTRICTS = ["Jongno-gu", "Jung-gu", "Yongsan-gu", "Seongdong-gu", "Gwangjin-gu", "Dongdaemun-gu", "Jungnang-gu",
             "Seongbuk-gu", "Gangbuk-gu", "Dobong-gu", "Nowon-gu", "Eunpyeong-gu", "Seodaemun-gu", "Mapo-gu",
             "Yangcheon-gu", "Gangseo-gu", "Guro-gu", "Geumcheon-gu", "Yeongdeungpo-gu", "Dongjak-gu", "Gwanak-gu",
             "Seocho-gu", "Gangnam-gu", "Songpa-gu", "Gangdong-gu"]


def won(text):
    """'$1,234.50' -> '$1,234,500.00' (the files' money format, amounts in won; at most 20,000,000)."""
    if not text:
        return text
    amount = float(re.sub(r"[$,]", "", text))
    return f"${min(amount * 1000, 20_000_000):,.2f}"


def main(out):
    os.makedirs(out, exist_ok=True)
    source = os.path.join(ROOT, "Data/antwerp")
    with gzip.open(os.path.join(source, "listings.csv.gz"), "rt", newline="") as f:
        rows = list(csv.DictReader(f))
    names = sorted({r["neighbourhood_cleansed"] for r in rows})
    district = {name: DISTRICTS[k % len(DISTRICTS)] for k, name in enumerate(names)}
    with open(os.path.join(out, "listings.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        for r in rows:
            r["neighbourhood_cleansed"] = district[r["neighbourhood_cleansed"]]
            r["neighbourhood_group_cleansed"] = ""
            r["price"] = won(r["price"])
            writer.writerow(r)
    with gzip.open(os.path.join(source, "calendar.csv.gz"), "rt", newline="") as f, \
            open(os.path.join(out, "calendar.csv"), "w", newline="") as g:
        reader = csv.DictReader(f)
        writer = csv.DictWriter(g, fieldnames=reader.fieldnames)
        writer.writeheader()
        for r in reader:
            r["price"] = won(r["price"])
            r["adjusted_price"] = won(r["adjusted_price"])
            writer.writerow(r)
    with open(os.path.join(out, "aliases.csv"), "w") as f:
        f.write("alias,region\n서울,Seoul\n종로구,Jongno-gu\n강남구,Gangnam-gu\n")


main(sys.argv[1])
