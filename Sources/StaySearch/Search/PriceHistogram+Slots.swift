extension PriceHistogram {
    /// The histogram of values counted into `slots` (``PriceSlots``), without the values: nil when the
    /// slots cannot tell it exactly (an end between whole units, or at ``PriceSlots/units``
    /// units or more; the default high end's 95th percentile at or above ``PriceSlots/end``; the
    /// ranks' slots not fixing the rounded high end; or, by granule, values between granules), and then the
    /// values must be binned.
    /// - Parameters:
    ///   - counts: the count of each slot, ``PriceSlots/count`` of them.
    ///   - between: by granule, the values counted in ``PriceSlots/betweenSlot``, in order (the histogram is nil
    ///     unless it holds every one).
    ///   - valueCount: how many values were counted.
    ///   - sum: their sum; `bounds`: their smallest and largest.
    package static func make(slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64] = [], valueCount: Int, sum: Int128,
                             bounds: ClosedRange<Int64>?, nights: Int64, bins: Int, lo requestedLo: Money?, hi requestedHi: Money?) -> PriceHistogram? {
        guard bins == slots.bins, nights == slots.nights, slots.tell(counts, between: between) else { return nil }
        guard valueCount > 0, let bounds else {
            return make(values: UnsafeMutableBufferPointer(start: nil, count: 0), sum: 0, bounds: nil, nights: nights, bins: bins,
                        lo: requestedLo, hi: requestedHi)
        }
        let unit = nights * 100
        guard let (lo, hi) = ends(lo: requestedLo, hi: requestedHi, bounds: bounds, unit: unit, highUnits: { _ in
            highUnits(slots: slots, counts: counts, between: between, from: slots.slot(of: bounds.lowerBound), valueCount: valueCount)
        }) else { return nil }
        guard lo >= 0, hi > lo, lo % 100 == 0, hi % 100 == 0 else { return nil }
        if slots.byGranule {
            return fromGranules(slots: slots, counts: counts, between: between, valueCount: valueCount, sum: sum, bounds: bounds,
                                nights: nights, bins: bins, lo: lo, hi: hi)
        }
        guard hi / 100 < Int64(slots.units) else { return nil }

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

    /// The histogram over `lo ... hi` (minor units a night) of values counted into slots by granule, with
    /// `between` every value between granules: each bin the running count up to its upper edge less that up to
    /// its lower. An edge *e* (the least total of a bin, or one past the top) has below it exactly the values of
    /// the slots before its own (``PriceSlots/slot(of:)``: the first slot whose granule is at least *e*) and
    /// those of `between` below it.
    private static func fromGranules(slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64], valueCount: Int, sum: Int128,
                                     bounds: ClosedRange<Int64>, nights: Int64, bins: Int, lo: Int64, hi: Int64) -> PriceHistogram? {
        let low = lo * nights, width = (hi - lo) * nights, top = hi * nights
        guard top < slots.end else { return nil }
        // Edges rise, so their running counts are found in one walk from the smallest value's slot.
        var walk = GranuleWalk(slots: slots, counts: counts, between: between, from: slots.slot(of: bounds.lowerBound))
        func countBelow(_ edge: Int64) -> Int {
            edge > bounds.lowerBound ? walk.count(below: edge) : 0
        }
        // Bin k holds the totals t with (t − low) · bins ≥ k · width, up to the next bin's edge; the top, t = hi · n,
        // goes to the last bin.
        let underflow = countBelow(low)
        var edges = [underflow]
        edges.reserveCapacity(bins + 1)
        for bin in 1..<bins { edges.append(countBelow(low + (Int64(bin) * width + Int64(bins) - 1) / Int64(bins))) }
        let throughTop = countBelow(top + 1)
        edges.append(throughTop)
        let covered = Int128(valueCount) * Int128(nights)
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: (0..<bins).map { edges[$0 + 1] - edges[$0] },
            underflow: underflow, overflow: valueCount - throughTop, count: valueCount,
            averageNightlyPrice: Money(minorUnits: Int64((2 * sum + covered) / (2 * covered))))
    }

    /// The default high end in whole units from the slots of Q1, Q3 and the 95th percentile, when they
    /// fix it (nil when the 95th percentile is past the slots).
    /// - Parameter first: the slot of the smallest value (none below it).
    private static func highUnits(slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64], from first: Int,
                                  valueCount: Int) -> Int64? {
        let ranks = highEndRanks(count: valueCount)
        if !between.isEmpty {
            // By granule with values between granules: each rank's value, walking both in order.
            var walk = GranuleWalk(slots: slots, counts: counts, between: between, from: first)
            guard let q1 = walk.value(atRank: ranks.0), let q3 = walk.value(atRank: ranks.1),
                  let p95 = walk.value(atRank: ranks.2) else { return nil }
            return highUnits(decidedBy: (q1...q1, q3...q3, p95...p95), unit: slots.nights * 100)
        }
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
        return highUnits(decidedBy: (range(q1), range(q3), range(p95)), unit: slots.nights * 100)
    }

    /// The sum of `counts` over `range`.
    @inline(__always)
    private static func sum(_ counts: UnsafePointer<Int32>, _ range: Range<Int>) -> Int {
        var total: UInt64 = 0
        for slot in range { total &+= UInt64(UInt32(bitPattern: counts[slot])) }
        return Int(total)
    }
}
