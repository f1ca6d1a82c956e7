import StaySearchKernels

extension PriceSlots {
    /// The lower median of the `matches` values of `values` from `lowest` through `highest`, found from the
    /// slot counts `counts` of every value of `values` (`bounds` their smallest and largest), or nil when
    /// the slots cannot tell it (or no value is in the range).
    ///
    /// The counts tell which slot holds the median when the range starts and ends where slots do (or
    /// past the values); a slot holding one value gives it at once, any other slot's values are picked
    /// out of `values` in one pass and the median selected among them.
    func median(of values: UnsafeBufferPointer<Int64>, matches: Int, from lowest: Int64, through highest: Int64,
                counts: UnsafePointer<Int32>, between: [Int64] = [], bounds: ClosedRange<Int64>, threads: Int) -> Int64? {
        guard let found = medianSlot(matches: matches, from: lowest, through: highest, counts: counts, between: between,
                                     bounds: bounds) else { return nil }
        if found.from == found.through { return found.from }
        let inSlot = found.count
        let picked = ScratchPool.shared.take(Int64.self, count: inSlot + Int(staysearch_pick_slack))
        defer { ScratchPool.shared.giveBack(picked) }
        let count = staysearch_pick_in_range(values.baseAddress!, values.count, found.from, found.through, picked.baseAddress!)
        assert(count == inSlot, "the price slots do not count the values")
        guard count == inSlot else { return nil }
        return Selection.elements(atRanks: (found.rank, found.rank, found.rank),
                                  in: UnsafeMutableBufferPointer(rebasing: picked[0..<count]), threads: threads).0
    }

    /// The lower median of the `matches` values from `lowest` through `highest` counted into `counts`
    /// (`bounds` the smallest and largest of every value counted), from the counts alone: when the slot
    /// holding it can hold one value, or one whole currency unit (every value a multiple of 100 minor
    /// units, `wholeUnits`); else nil.
    package func median(matches: Int, from lowest: Int64, through highest: Int64, counts: UnsafePointer<Int32>,
                        between: [Int64] = [], bounds: ClosedRange<Int64>, wholeUnits: Bool) -> Int64? {
        guard let found = medianSlot(matches: matches, from: lowest, through: highest, counts: counts, between: between,
                                     bounds: bounds) else { return nil }
        if found.from == found.through { return found.from }
        guard wholeUnits, found.from >= 0 else { return nil }
        let onlyUnit = (found.from + 99) / 100 * 100
        return onlyUnit + 100 > found.through ? onlyUnit : nil
    }

    /// The values slot holding the lower median may hold (within the range) `from ... through`, how many it
    /// holds, and the median's rank among them; nil when the counts cannot tell it: the range does not start
    /// where a slot does (or past the values), the median lies in a last slot that holds values past the
    /// range (a range ending between slots or past them, as a high price limit with dearer stays beyond it),
    /// or past the slots, or values between granules were counted and not all kept (``tell(_:between:)``). By
    /// granule with values between granules (`between`, in order), the median itself, found walking both.
    private func medianSlot(matches: Int, from lowest: Int64, through highest: Int64, counts: UnsafePointer<Int32>,
                            between: [Int64], bounds: ClosedRange<Int64>) -> (from: Int64, through: Int64, count: Int, rank: Int)? {
        let low = max(lowest, bounds.lowerBound), high = min(highest, bounds.upperBound)
        guard low <= high, low >= 0, tell(counts, between: between), matches > 0 else { return nil }
        if !between.isEmpty {
            var walk = GranuleWalk(slots: self, counts: counts, between: between, from: slot(of: bounds.lowerBound))
            let before = walk.count(below: low)
            guard let median = walk.value(atRank: before + (matches - 1) / 2), median <= high else { return nil }
            return (median, median, 1, 0)
        }
        let first = slot(of: low), last = slot(of: high)
        // The first slot must hold no value below the range; the slots walked up to the median's, before the
        // last, hold none above it.
        guard first < aboveSlot, low == bounds.lowerBound || self.values(inSlot: first).lowest == low else { return nil }
        let lastHoldsOnlyTheRange = high == bounds.upperBound || (last < aboveSlot && self.values(inSlot: last).highest == high)
        guard matches > 0 else { return nil }
        let rank = (matches - 1) / 2
        // The slot where the running count from the first passes the rank (32 slots a step in AVX2).
        var passed: Int64 = 0
        let target = staysearch_slot_of_rank(counts, first, min(last, aboveSlot - 1), Int64(rank), &passed)
        let before = Int(passed)
        guard target <= last, target < aboveSlot, target < last || lastHoldsOnlyTheRange else { return nil }
        let slotValues = self.values(inSlot: target)
        return (max(slotValues.lowest, low), min(slotValues.highest, high), Int(counts[target]), rank - before)
    }
}
