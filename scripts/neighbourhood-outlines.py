#!/usr/bin/env python3
"""Writes a neighbourhoods.geojson for an Inside Airbnb folder that has none: each neighbourhood's outline is
the convex hull of its listings' positions, a little widened (Inside Airbnb publishes the real boundaries
beside most cities; the shipped samples come without them). Used by the browser test, which checks that the
search page draws the outlines the index keeps where the map puts the listings.

    python3 scripts/neighbourhood-outlines.py FOLDER        writes FOLDER/neighbourhoods.geojson
"""
import csv
import gzip
import json
import os
import sys


def hull(points):
    """Andrew's monotone chain: the convex hull, counter-clockwise, closed."""
    points = sorted(set(points))
    if len(points) < 3:
        return None

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in points:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(points):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    ring = lower[:-1] + upper[:-1]
    return ring + [ring[0]] if len(ring) >= 3 else None


def widened(ring, by=0.0015):
    cx = sum(p[0] for p in ring[:-1]) / (len(ring) - 1)
    cy = sum(p[1] for p in ring[:-1]) / (len(ring) - 1)
    out = []
    for x, y in ring:
        dx, dy = x - cx, y - cy
        length = (dx * dx + dy * dy) ** 0.5 or 1
        out.append([round(x + dx / length * by, 7), round(y + dy / length * by, 7)])
    return out


def main(folder):
    path = os.path.join(folder, "listings.csv.gz")
    opener = gzip.open if os.path.exists(path) else open
    path = path if os.path.exists(path) else os.path.join(folder, "listings.csv")
    points = {}
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            try:
                points.setdefault(row["neighbourhood_cleansed"], []).append((float(row["longitude"]), float(row["latitude"])))
            except (KeyError, ValueError):
                continue
    features = []
    for name in sorted(points):
        ring = hull(points[name])
        if ring:
            features.append({"type": "Feature", "properties": {"neighbourhood": name, "neighbourhood_group": None},
                             "geometry": {"type": "Polygon", "coordinates": [widened(ring)]}})
    with open(os.path.join(folder, "neighbourhoods.geojson"), "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)
    print(f"neighbourhood-outlines: {len(features)} outlines in {folder}/neighbourhoods.geojson")


if __name__ == "__main__":
    main(sys.argv[1])
