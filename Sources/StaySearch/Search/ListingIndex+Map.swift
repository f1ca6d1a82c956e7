extension ListingIndex {
    /// The ids and positions of the listings that match `query` (every filter, the price range
    /// included), for drawing them on a map; at most `limit`, spread evenly over the matches when there
    /// are more.
    /// - Throws: ``QueryError`` as ``search(_:threads:)`` does.
    public func matchPositions(_ query: SearchQuery, limit: Int = 20_000, threads: Int = 1) throws(QueryError) -> [(id: Int64, position: GeoPoint)] {
        try query.validate()
        var all = query
        all.limit = 0
        all.offset = 0
        all.bins = 1
        all.histogramMinimum = Money(minorUnits: 0)
        all.histogramMaximum = Money(minorUnits: 100)
        all.facets = []
        let rows = try scan(all, threads: threads, minimumRowsPerPart: ListingIndex.rowsPerParallelPart, collectsRows: true).1
        let step = max(1, (rows.count + limit - 1) / max(1, limit))
        return stride(from: 0, to: rows.count, by: step).map { position in
            let row = Int(rows[position])
            return (storage.ids[row], GeoPoint(latitude: latitude(ofRow: row), longitude: longitude(ofRow: row)))
        }
    }
}
