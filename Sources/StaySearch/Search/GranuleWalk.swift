/// A walk up the values counted into price slots by granule (``PriceSlots``), merged with the values kept
/// aside between granules: how many lie below a value, and the value at a rank, from the counts alone. Calls
/// ask for rising values and ranks; the walk goes on from where the last call stopped.
struct GranuleWalk {
    let slots: PriceSlots
    let counts: UnsafePointer<Int32>
    /// Every value counted in the slot between granules, in order.
    let between: [Int64]
    /// The next slot to walk.
    private var slot: Int
    /// The next value of ``between`` to walk: those before it lie below ``slot``'s granule.
    private var next = 0
    /// The values walked: the counts of the slots before ``slot`` and the values of ``between`` before ``next``.
    private var below = 0

    /// A walk from slot `first`: no value lies below `first`'s granule less one (the slot of the smallest value).
    init(slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64], from first: Int) {
        self.slots = slots
        self.counts = counts
        self.between = between
        slot = first
    }

    /// How many values lie below `value` (at least the last value asked for).
    mutating func count(below value: Int64) -> Int {
        let target = slots.slot(of: value)
        if slot < target {
            below += sum(slot..<target)
            slot = target
        }
        while next < between.count, between[next] < value {
            below += 1
            next += 1
        }
        return below
    }

    /// The value of rank `rank` (0 the smallest; at least the ranks walked), or nil when it lies past the slots.
    mutating func value(atRank rank: Int) -> Int64? {
        while true {
            // The values between granules below this slot's granule come before it.
            while next < between.count, between[next] < Int64(slot) * slots.unit {
                if below == rank { return between[next] }
                below += 1
                next += 1
            }
            guard slot < slots.aboveSlot else { return nil }
            // 64 slots (and the values between their granules) passed at once while the rank lies past them.
            if slot + 64 <= slots.aboveSlot {
                let groupEnd = Int64(slot + 64) * slots.unit
                var after = next
                while after < between.count, between[after] < groupEnd { after += 1 }
                let group = after - next + sum(slot..<(slot + 64))
                if below + group <= rank {
                    below += group
                    slot += 64
                    next = after
                    continue
                }
            }
            if below + Int(counts[slot]) > rank { return Int64(slot) * slots.unit }
            below += Int(counts[slot])
            slot += 1
        }
    }

    /// The counts of the slots `range`, summed without a check per slot (so the loop is vectorised: a fortnight
    /// in dong walks a quarter of a million slots).
    private func sum(_ range: Range<Int>) -> Int {
        var total: UInt64 = 0
        for own in range { total &+= UInt64(UInt32(bitPattern: counts[own])) }
        return Int(total)
    }
}
