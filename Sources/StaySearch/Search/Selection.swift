import StaySearchKernels
import Dispatch

/// Finding the k-th smallest value without sorting everything.
package enum Selection {
    /// The values that would be at ranks `ranks.0 ≤ ranks.1 ≤ ranks.2` if `values` were sorted
    /// ascending; may reorder `values`.
    ///
    /// Large inputs are narrowed first by one counting pass into buckets of the values' offsets from the
    /// smallest (``bucket(ofOffset:)``) shared by the three ranks, so that only the values sharing an
    /// answer's bucket are selected among. Two allocations however large the input: the bucket counts
    /// and the candidates of the three buckets. Smaller inputs in whole currency units, their bounds
    /// known, are counted by unit (``byWholeUnits(_:bounds:ranks:)``); other small ones are selected in.
    /// - Parameters:
    ///   - bounds: the smallest and largest of `values`, when known (saves a pass).
    ///   - threads: how many threads the passes over `values` may use (a part needs 65,536 values).
    /// - Complexity: O(*n*).
    package static func elements(
        atRanks ranks: (Int, Int, Int), in values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>? = nil,
        threads: Int = 1
    ) -> (Int64, Int64, Int64) {
        elements(atRanks: ranks, in: values, bounds: bounds, threads: threads, unit: 1) { _ in nil }.exact!
    }

    /// The ranges of values that hold each of three ranks (`ranks.0 ≤ ranks.1 ≤ ranks.2`) of `values`
    /// as if sorted.
    typealias RankRanges = (ClosedRange<Int64>, ClosedRange<Int64>, ClosedRange<Int64>)

    /// ``elements(atRanks:in:bounds:threads:)`` as `exact`, unless `decides` answers from no more than the
    /// ranges of values its buckets give each rank (known after the counting pass): then its answer as
    /// `decided`, and the values are not read again.
    /// - Parameter unit: the buckets count whole units from a value one above a multiple of `unit` (each
    ///   bucket's values then have one ⌈value ÷ unit⌉ below 2,048 units); 1 for no unit.
    static func elements(
        atRanks ranks: (Int, Int, Int), in values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>? = nil,
        threads: Int = 1, unit: Int64, unlessDecided decides: (RankRanges) -> Int64?
    ) -> (exact: (Int64, Int64, Int64)?, decided: Int64?) {
        precondition(ranks.0 <= ranks.1 && ranks.1 <= ranks.2 && ranks.0 >= 0 && ranks.2 < values.count, "ranks out of order")
        guard values.count > 4_096 else {
            if let bounds, let found = byWholeUnits(UnsafeBufferPointer(values), bounds: bounds, ranks: (ranks.0, ranks.1, ranks.2, ranks.2)) {
                return ((found.0, found.1, found.2), nil)
            }
            // Equal ranks (a median) are selected once.
            let first = quickSelect(atRank: ranks.0, in: values)
            let second = ranks.1 == ranks.0 ? first : quickSelect(atRank: ranks.1, in: values)
            return ((first, second, ranks.2 == ranks.1 ? second : quickSelect(atRank: ranks.2, in: values)), nil)
        }
        var smallest = bounds?.lowerBound ?? Int64.max
        var largest = bounds?.upperBound ?? Int64.min
        if bounds == nil {
            for value in values {
                smallest = min(smallest, value)
                largest = max(largest, value)
            }
        }
        let shared = SharedBuffer(buffer: values)
        let buckets = SelectionBuckets(counting: shared, smallest: smallest, largest: largest, unit: unit, threads: threads)
        defer { buckets.deallocate() }
        // Each rank's bucket and how many values lie in the buckets below it (ranks rise, so do buckets).
        let first = buckets.place(ranks.0), second = buckets.place(ranks.1, from: first), third = buckets.place(ranks.2, from: second)
        if let decided = decides((buckets.range(of: first.bucket), buckets.range(of: second.bucket), buckets.range(of: third.bucket))) {
            return (nil, decided)
        }
        return (select(ranks, places: (first, second, third), of: shared, buckets: buckets), nil)
    }

    /// The values at `ranks` (rising) from the buckets the counting pass placed them in: the distinct
    /// buckets' members gathered, one segment each, in one buffer (a rank sharing the bucket of the rank
    /// before it shares its segment; within a segment, each part's members follow those of the parts
    /// before it), and each rank selected within its segment. Leaves `values` as they are.
    static func select(_ ranks: (Int, Int, Int), places: ((bucket: Int, below: Int), (bucket: Int, below: Int), (bucket: Int, below: Int)),
                       of values: SharedBuffer<Int64>, buckets: SelectionBuckets) -> (Int64, Int64, Int64) {
        let (first, second, third) = places
        let counts = buckets.counts
        let firstStart = 0
        let secondStart = second.bucket == first.bucket ? firstStart : firstStart + Int(counts[first.bucket])
        let thirdStart = third.bucket == second.bucket ? secondStart : secondStart + Int(counts[second.bucket])
        let total = thirdStart + Int(counts[third.bucket])
        let members = UnsafeMutableBufferPointer<Int64>.allocate(capacity: total)
        defer { members.deallocate() }
        gatherMembers(of: (first.bucket, second.bucket, third.bucket), from: values, into: members,
                      starts: (firstStart, secondStart, thirdStart), buckets: buckets)
        func select(_ rank: Int, _ place: (bucket: Int, below: Int), from start: Int) -> Int64 {
            let segment = UnsafeMutableBufferPointer(rebasing: members[start..<(start + Int(counts[place.bucket]))])
            return quickSelect(atRank: rank - place.below, in: segment)
        }
        return (select(ranks.0, first, from: firstStart), select(ranks.1, second, from: secondStart),
                select(ranks.2, third, from: thirdStart))
    }

    /// The values of the three ranks' buckets, each bucket's in its segment of `members` (from `starts`),
    /// each part's after those of the parts before it. A bucket is a range of values (the buckets rise with
    /// the values), so each distinct bucket's members are picked by range (``staysearch_pick_in_range``,
    /// AVX2 where the processor has it; callgrind, 1-night searches over 200,000 listings priced in won:
    /// 26 → 13 instructions a value), into a part's own room first, then copied to their place.
    private static func gatherMembers(
        of wanted: (Int, Int, Int), from values: SharedBuffer<Int64>, into members: UnsafeMutableBufferPointer<Int64>,
        starts: (Int, Int, Int), buckets: SelectionBuckets
    ) {
        let sharedMembers = SharedBuffer(buffer: members)
        let parts = buckets.parts, bucketCount = buckets.bucketCount
        // The distinct buckets (a rank sharing its bucket with the rank before it shares its segment).
        var distinct = [(bucket: wanted.0, start: starts.0)]
        if wanted.1 != wanted.0 { distinct.append((wanted.1, starts.1)) }
        if wanted.2 != wanted.1 { distinct.append((wanted.2, starts.2)) }
        let picks = distinct.map { (range: buckets.range(of: $0.bucket), bucket: $0.bucket, start: $0.start) }
        ParallelPasses.run(parts: parts) { part in
            let stretch = ParallelPasses.stretch(part, of: parts, count: values.buffer.count)
            guard !stretch.isEmpty else { return }
            for pick in picks {
                // This part's members go after those of the parts before it.
                var cursor = pick.start, own = 0
                for before in 0...part {
                    let count = Int(buckets.tables[before * bucketCount + pick.bucket])
                    if before < part { cursor += count } else { own = count }
                }
                guard own > 0 else { continue }
                let room = UnsafeMutablePointer<Int64>.allocate(capacity: own + Int(staysearch_pick_slack))
                defer { room.deallocate() }
                let picked = staysearch_pick_in_range(values.buffer.baseAddress! + stretch.lowerBound, stretch.count,
                                                      pick.range.lowerBound, pick.range.upperBound, room)
                precondition(picked == own, "a bucket's count does not match its values")
                (sharedMembers.buffer.baseAddress! + cursor).update(from: room, count: own)
            }
        }
    }

    /// The bucket of a value `offset` above the smallest: offsets below 2,048 have a bucket each, and each
    /// power of two above has 1,024 buckets (a bucket spans at most 1/1,024 of its offsets), so that the
    /// buckets stay narrow around the percentiles however far outliers reach (at most 56,320 buckets).
    /// Monotone: a larger offset never has a smaller bucket.
    @inline(__always)
    package static func bucket(ofOffset offset: UInt64) -> Int {
        guard offset >= 2_048 else { return Int(truncatingIfNeeded: offset) }
        let shift = 53 &- offset.leadingZeroBitCount
        return (shift &<< 10) &+ Int(truncatingIfNeeded: offset &>> UInt64(shift))
    }

    /// The offsets of bucket `bucket` (``bucket(ofOffset:)``).
    package static func offsets(inBucket bucket: Int) -> ClosedRange<UInt64> {
        guard bucket >= 2_048 else { return UInt64(bucket)...UInt64(bucket) }
        let shift = UInt64((bucket >> 10) - 1), mantissa = UInt64(bucket - Int(shift << 10))
        return (mantissa << shift)...(((mantissa + 1) << shift) &- 1)
    }

    /// Hoare-partition quickselect with a median-of-three pivot; reorders `values`.
    /// - Complexity: O(*n*) on average.
    static func quickSelect(atRank rank: Int, in values: UnsafeMutableBufferPointer<Int64>) -> Int64 {
        var low = 0
        var high = values.count - 1
        while low < high {
            // Median of three as pivot.
            let middle = low + (high - low) / 2
            if values[middle] < values[low] { values.swapAt(middle, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[middle] { values.swapAt(high, middle) }
            let pivot = values[middle]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j { high = j } else if rank >= i { low = i } else { return values[rank] }
        }
        return values[rank]
    }
}
