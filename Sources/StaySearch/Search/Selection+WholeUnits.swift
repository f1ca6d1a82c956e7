extension Selection {
    /// The widest spread of values, in whole currency units, that ``byWholeUnits(_:bounds:ranks:)`` counts:
    /// 64 KiB of counts.
    package static let countedUnits = 16_384

    /// The values at four ranks of `values` (each below `values.count`, in any order) as if sorted, when
    /// every value lies a whole number of currency units (multiples of 100 minor units) above the smallest
    /// and their spread is at most ``countedUnits`` units and 16 per value (so that clearing the counts
    /// costs less than the selections they replace); else nil.
    ///
    /// One pass counts the values by unit, and 64 units together, with no branch on a value; each rank is
    /// then found by walking the counts of 64 units, then those of one. Quickselect on a few thousand values
    /// (a region's matches) takes about 25 instructions a value a rank and mispredicts one compare in two.
    /// - Parameter bounds: the smallest and largest of `values`.
    package static func byWholeUnits(_ values: UnsafeBufferPointer<Int64>, bounds: ClosedRange<Int64>,
                             ranks: (Int, Int, Int, Int)) -> (Int64, Int64, Int64, Int64)? {
        let smallest = bounds.lowerBound
        let (spread, overflow) = bounds.upperBound.subtractingReportingOverflow(smallest)
        guard !values.isEmpty, !overflow, spread % 100 == 0, spread / 100 < Int64(min(countedUnits, 16 * values.count)) else { return nil }
        let units = Int(spread / 100) + 1, groups = (units + 63) >> 6
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: units + groups) { memory in
            let counts = memory.baseAddress!, groupCounts = counts + units
            counts.initialize(repeating: 0, count: units + groups)
            // Any offset off a whole unit or outside the bounds (then counted at an end, and the answer refused).
            var stray: Int64 = 0
            for value in values {
                let offset = value &- smallest
                let unit = min(max(offset / 100, 0), Int64(units &- 1))
                stray |= offset &- unit &* 100
                counts[Int(unit)] &+= 1
                groupCounts[Int(unit) &>> 6] &+= 1
            }
            guard stray == 0 else { return nil }
            func value(atRank rank: Int) -> Int64 {
                var below = 0, group = 0
                while below &+ Int(groupCounts[group]) <= rank {
                    below &+= Int(groupCounts[group])
                    group &+= 1
                }
                var unit = group &<< 6
                while below &+ Int(counts[unit]) <= rank {
                    below &+= Int(counts[unit])
                    unit &+= 1
                }
                return smallest &+ Int64(unit) &* 100
            }
            return (value(atRank: ranks.0), value(atRank: ranks.1), value(atRank: ranks.2), value(atRank: ranks.3))
        }
    }
}
