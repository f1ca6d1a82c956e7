/// The counting pass of ``Selection``: how many values lie in each bucket of their offsets above a base
/// (``Selection/bucket(ofOffset:)``), in whole units of a unit when the values' spread allows it, each
/// part's stretch counted into its own table and, with several parts, summed into one more.
/// (Read by several threads at once once counted; while counting, each part writes its own table only.)
struct SelectionBuckets: @unchecked Sendable {
    /// The value offsets are counted from: one above a multiple of the unit (the smallest value without one).
    let base: Int64
    /// The unit offsets are counted in (1 when the spread times the unit would pass 2^64).
    let scale: UnitScale
    /// The largest value's offset.
    let span: UInt64
    /// Buckets in each table.
    let bucketCount: Int
    /// How many parts counted their stretches at once.
    let parts: Int
    /// Each part's table, then (with several parts) their sums; owned: ``deallocate()`` gives it back.
    let tables: UnsafeMutableBufferPointer<Int32>

    /// Counts `values` (`smallest ... largest` their bounds) on up to `threads` threads.
    init(counting values: SharedBuffer<Int64>, smallest: Int64, largest: Int64, unit: Int64, threads: Int) {
        // Offsets are counted from one above a multiple of the unit, in whole units: x ↦ ⌊x ÷ unit⌋ by a
        // multiplication (exact while offset × unit < 2^64: M·unit − 2^64 < unit).
        // (Without a unit when the values' spread times the unit would pass 2^64.)
        let fits = unit > 1 && smallest >= 0 && !UInt64(bitPattern: largest &- smallest &+ unit).multipliedReportingOverflow(by: UInt64(unit)).overflow
        let base = fits ? (smallest == 0 ? 1 - unit : (smallest - 1) / unit * unit + 1) : smallest
        let scale = UnitScale(unit: fits ? unit : 1)
        let span = UInt64(bitPattern: largest &- base)
        let bucketCount = Selection.bucket(ofOffset: scale.units(span)) + 1
        let parts = ParallelPasses.partCount(values: values.buffer.count, threads: threads)
        let tableCount = parts == 1 ? 1 : parts + 1
        let tables = UnsafeMutableBufferPointer<Int32>.allocate(capacity: tableCount * bucketCount)
        tables.initialize(repeating: 0)
        let sharedTables = SharedBuffer(buffer: tables)
        let valueCount = values.buffer.count
        ParallelPasses.run(parts: parts) { part in
            let counts = sharedTables.buffer.baseAddress! + part * bucketCount
            // The loop twice, so that the choice of unit is not made per value.
            if scale.unit == 1 {
                for position in ParallelPasses.stretch(part, of: parts, count: valueCount) {
                    counts[Selection.bucket(ofOffset: UInt64(bitPattern: values.buffer[position] &- base))] &+= 1
                }
            } else {
                for position in ParallelPasses.stretch(part, of: parts, count: valueCount) {
                    counts[Selection.bucket(ofOffset: scale.units(UInt64(bitPattern: values.buffer[position] &- base)))] &+= 1
                }
            }
        }
        if parts > 1 {
            let sums = tables.baseAddress! + parts * bucketCount
            for part in 0..<parts {
                let own = tables.baseAddress! + part * bucketCount
                for bucket in 0..<bucketCount { sums[bucket] &+= own[bucket] }
            }
        }
        self.base = base
        self.scale = scale
        self.span = span
        self.bucketCount = bucketCount
        self.parts = parts
        self.tables = tables
    }

    /// How many values each bucket holds, over every part.
    var counts: UnsafeMutableBufferPointer<Int32> {
        let last = parts == 1 ? 0 : parts
        return UnsafeMutableBufferPointer(rebasing: tables[(last * bucketCount)..<((last + 1) * bucketCount)])
    }

    /// The bucket holding rank `rank` (counting from 0) of the values, and how many values lie in the
    /// buckets below it; the walk starts from `start` (a bucket at or below the answer, with `below` its count).
    func place(_ rank: Int, from start: (bucket: Int, below: Int) = (0, 0)) -> (bucket: Int, below: Int) {
        let counts = self.counts
        var (bucket, below) = start
        while below + Int(counts[bucket]) <= rank {
            below += Int(counts[bucket])
            bucket += 1
        }
        return (bucket, below)
    }

    /// The values bucket `bucket` may hold (up to the largest value).
    func range(of bucket: Int) -> ClosedRange<Int64> {
        let offsets = scale.offsets(ofUnits: Selection.offsets(inBucket: bucket))
        let start = offsets.lowerBound, end = min(span, offsets.upperBound)
        return Int64(bitPattern: UInt64(bitPattern: base) &+ start)...Int64(bitPattern: UInt64(bitPattern: base) &+ end)
    }

    /// The bucket of `value`.
    @inline(__always)
    func bucket(of value: Int64) -> Int {
        Selection.bucket(ofOffset: scale.units(UInt64(bitPattern: value &- base)))
    }

    /// Gives the tables back.
    func deallocate() { tables.deallocate() }
}
