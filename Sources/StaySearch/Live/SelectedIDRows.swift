/// The frozen rows of a chosen set of listing ids (those a journal names), found in one pass over the id
/// column, for a replay: no table of every listing is built.
///
/// The chosen ids go into a small open-addressing table; a bit set of their hashes, 16 bits an id, lets
/// the pass skip almost every row of the column with one load from a few hundred kilobytes that stay in
/// the cache (a table of a million listings, by contrast, is built with a cache miss a row).
package struct SelectedIDRows {
    private var keys: [Int64]
    /// Per slot: -2 empty, -1 an id not (yet) found in the column, else its first row.
    private var rows: [Int32]
    private let mask: Int

    /// Finds the rows of `wanted` (repeats allowed) in `ids`.
    package init(_ wanted: [Int64], in ids: Column<Int64>) {
        var capacity = 16
        while capacity < wanted.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        keys = [Int64](repeating: 0, count: capacity)
        rows = [Int32](repeating: -2, count: capacity)
        var filterBits = 1 << 12
        while filterBits < wanted.count * 16 { filterBits <<= 1 }
        let filterMask = filterBits - 1
        var filter = [UInt64](repeating: 0, count: filterBits / 64)
        for id in wanted {
            let hash = ListingIDTable.hash(id)
            filter[(hash & filterMask) >> 6] |= 1 << UInt64(hash & 63)
            var slot = hash & mask
            while rows[slot] != -2, keys[slot] != id { slot = (slot &+ 1) & mask }
            keys[slot] = id
            rows[slot] = -1
        }
        let mask = self.mask
        keys.withUnsafeBufferPointer { keys in
            rows.withUnsafeMutableBufferPointer { rows in
                filter.withUnsafeBufferPointer { filter in
                    ids.withUnsafeBufferPointer { ids in
                        for row in ids.indices {
                            let id = ids[row]
                            let hash = ListingIDTable.hash(id)
                            guard filter[(hash & filterMask) &>> 6] &>> UInt64(hash & 63) & 1 != 0 else { continue }
                            var slot = hash & mask
                            while rows[slot] != -2 {
                                if keys[slot] == id {
                                    if rows[slot] == -1 { rows[slot] = Int32(truncatingIfNeeded: row) }
                                    break
                                }
                                slot = (slot &+ 1) & mask
                            }
                        }
                    }
                }
            }
        }
    }

    /// The first row with listing id `id`, if `id` was chosen and is in the column; nil otherwise.
    package func row(of id: Int64) -> Int? {
        var slot = ListingIDTable.hash(id) & mask
        while rows[slot] != -2 {
            if keys[slot] == id { return rows[slot] >= 0 ? Int(rows[slot]) : nil }
            slot = (slot &+ 1) & mask
        }
        return nil
    }
}
