extension ListingIndex {
    /// The values of `facet` over `rows`, each with how many of the rows have it (unknown values are not
    /// counted), in the order ties go (``FacetCounts/init(facet:tieOrdered:limit:)``); ordering by count and
    /// cutting is ``FacetCounts``'s.
    func facetEntries(_ facet: Facet, rows: [Int32]) -> [FacetCounts.Entry] {
        switch facet {
        case .roomType:
            let counts = Self.tally(rows, slots: roomTypeNames.count, codes: storage.roomTypes.base)
            return roomTypeTieOrder.map { FacetCounts.Entry(value: .text(roomTypeNames[$0]), count: counts[$0]) }
        case .propertyType:
            let counts = Self.tally(rows, slots: propertyTypes.count, codes: storage.propertyTypes.base)
            return propertyTypes.tieOrder.map { FacetCounts.Entry(value: .text(propertyTypes.names[$0]), count: counts[$0]) }
        case .bedrooms:
            let counts = Self.tally(rows, slots: Int(ListingIndex.unknownCount), codes: storage.bedrooms.base)
            return counts.enumerated().map { FacetCounts.Entry(value: .number($0), count: $1) }
        case .instantBookable, .superhost:
            let bits = (facet == .instantBookable ? storage.instantBookable : storage.superhosts).base
            var yes = 0
            for row in rows { yes &+= Int(bits[Int(row) >> 6] >> UInt64(row & 63) & 1) }
            return [FacetCounts.Entry(value: .flag(false), count: rows.count - yes), FacetCounts.Entry(value: .flag(true), count: yes)]
        case .amenities:
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, amenities.count))
            defer { counts.deallocate() }
            counts.initialize(repeating: 0)
            // Frequent amenities (those with a row bit set): popcounts of their bit set ANDed with the rows'.
            // The rest: each row's codes rise and the frequent ones come first, so only its tail is walked.
            let frequent = amenityBitSetCount
            if frequent > 0 {
                let matched = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(1, wordsPerDay))
                defer { matched.deallocate() }
                matched.initialize(repeating: 0)
                for row in rows { matched[Int(row) >> 6] |= 1 << UInt64(row & 63) }
                let sets = storage.amenityBitSets.base
                for code in 0..<frequent {
                    let set = sets + code * wordsPerDay
                    var count = 0
                    for word in 0..<wordsPerDay { count &+= (set[word] & matched[word]).nonzeroBitCount }
                    counts[code] = count
                }
            }
            let offsets = storage.amenityOffsets.base, codes = storage.amenityCodes.base
            for row in rows {
                let start = Int(offsets[Int(row)])
                var position = Int(offsets[Int(row) &+ 1])
                while position > start {
                    position &-= 1
                    let code = Int(codes[position])
                    guard code >= frequent else { break }
                    counts[code] &+= 1
                }
            }
            return amenities.tieOrder.map { FacetCounts.Entry(value: .text(amenities.names[$0]), count: counts[$0]) }
        }
    }

    /// How many of `rows` have each code below `slots` in the column at `codes` (other codes are not counted).
    private static func tally<Code: FixedWidthInteger>(_ rows: [Int32], slots: Int, codes: UnsafePointer<Code>) -> [Int] {
        var counts = [Int](repeating: 0, count: slots + 1)
        counts.withUnsafeMutableBufferPointer { counts in
            for row in rows {
                let code = Int(codes[Int(row)])
                counts[code < slots ? code : slots] &+= 1
            }
        }
        return Array(counts.prefix(slots))
    }
}

extension ListingIndex {
    /// Every value of `facet` over the whole index with its listing count, most first (ties: value
    /// ascending, names compared folded, then as spelled): what `staysearch amenities` and `property-types` list.
    public func valueCounts(of facet: Facet) -> [FacetCounts.Entry] {
        let rows = (0..<Int32(count)).map { $0 }
        return FacetCounts(facet: facet, tieOrdered: facetEntries(facet, rows: rows), limit: Int.max).entries
    }
}
