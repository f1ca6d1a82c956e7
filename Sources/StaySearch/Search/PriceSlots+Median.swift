extension PriceSlots {
    /// The lower median of the `matches` values of `values` from `lowest` through `highest`, found from the
    /// slot counts `counts` of every value of `values` (`bounds` their smallest and largest), or nil when
    /// the slots cannot tell it (or no value is in the range).
    ///
    /// The counts tell which slot holds the median when the range starts and ends where slots do (or
    /// past the values); a slot holding one value gives it at once, any other slot's values are picked
    /// out of `values` in one pass and the median selected among them.
    func median(of values: UnsafeBufferPointer<Int64>, matches: Int, from lowest: Int64, through highest: Int64,
                counts: UnsafePointer<Int32>, bounds: ClosedRange<Int64>, threads: Int) -> Int64? {
        let low = max(lowest, bounds.lowerBound), high = min(highest, bounds.upperBound)
        guard low <= high, low >= 0 else { return nil }
        let first = slot(of: low), last = slot(of: high)
        // The first and last slots must hold no value outside the range.
        guard first < aboveSlot, low == bounds.lowerBound || self.values(inSlot: first).lowest == low else { return nil }
        guard high == bounds.upperBound || (last < aboveSlot && self.values(inSlot: last).highest == high) else { return nil }
        guard matches > 0 else { return nil }
        let total = matches
        let rank = (total - 1) / 2
        var before = 0, target = first
        while target <= last, before + Int(counts[target]) <= rank {
            before += Int(counts[target])
            target += 1
        }
        guard target <= last, target < aboveSlot else { return nil }
        let slotValues = self.values(inSlot: target)
        let from = max(slotValues.lowest, low), through = min(slotValues.highest, high)
        if from == through { return from }
        let inSlot = Int(counts[target])
        let picked = ScratchPool.shared.take(Int64.self, count: inSlot)
        defer { ScratchPool.shared.giveBack(picked) }
        var count = 0
        for value in values where value >= from && value <= through {
            picked[count] = value
            count &+= 1
        }
        assert(count == inSlot, "the price slots do not count the values")
        guard count == inSlot else { return nil }
        let local = rank - before
        return Selection.elements(atRanks: (local, local, local), in: UnsafeMutableBufferPointer(rebasing: picked[0..<count]),
                                  threads: threads).0
    }
}
