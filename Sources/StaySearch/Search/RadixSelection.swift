import StaySearchKernels

/// The lower median of values in a range by counting their leading bits, 8,192 buckets a round, with no
/// branch on a value: a pass for the range's smallest and largest (unless known), one counting pass, and
/// unless that tells it, one pass gathering the median's bucket and rounds over that bucket alone.
/// Quickselect on the same values mispredicts about one compare in two. Values in whole currency units
/// (multiples of 100) are counted by unit, so that one pass tells the median of a spread of up to 8,192 units.
package enum RadixSelection {
    /// The buckets of one round.
    static let bucketCount = 8_192
    /// Bits of an offset one round tells apart: log2 of ``bucketCount``.
    static let bucketBits = 13

    /// The lower median of the values of `values` from `lowest` through `highest`; nil when none is in the
    /// range. `count` is how many are in the range and `bounds` the smallest and largest of all, when the
    /// caller knows them (saves a pass); `wholeUnits`: every value is a multiple of 100.
    /// - Complexity: O(*n*), two or three passes over `values`.
    package static func lowerMedian(of values: UnsafeBufferPointer<Int64>, from lowest: Int64, through highest: Int64,
                            count known: Int? = nil, bounds: ClosedRange<Int64>? = nil, wholeUnits: Bool = false) -> Int64? {
        var smallest = Int64.max, largest = Int64.min, count = 0
        if let known, let bounds {
            smallest = max(lowest, bounds.lowerBound)
            largest = min(highest, bounds.upperBound)
            count = known
        } else {
            for value in values {
                let inside = value >= lowest && value <= highest
                smallest = inside && value < smallest ? value : smallest
                largest = inside && value > largest ? value : largest
                count &+= inside ? 1 : 0
            }
        }
        guard count > 0, smallest <= largest else { return nil }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (bucketCount + 1)) { counts in
            var rank = (count - 1) / 2
            var low = smallest, high = largest
            // The first round counts every value of the range (by unit when whole); later rounds, the gathered bucket.
            let unit: Int64 = wholeUnits ? 100 : 1
            var bucket = narrow(values, low: &low, high: &high, rank: &rank, unit: unit, counts: counts)
            guard low < high else { return low }
            // A bucket one unit wide holds one whole unit.
            if wholeUnits, high - low < 100 { return (low + 99) / 100 * 100 }
            let members = ScratchPool.shared.take(Int64.self, count: bucket + Int(staysearch_pick_slack))
            defer { ScratchPool.shared.giveBack(members) }
            var gathered = staysearch_pick_in_range(values.baseAddress!, values.count, low, high, members.baseAddress!)
            while true {
                bucket = narrow(UnsafeBufferPointer(rebasing: members[0..<gathered]), low: &low, high: &high, rank: &rank, unit: 1,
                                counts: counts)
                guard low < high else { return low }
                // Keep the members still in the narrowed range at the front.
                var kept = 0
                for position in 0..<gathered {
                    let value = members[position]
                    members[kept] = value
                    kept &+= value >= low && value <= high ? 1 : 0
                }
                gathered = kept
            }
        }
    }

    /// One round: counts the values of `values` in `low ... high` by the leading bits of their offset in
    /// `unit`s (every value's offset a multiple of it but for the remainder of `low`) into
    /// `counts` (two tables, even and odd positions, so that equal neighbours do not wait on each other's
    /// count), then narrows `low ... high` to the bucket holding rank `rank` among them and makes `rank`
    /// its rank within that bucket; returns how many values the bucket holds.
    private static func narrow(_ values: UnsafeBufferPointer<Int64>, low: inout Int64, high: inout Int64, rank: inout Int,
                               unit: Int64, counts: UnsafeMutableBufferPointer<Int32>) -> Int {
        precondition(unit == 1 || unit == 100, "a unit of 1 or 100")
        let step = UInt64(unit)
        let span = UInt64(bitPattern: high &- low) / step
        let shift = UInt64(max(0, (64 - span.leadingZeroBitCount) - bucketBits))
        counts.initialize(repeating: 0)
        let base = low, top = high, spill = bucketCount, odd = counts.baseAddress! + bucketCount + 1, even = counts.baseAddress!
        // The loop twice, so that the division is by a constant (a multiplication), not by the unit.
        if unit == 100 {
            count(values, into: even, odd) { value in
                // Values outside the range count in the spill bucket, past the others.
                value >= base && value <= top ? Int(truncatingIfNeeded: (UInt64(bitPattern: value &- base) / 100) &>> shift) : spill
            }
        } else {
            count(values, into: even, odd) { value in
                value >= base && value <= top ? Int(truncatingIfNeeded: UInt64(bitPattern: value &- base) &>> shift) : spill
            }
        }
        var bucket = 0, below = 0
        while below + Int(even[bucket]) + Int(odd[bucket]) <= rank {
            below += Int(even[bucket]) + Int(odd[bucket])
            bucket += 1
        }
        rank -= below
        let start = base &+ Int64(bitPattern: (UInt64(bucket) &<< shift) &* step)
        low = start
        high = min(top, start &+ Int64(bitPattern: ((UInt64(1) &<< shift) &* step) &- 1))
        return Int(even[bucket]) + Int(odd[bucket])
    }

    /// Counts each of `values` in bucket `slot(value)`, the even positions' in `even`, the odd ones' in `odd`.
    @inline(__always)
    private static func count(_ values: UnsafeBufferPointer<Int64>, into even: UnsafeMutablePointer<Int32>,
                              _ odd: UnsafeMutablePointer<Int32>, slot: (Int64) -> Int) {
        var position = 0
        while position + 1 < values.count {
            even[slot(values[position])] &+= 1
            odd[slot(values[position + 1])] &+= 1
            position += 2
        }
        if position < values.count { even[slot(values[position])] &+= 1 }
    }
}
