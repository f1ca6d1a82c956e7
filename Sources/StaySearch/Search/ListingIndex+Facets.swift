extension ListingIndex {
    /// The values of `facet` over `rows`, each with how many of the rows have it (unknown values are not
    /// counted); ordering and cutting is ``FacetCounts``'s.
    func facetEntries(_ facet: Facet, rows: [Int32]) -> [FacetCounts.Entry] {
        switch facet {
        case .roomType:
            let counts = tally(rows, slots: roomTypeNames.count) { Int(storage.roomTypes[$0]) }
            return counts.enumerated().map { FacetCounts.Entry(value: .text(roomTypeNames[$0]), count: $1) }
        case .propertyType:
            let counts = tally(rows, slots: propertyTypes.count) { Int(storage.propertyTypes[$0]) }
            return counts.enumerated().map { FacetCounts.Entry(value: .text(propertyTypes.names[$0]), count: $1) }
        case .bedrooms:
            let counts = tally(rows, slots: Int(ListingIndex.unknownCount)) { Int(storage.bedrooms[$0]) }
            return counts.enumerated().map { FacetCounts.Entry(value: .number($0), count: $1) }
        case .instantBookable, .superhost:
            let bits = facet == .instantBookable ? storage.instantBookable : storage.superhosts
            let counts = tally(rows, slots: 2) { Int(bits[$0 >> 6] >> UInt64($0 & 63) & 1) }
            return [FacetCounts.Entry(value: .flag(false), count: counts[0]), FacetCounts.Entry(value: .flag(true), count: counts[1])]
        case .amenities:
            var counts = [Int](repeating: 0, count: amenities.count)
            storage.amenityOffsets.withUnsafeBufferPointer { offsets in
                storage.amenityCodes.withUnsafeBufferPointer { codes in
                    for row in rows {
                        for position in Int(offsets[Int(row)])..<Int(offsets[Int(row) + 1]) { counts[Int(codes[position])] += 1 }
                    }
                }
            }
            return counts.enumerated().map { FacetCounts.Entry(value: .text(amenities.names[$0]), count: $1) }
        }
    }

    /// How many of `rows` fall in each of `slots` slots by `slot` (a slot outside 0..<slots is not counted).
    private func tally(_ rows: [Int32], slots: Int, _ slot: (Int) -> Int) -> [Int] {
        var counts = [Int](repeating: 0, count: slots)
        for row in rows {
            let position = slot(Int(row))
            if position >= 0, position < slots { counts[position] += 1 }
        }
        return counts
    }
}

extension ListingIndex {
    /// Every value of `facet` over the whole index with its listing count, most first (ties: value
    /// ascending): what `staysearch amenities` and `property-types` list.
    public func valueCounts(of facet: Facet) -> [FacetCounts.Entry] {
        let rows = (0..<Int32(count)).map { $0 }
        return FacetCounts(facet: facet, counted: facetEntries(facet, rows: rows), limit: Int.max).entries
    }
}
