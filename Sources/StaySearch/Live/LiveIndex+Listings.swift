extension LiveIndex {
    /// Runs `body` with the index that holds listing `id` now and its row there (the frozen index, or the
    /// overlay of changed listings); nil when no listing has that id. Changes wait until it returns.
    public func withListing<Result>(id: Int64, _ body: (ListingIndex, Int) throws -> Result) rethrows -> Result? {
        try lock.reading {
            if let overlay = changed.overlay, let row = changed.row(of: id) { return try body(overlay, row) }
            guard changed[id] == nil, let row = rows.row(of: id, in: index.storage.ids), isVisible(row: row) else { return nil }
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
}
