import Dispatch

/// Finding the k-th smallest value without sorting everything.
enum Selection {
    /// The values that would be at ranks `ranks.0 ≤ ranks.1 ≤ ranks.2` if `values` were sorted
    /// ascending; may reorder `values`.
    ///
    /// Large inputs are narrowed first by one counting pass into buckets of the values' offsets from the
    /// smallest (``bucket(ofOffset:)``) shared by the three ranks, so that only the values sharing an
    /// answer's bucket are selected among. Two allocations however large the input: the bucket counts
    /// and the candidates of the three buckets.
    /// - Parameters:
    ///   - bounds: the smallest and largest of `values`, when known (saves a pass).
    ///   - threads: how many threads the passes over `values` may use (a part needs 65,536 values).
    /// - Complexity: O(*n*).
    static func elements(
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
        // Offsets are counted from one above a multiple of the unit, in whole units: x ↦ ⌊x ÷ unit⌋ by a
        // multiplication (exact while offset × unit < 2^64: M·unit − 2^64 < unit).
        // (Without a unit when the values' spread times the unit would pass 2^64.)
        let fits = unit > 1 && smallest >= 0 && !UInt64(bitPattern: largest &- smallest &+ unit).multipliedReportingOverflow(by: UInt64(unit)).overflow
        let base = fits ? (smallest == 0 ? 1 - unit : (smallest - 1) / unit * unit + 1) : smallest
        let scale = UnitScale(unit: fits ? unit : 1)
        let span = UInt64(bitPattern: largest &- base)
        let bucketCount = Selection.bucket(ofOffset: scale.units(span)) + 1
        // Each part counts its own stretch into its own table; with several parts, one more table holds
        // the sums.
        let parts = ParallelPasses.partCount(values: values.count, threads: threads)
        let tableCount = parts == 1 ? 1 : parts + 1
        let tables = UnsafeMutableBufferPointer<Int32>.allocate(capacity: tableCount * bucketCount)
        defer { tables.deallocate() }
        tables.initialize(repeating: 0)
        let shared = SharedBuffer(buffer: values), sharedTables = SharedBuffer(buffer: tables)
        let valueCount = values.count
        ParallelPasses.run(parts: parts) { part in
            let counts = sharedTables.buffer.baseAddress! + part * bucketCount
            // The loop twice, so that the choice of unit is not made per value.
            if scale.unit == 1 {
                for position in ParallelPasses.stretch(part, of: parts, count: valueCount) {
                    counts[Selection.bucket(ofOffset: UInt64(bitPattern: shared.buffer[position] &- base))] &+= 1
                }
            } else {
                for position in ParallelPasses.stretch(part, of: parts, count: valueCount) {
                    counts[Selection.bucket(ofOffset: scale.units(UInt64(bitPattern: shared.buffer[position] &- base)))] &+= 1
                }
            }
        }
        let counts = UnsafeMutableBufferPointer(rebasing: tables[((tableCount - 1) * bucketCount)..<(tableCount * bucketCount)])
        if parts > 1 {
            for part in 0..<parts {
                let own = tables.baseAddress! + part * bucketCount
                for bucket in 0..<bucketCount { counts[bucket] &+= own[bucket] }
            }
        }

        // Each rank's bucket and how many values lie in the buckets below it (ranks rise, so do buckets).
        var bucket = 0
        var below = 0
        func place(_ rank: Int) -> (bucket: Int, below: Int) {
            while below + Int(counts[bucket]) <= rank {
                below += Int(counts[bucket])
                bucket += 1
            }
            return (bucket, below)
        }
        let first = place(ranks.0), second = place(ranks.1), third = place(ranks.2)
        func range(of bucket: Int) -> ClosedRange<Int64> {
            let offsets = scale.offsets(ofUnits: Selection.offsets(inBucket: bucket))
            let start = offsets.lowerBound, end = min(span, offsets.upperBound)
            return Int64(bitPattern: UInt64(bitPattern: base) &+ start)...Int64(bitPattern: UInt64(bitPattern: base) &+ end)
        }
        if let decided = decides((range(of: first.bucket), range(of: second.bucket), range(of: third.bucket))) { return (nil, decided) }
        // The distinct buckets' members, one segment each, in one buffer; a rank sharing the bucket of
        // the rank before it shares its segment. Within a segment, each part's members follow those of
        // the parts before it.
        let firstStart = 0
        let secondStart = second.bucket == first.bucket ? firstStart : firstStart + Int(counts[first.bucket])
        let thirdStart = third.bucket == second.bucket ? secondStart : secondStart + Int(counts[second.bucket])
        let total = thirdStart + Int(counts[third.bucket])
        let members = UnsafeMutableBufferPointer<Int64>.allocate(capacity: total)
        defer { members.deallocate() }
        let buckets = (first.bucket, second.bucket, third.bucket)
        gatherMembers(of: buckets, from: shared, into: members, starts: (firstStart, secondStart, thirdStart), tables: sharedTables,
                      bucketCount: bucketCount, parts: parts, base: base, scale: scale)
        func select(_ rank: Int, _ place: (bucket: Int, below: Int), from start: Int) -> Int64 {
            let segment = UnsafeMutableBufferPointer(rebasing: members[start..<(start + Int(counts[place.bucket]))])
            return quickSelect(atRank: rank - place.below, in: segment)
        }
        return ((select(ranks.0, first, from: firstStart), select(ranks.1, second, from: secondStart),
                 select(ranks.2, third, from: thirdStart)), nil)
    }

    /// The values of the three ranks' buckets, each bucket's in its segment of `members` (from `starts`),
    /// each part's after those of the parts before it (`tables`: each part's bucket counts).
    private static func gatherMembers(
        of buckets: (Int, Int, Int), from values: SharedBuffer<Int64>, into members: UnsafeMutableBufferPointer<Int64>,
        starts: (Int, Int, Int), tables: SharedBuffer<Int32>, bucketCount: Int, parts: Int, base: Int64, scale: UnitScale
    ) {
        let sharedMembers = SharedBuffer(buffer: members)
        ParallelPasses.run(parts: parts) { part in
            // This part's members go after those of the parts before it.
            var cursors = starts
            for before in 0..<part {
                let counts = tables.buffer.baseAddress! + before * bucketCount
                cursors.0 += Int(counts[buckets.0])
                cursors.1 += Int(counts[buckets.1])
                cursors.2 += Int(counts[buckets.2])
            }
            for position in ParallelPasses.stretch(part, of: parts, count: values.buffer.count) {
                let value = values.buffer[position]
                let own = Selection.bucket(ofOffset: scale.units(UInt64(bitPattern: value &- base)))
                if own == buckets.0 {
                    sharedMembers.buffer[cursors.0] = value
                    cursors.0 += 1
                } else if own == buckets.1 {
                    sharedMembers.buffer[cursors.1] = value
                    cursors.1 += 1
                } else if own == buckets.2 {
                    sharedMembers.buffer[cursors.2] = value
                    cursors.2 += 1
                }
            }
        }
    }

    /// The bucket of a value `offset` above the smallest: offsets below 2,048 have a bucket each, and each
    /// power of two above has 1,024 buckets (a bucket spans at most 1/1,024 of its offsets), so that the
    /// buckets stay narrow around the percentiles however far outliers reach (at most 56,320 buckets).
    /// Monotone: a larger offset never has a smaller bucket.
    @inline(__always)
    static func bucket(ofOffset offset: UInt64) -> Int {
        guard offset >= 2_048 else { return Int(truncatingIfNeeded: offset) }
        let shift = 53 &- offset.leadingZeroBitCount
        return (shift &<< 10) &+ Int(truncatingIfNeeded: offset &>> UInt64(shift))
    }

    /// The offsets of bucket `bucket` (``bucket(ofOffset:)``).
    static func offsets(inBucket bucket: Int) -> ClosedRange<UInt64> {
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
