import StaySearchKernels

extension Selection {
    /// ``elements(atRanks:in:bounds:threads:unit:unlessDecided:)``, and the value at one more rank `extra`
    /// (anywhere among the three) found exactly from the same counting pass; `values` are left as they are.
    ///
    /// The extra rank's bucket tells its value at once when it can hold one value, or one whole currency
    /// unit (`wholeUnits`: every value a multiple of 100 minor units); else that bucket's values are picked
    /// out in one pass and the rank selected among them. A few values in whole units are counted by unit
    /// instead (``byWholeUnits(_:bounds:ranks:)``).
    /// - Parameter bounds: the smallest and largest of `values`.
    static func elements(
        atRanks ranks: (Int, Int, Int), andExactly extra: Int, in values: UnsafeBufferPointer<Int64>, bounds: ClosedRange<Int64>,
        threads: Int = 1, unit: Int64, wholeUnits: Bool, unlessDecided decides: (RankRanges) -> Int64?
    ) -> (exact: (Int64, Int64, Int64)?, decided: Int64?, extra: Int64) {
        precondition(extra >= 0 && extra < values.count, "rank out of range")
        guard values.count > 4_096 else {
            if wholeUnits, let found = byWholeUnits(values, bounds: bounds, ranks: (ranks.0, ranks.1, ranks.2, extra)) {
                return ((found.0, found.1, found.2), nil, found.3)
            }
            // A copy to select in.
            return withUnsafeTemporaryAllocation(of: Int64.self, capacity: values.count) { copy in
                _ = copy.initialize(fromContentsOf: values)
                let (exact, decided) = elements(atRanks: ranks, in: copy, bounds: bounds, threads: 1, unit: unit, unlessDecided: decides)
                return (exact, decided, quickSelect(atRank: extra, in: copy))
            }
        }
        let shared = SharedBuffer(buffer: UnsafeMutableBufferPointer(mutating: values))
        let buckets = SelectionBuckets(counting: shared, smallest: bounds.lowerBound, largest: bounds.upperBound, unit: unit,
                                       threads: threads)
        defer { buckets.deallocate() }
        let first = buckets.place(ranks.0), second = buckets.place(ranks.1, from: first), third = buckets.place(ranks.2, from: second)
        let extraValue = exactValue(atRank: extra, of: values, buckets: buckets, wholeUnits: wholeUnits)
        if let decided = decides((buckets.range(of: first.bucket), buckets.range(of: second.bucket), buckets.range(of: third.bucket))) {
            return (nil, decided, extraValue)
        }
        return (select(ranks, places: (first, second, third), of: shared, buckets: buckets), nil, extraValue)
    }

    /// The value at rank `rank` of `values`, from the bucket the counting pass placed it in.
    private static func exactValue(atRank rank: Int, of values: UnsafeBufferPointer<Int64>, buckets: SelectionBuckets,
                                   wholeUnits: Bool) -> Int64 {
        let place = buckets.place(rank)
        let range = buckets.range(of: place.bucket)
        if range.lowerBound == range.upperBound { return range.lowerBound }
        if wholeUnits, range.lowerBound >= 0 {
            let onlyUnit = (range.lowerBound + 99) / 100 * 100
            if onlyUnit + 100 > range.upperBound { return onlyUnit }
        }
        // The bucket's values, picked out four at a time.
        let inBucket = Int(buckets.counts[place.bucket])
        let members = ScratchPool.shared.take(Int64.self, count: inBucket + Int(staysearch_pick_slack))
        defer { ScratchPool.shared.giveBack(members) }
        let picked = staysearch_pick_in_range(values.baseAddress!, values.count, range.lowerBound, range.upperBound, members.baseAddress!)
        precondition(picked == inBucket, "the selection's buckets do not count the values")
        return quickSelect(atRank: rank - place.below, in: UnsafeMutableBufferPointer(rebasing: members[0..<picked]))
    }
}
