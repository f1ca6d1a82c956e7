extension PriceHistogram {
    /// The histogram of values counted into `slots` (``PriceSlots``), without the values: nil when the
    /// slots cannot tell it exactly (an end between whole units, or at ``PriceSlots/units``
    /// units or more; the default high end's 95th percentile at or above ``PriceSlots/end``; or the
    /// ranks' slots not fixing the rounded high end), and then the values must be binned.
    /// - Parameters:
    ///   - counts: the count of each slot, ``PriceSlots/count`` of them.
    ///   - valueCount: how many values were counted.
    ///   - sum: their sum; `bounds`: their smallest and largest.
    package static func make(slots: PriceSlots, counts: UnsafePointer<Int32>, valueCount: Int, sum: Int128, bounds: ClosedRange<Int64>?,
                     nights: Int64, bins: Int, lo requestedLo: Money?, hi requestedHi: Money?) -> PriceHistogram? {
        guard bins == slots.bins, nights * 100 == slots.unit else { return nil }
        guard valueCount > 0, let bounds else {
            return make(values: UnsafeMutableBufferPointer(start: nil, count: 0), sum: 0, bounds: nil, nights: nights, bins: bins,
                        lo: requestedLo, hi: requestedHi)
        }
        let unit = slots.unit
        guard let (lo, hi) = ends(lo: requestedLo, hi: requestedHi, bounds: bounds, unit: unit, highUnits: { _ in
            highUnits(slots: slots, counts: counts, from: slots.slot(of: bounds.lowerBound), valueCount: valueCount)
        }) else { return nil }
        guard lo >= 0, hi > lo, lo % 100 == 0, hi % 100 == 0, hi / 100 < Int64(slots.units) else { return nil }

        // Each slot's values fall in one bin, or all below lo, or all above hi (see PriceSlots): with
        // y = (t − lo · n) · bins ÷ unit, a cut has y whole, the values between cuts k and k + 1 have y
        // strictly between. So each bin is a run of slots: bin j the cuts from j · span up to the next
        // bin's, the last bin also the cut of hi itself. (Sums over runs: no division per slot.)
        let firstCut = Int(lo / 100) * bins, span = Int(hi - lo) / 100
        let first = slots.slot(of: bounds.lowerBound), end = slots.slot(of: bounds.upperBound) + 1
        func counted(from start: Int, to stop: Int) -> Int {
            let low = max(first, start)
            return PriceHistogram.sum(counts, low..<max(low, min(end, stop)))
        }
        let binCounts = (0..<bins).map { bin in
            counted(from: 2 * (firstCut + bin * span), to: 2 * (firstCut + (bin + 1) * span) + (bin == bins - 1 ? 1 : 0))
        }
        let underflow = counted(from: first, to: 2 * firstCut)
        let overflow = counted(from: 2 * (firstCut + bins * span) + 1, to: end)
        let covered = Int128(valueCount) * Int128(nights)
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: binCounts, underflow: underflow, overflow: overflow,
            count: valueCount, averageNightlyPrice: Money(minorUnits: Int64((2 * sum + covered) / (2 * covered))))
    }

    /// The default high end in whole units from the slots of Q1, Q3 and the 95th percentile, when they
    /// fix it (nil when the 95th percentile is past the slots).
    /// - Parameter first: the slot of the smallest value (none below it).
    private static func highUnits(slots: PriceSlots, counts: UnsafePointer<Int32>, from first: Int, valueCount: Int) -> Int64? {
        let ranks = highEndRanks(count: valueCount)
        // Each rank's slot, walking the counts once (ranks rise, so do their slots), 64 slots at a time
        // up to the one holding it.
        var slot = first, below = 0
        func place(_ rank: Int) -> Int {
            while slot + 64 <= slots.count {
                let group = PriceHistogram.sum(counts, slot..<(slot + 64))
                if below + group > rank { break }
                below += group
                slot += 64
            }
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

    /// The sum of `counts` over `range`.
    @inline(__always)
    private static func sum(_ counts: UnsafePointer<Int32>, _ range: Range<Int>) -> Int {
        var total: UInt64 = 0
        for slot in range { total &+= UInt64(UInt32(bitPattern: counts[slot])) }
        return Int(total)
    }
}
