extension LiveIndex {
    /// Runs `body` with the index that holds listing `id` now and its row there (the frozen index, or the
    /// overlay of changed listings); nil when no listing has that id. Changes wait until it returns.
    public func withListing<Result>(id: Int64, _ body: (ListingIndex, Int) throws -> Result) rethrows -> Result? {
        try lock.reading {
            if let overlay = changed.overlay, let row = changed.row(of: id) { return try body(overlay, row) }
            guard changed[id] == nil, let row = frozenRow(of: id), isVisible(row: row) else { return nil }
            return try body(index, row)
        }
    }

    /// Region names that start with (then contain) `prefix`, folded, with their listings now: removed and
    /// changed listings off the frozen index's counts, the overlay's added (its own regions too); at most
    /// `limit`, regions without listings left out.
    public func regionSuggestions(prefix: String, limit: Int) -> [(path: [String], listings: Int)] {
        lock.reading {
            var suggestions: [(path: [String], listings: Int)] = []
            var positions: [[String]: Int] = [:]
            let tree = index.regions
            for node in tree.nodes(withNamesStartingWith: prefix) {
                let path = tree.path(of: node)
                positions[path] = suggestions.count
                suggestions.append((path, tree.nodes[node].listingCount - hiddenRows(in: tree.nodes[node].rows)))
            }
            if let overlay = changed.overlay {
                for node in overlay.regions.nodes(withNamesStartingWith: prefix) {
                    let path = overlay.regions.path(of: node), count = overlay.regions.nodes[node].listingCount
                    if let position = positions[path] {
                        suggestions[position].listings += count
                    } else {
                        positions[path] = suggestions.count
                        suggestions.append((path, count))
                    }
                }
            }
            return Array(suggestions.filter { $0.listings > 0 }.prefix(limit))
        }
    }

    /// The ids and positions of the listings that match `query` now (see ``ListingIndex/matchPositions(_:limit:threads:)``).
    public func matchPositions(_ query: SearchQuery, limit: Int = 20_000, threads: Int = 1) throws(QueryError) -> [(id: Int64, position: GeoPoint)] {
        try lock.reading { () throws(QueryError) in
            try index.matchPositions(query, limit: limit, threads: threads, live: liveParts)
        }
    }

    /// The neighbourhood boundaries of the frozen index (for maps).
    public func neighbourhoodShapes() -> [NeighbourhoodShape] { index.neighbourhoodShapes() }

    /// Whether the prices a search of `query` gives now are trip prices with fees (see
    /// ``ListingIndex/pricesIncludeFees(_:)``).
    public func pricesIncludeFees(_ query: SearchQuery) -> Bool {
        lock.reading { index.pricesIncludeFees(query) || changed.overlay?.pricesIncludeFees(query) == true }
    }

    /// The region path a region name stands for when it names exactly one region (in the frozen index,
    /// else in the overlay), for titles.
    public func regionPath(named name: String) -> [String]? {
        lock.reading {
            let matched = index.regions.nodes(matching: name)
            if matched.count == 1 { return index.regions.path(of: matched[0]) }
            guard matched.isEmpty, let overlay = changed.overlay else { return nil }
            let inOverlay = overlay.regions.nodes(matching: name)
            return inOverlay.count == 1 ? overlay.regions.path(of: inOverlay[0]) : nil
        }
    }
}

extension LiveIndex {
    /// The days the calendars cover: the first and how many (changes never move them; a window that rolls
    /// adds days, ``extendCalendar(toDayCount:)``).
    public var calendarSpan: (first: Day, dayCount: Int) { lock.reading { (index.firstDay, dayCount) } }
}
