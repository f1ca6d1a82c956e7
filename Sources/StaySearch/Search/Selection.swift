import Dispatch

/// Finding the k-th smallest value without sorting everything.
enum Selection {
    /// The values that would be at ranks `ranks.0 ≤ ranks.1 ≤ ranks.2` if `values` were sorted
    /// ascending; may reorder `values`.
    ///
    /// Large inputs are narrowed first by one counting pass over the top bits (a radix step) shared by
    /// the three ranks, so that only the values sharing an answer's bucket are selected among. Two
    /// allocations however large the input: the bucket counts and the candidates of the three buckets.
    /// - Parameters:
    ///   - bounds: the smallest and largest of `values`, when known (saves a pass).
    ///   - threads: how many threads the passes over `values` may use (a part needs 65,536 values).
    /// - Complexity: O(*n*).
    static func elements(
        atRanks ranks: (Int, Int, Int), in values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>? = nil,
        threads: Int = 1
    ) -> (Int64, Int64, Int64) {
        precondition(ranks.0 <= ranks.1 && ranks.1 <= ranks.2 && ranks.0 >= 0 && ranks.2 < values.count, "ranks out of order")
        guard values.count > 4_096 else {
            return (quickSelect(atRank: ranks.0, in: values), quickSelect(atRank: ranks.1, in: values),
                    quickSelect(atRank: ranks.2, in: values))
        }
        var smallest = bounds?.lowerBound ?? Int64.max
        var largest = bounds?.upperBound ?? Int64.min
        if bounds == nil {
            for value in values {
                smallest = min(smallest, value)
                largest = max(largest, value)
            }
        }
        let span = UInt64(bitPattern: largest &- smallest)
        let bucketBits = 16
        let bucketCount = 1 << bucketBits
        let shift = UInt64(max(0, 64 - span.leadingZeroBitCount - bucketBits))
        let base = smallest
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
            for position in ParallelPasses.stretch(part, of: parts, count: valueCount) {
                counts[Int(UInt64(bitPattern: shared.buffer[position] &- base) &>> shift)] &+= 1
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
                      bucketCount: bucketCount, parts: parts, base: base, shift: shift)
        func select(_ rank: Int, _ place: (bucket: Int, below: Int), from start: Int) -> Int64 {
            let segment = UnsafeMutableBufferPointer(rebasing: members[start..<(start + Int(counts[place.bucket]))])
            return quickSelect(atRank: rank - place.below, in: segment)
        }
        return (select(ranks.0, first, from: firstStart), select(ranks.1, second, from: secondStart),
                select(ranks.2, third, from: thirdStart))
    }

    /// The values of the three ranks' buckets, each bucket's in its segment of `members` (from `starts`),
    /// each part's after those of the parts before it (`tables`: each part's bucket counts).
    private static func gatherMembers(
        of buckets: (Int, Int, Int), from values: SharedBuffer<Int64>, into members: UnsafeMutableBufferPointer<Int64>,
        starts: (Int, Int, Int), tables: SharedBuffer<Int32>, bucketCount: Int, parts: Int, base: Int64, shift: UInt64
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
                let own = Int(UInt64(bitPattern: value &- base) &>> shift)
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
