extension PriceHistogram {
    /// The histogram of values counted into `slots` (``PriceSlots``), without the values: nil when the
    /// slots cannot tell it exactly (no values; an end between whole units, or at ``PriceSlots/units``
    /// units or more; the default high end's 95th percentile at or above ``PriceSlots/end``; or the
    /// ranks' slots not fixing the rounded high end), and then the values must be binned.
    /// - Parameters:
    ///   - counts: the count of each slot, ``PriceSlots/count`` of them.
    ///   - valueCount: how many values were counted.
    ///   - sum: their sum; `bounds`: their smallest and largest.
    static func make(slots: PriceSlots, counts: UnsafePointer<Int32>, valueCount: Int, sum: Int128, bounds: ClosedRange<Int64>?,
                     nights: Int64, bins: Int, lo requestedLo: Money?, hi requestedHi: Money?) -> PriceHistogram? {
        guard valueCount > 0, let bounds, bins == slots.bins, nights * 100 == slots.unit else { return nil }
        let unit = slots.unit
        guard let (lo, hi) = ends(lo: requestedLo, hi: requestedHi, bounds: bounds, unit: unit, highUnits: { _ in
            highUnits(slots: slots, counts: counts, from: slots.slot(of: bounds.lowerBound), valueCount: valueCount)
        }) else { return nil }
        guard lo >= 0, hi > lo, lo % 100 == 0, hi % 100 == 0, hi / 100 < Int64(slots.units) else { return nil }

        // Each slot's values fall in one bin, or all below lo, or all above hi (see PriceSlots): with
        // y = (t − lo · n) · bins ÷ unit, a cut has y whole, the values between cuts k and k + 1 have
        // y strictly between.
        let firstCut = Int(lo / 100) * bins, span = Int(hi - lo) / 100, lastCut = bins * span
        var binCounts = [Int](repeating: 0, count: bins + 2)
        let below = bins, above = bins + 1
        let first = slots.slot(of: bounds.lowerBound), last = slots.slot(of: bounds.upperBound)
        binCounts[above] += last == slots.aboveSlot ? Int(counts[last]) : 0
        for slot in first..<max(first, min(last + 1, slots.aboveSlot)) where counts[slot] != 0 {
            let cut = slot / 2 - firstCut
            let bin: Int
            if cut < 0 {
                bin = below
            } else if cut > lastCut || (cut == lastCut && slot % 2 == 1) {
                bin = above
            } else {
                bin = min(bins - 1, cut / span)     // hi itself goes to the last bin
            }
            binCounts[bin] += Int(counts[slot])
        }
        let covered = Int128(valueCount) * Int128(nights)
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: Array(binCounts[0..<bins]), underflow: binCounts[below],
            overflow: binCounts[above], count: valueCount, averageNightlyPrice: Money(minorUnits: Int64((2 * sum + covered) / (2 * covered))))
    }

    /// The default high end in whole units from the slots of Q1, Q3 and the 95th percentile, when they
    /// fix it (nil when the 95th percentile is past the slots).
    /// - Parameter first: the slot of the smallest value (none below it).
    private static func highUnits(slots: PriceSlots, counts: UnsafePointer<Int32>, from first: Int, valueCount: Int) -> Int64? {
        let ranks = highEndRanks(count: valueCount)
        // Each rank's slot, walking the counts once (ranks rise, so do their slots).
        var slot = first, below = 0
        func place(_ rank: Int) -> Int {
            while below + Int(counts[slot]) <= rank {
                below += Int(counts[slot])
                slot += 1
            }
            return slot
        }
        let q1 = place(ranks.0), q3 = place(ranks.1), p95 = place(ranks.2)
        guard p95 < slots.aboveSlot else { return nil }
        func range(_ slot: Int) -> ClosedRange<Int64> {
            let values = slots.values(inSlot: slot)
            return values.lowest...values.highest      // a rank's slot holds values: not empty
        }
        return highUnits(decidedBy: (range(q1), range(q3), range(p95)), unit: slots.unit)
    }
}
