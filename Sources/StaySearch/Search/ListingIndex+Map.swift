extension ListingIndex {
    /// The ids and positions of the listings that match `query` (every filter, the price range
    /// included), for drawing them on a map; at most `limit`, spread evenly over the matches when there
    /// are more.
    /// - Throws: ``QueryError`` as ``search(_:threads:)`` does.
    public func matchPositions(_ query: SearchQuery, limit: Int = 20_000, threads: Int = 1) throws(QueryError) -> [(id: Int64, position: GeoPoint)] {
        try matchPositions(query, limit: limit, threads: threads, live: nil)
    }

    /// ``matchPositions(_:limit:threads:)`` over this index's visible rows and a live overlay's.
    package func matchPositions(_ query: SearchQuery, limit: Int, threads: Int, live: LiveParts?) throws(QueryError) -> [(id: Int64, position: GeoPoint)] {
        try query.validate()
        let rows = try matchingRows(query, split: PartSplit(threads: threads, minimumRowsPerPart: ListingIndex.rowsPerParallelPart), live: live)
        let step = max(1, (rows.count + limit - 1) / max(1, limit))
        return stride(from: 0, to: rows.count, by: step).map { position in
            var row = Int(rows[position])
            var index = self
            if let overlay = live?.overlay, row >= count {
                row -= count
                index = overlay
            }
            return (index.storage.ids[row], GeoPoint(latitude: index.latitude(ofRow: row), longitude: index.longitude(ofRow: row)))
        }
    }
}

extension ListingIndex {
    /// The region aliases the index keeps (from `aliases.csv` files), each with its region's path inside its
    /// city (the city's own name for the city).
    public func regionAliases() -> [RegionAlias] {
        regions.aliases.map { alias in
            let path = regions.path(of: alias.node)
            return RegionAlias(city: path[0], alias: alias.name, region: path.count == 1 ? path[0] : path.dropFirst().joined(separator: "/"))
        }
    }

    /// The neighbourhood boundaries the index keeps (from `neighbourhoods.geojson` files), decoded.
    public func neighbourhoodShapes() -> [NeighbourhoodShape] {
        let cities = StringColumn(bytes: storage.shapeCityBytes, offsets: storage.shapeCityOffsets)
        let names = StringColumn(bytes: storage.shapeNameBytes, offsets: storage.shapeNameOffsets)
        let rings = storage.shapeRingStarts, points = storage.ringPointStarts
        return (0..<cities.count).map { shape in
            let ringList = (Int(rings[shape])..<Int(rings[shape + 1])).map { ring in
                (Int(points[ring])..<Int(points[ring + 1])).map { point in
                    GeoPoint(latitude: Double(storage.shapeLatitudes[point]) / 1e7, longitude: Double(storage.shapeLongitudes[point]) / 1e7)
                }
            }
            return NeighbourhoodShape(city: cities[shape], name: names[shape], rings: ringList)
        }
    }
}
