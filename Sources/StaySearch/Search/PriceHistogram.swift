/// Equal-width bins of nightly prices over [lo, hi], with what falls outside counted apart.
///
/// A nightly price *v* goes to bin ⌊(*v* − lo) · bins / (hi − lo)⌋, *v* = hi to the last bin. With
/// dates it is computed exactly on the stay's total *t* over *n* nights:
/// ⌊(*t* − lo·*n*) · bins / ((hi − lo) · *n*)⌋.
public struct PriceHistogram: Sendable, Equatable {
    /// The low end of the first bin.
    public var lo: Money
    /// The high end of the last bin.
    public var hi: Money
    /// Listings per bin.
    public var counts: [Int]
    /// Listings below `lo`.
    public var underflow: Int
    /// Listings above `hi` (the "hi+" bar).
    public var overflow: Int
    /// Every listing the histogram covers, including under- and overflow.
    public var count: Int
    /// The average nightly price of those listings, rounded half up; `nil` when there are none.
    public var averageNightlyPrice: Money?

    /// Creates a histogram from its parts.
    public init(lo: Money, hi: Money, counts: [Int], underflow: Int, overflow: Int, count: Int, averageNightlyPrice: Money?) {
        self.lo = lo
        self.hi = hi
        self.counts = counts
        self.underflow = underflow
        self.overflow = overflow
        self.count = count
        self.averageNightlyPrice = averageNightlyPrice
    }

    /// The percentile at which the default high end cuts outliers.
    public static let defaultHighPercentile = 95

    /// How many interquartile ranges above the third quartile the default high end may reach.
    public static let outlierFenceWidth: Int64 = 3

    /// Bins `values` (totals over `nights` nights, in minor units).
    ///
    /// Default bounds: lo is the lowest nightly price rounded down to a whole unit; hi is the smaller
    /// of the nearest-rank 95th percentile and the outlier fence Q3 + 3 × (Q3 − Q1) of the nightly
    /// prices, rounded up to a whole unit, and at least lo + 1. The fence keeps a cluster of extreme
    /// prices from flattening every other bar.
    /// - Parameter values: reordered in place.
    /// - Complexity: O(*m*) for *m* values.
    public static func make(
        values: inout [Int64], sum: Int128, nights: Int64, bins: Int, lo requestedLo: Money?, hi requestedHi: Money?
    ) -> PriceHistogram {
        values.withUnsafeMutableBufferPointer { buffer in
            make(values: buffer, sum: sum, bounds: nil, nights: nights, bins: bins, lo: requestedLo, hi: requestedHi)
        }
    }

    /// Bins `values` (totals over `nights` nights, in minor units, none negative); see the array form.
    /// - Parameters:
    ///   - values: reordered in place.
    ///   - bounds: the smallest and largest of `values` when the caller has them (a scan tracks them as
    ///     it writes), saving a pass; nil to find them.
    public static func make(
        values: UnsafeMutableBufferPointer<Int64>, sum: Int128, bounds: ClosedRange<Int64>?, nights: Int64, bins: Int,
        lo requestedLo: Money?, hi requestedHi: Money?
    ) -> PriceHistogram {
        let unit = nights * 100
        var lo = requestedLo?.minorUnits ?? 0
        var hi = requestedHi?.minorUnits ?? 0
        var bounds = bounds
        if bounds == nil, !values.isEmpty {
            var smallest = Int64.max, largest = Int64.min
            for value in values {
                smallest = min(smallest, value)
                largest = max(largest, value)
            }
            bounds = smallest...largest
        }
        if requestedLo == nil, let bounds {
            lo = bounds.lowerBound / unit * 100
        }
        if requestedHi == nil {
            if let bounds {
                let cut = defaultHighCut(values, bounds: bounds)
                hi = (cut + unit - 1) / unit * 100
            } else {
                hi = lo + 100
            }
            if hi <= lo { hi = lo + 100 }
        } else if requestedLo == nil, lo >= hi {
            lo = max(0, hi - 100)
        }
        var counts = [Int](repeating: 0, count: bins + 2)   // then underflow, overflow
        let low = lo * nights
        let high = hi * nights
        let binning = ExactBinning(low: low, width: (hi - lo) * nights, bins: bins)
        counts.withUnsafeMutableBufferPointer { counts in
            for value in values {
                let slot = value < low ? bins : value > high ? bins + 1 : binning.bin(of: value)
                counts[slot] += 1
            }
        }
        let covered = Int128(values.count) * Int128(nights)
        let average = values.isEmpty ? nil : Money(minorUnits: Int64((2 * sum + covered) / (2 * covered)))
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: Array(counts[0..<bins]), underflow: counts[bins],
            overflow: counts[bins + 1], count: values.count, averageNightlyPrice: average)
    }
}

extension PriceHistogram {
    /// The nearest-rank percentile `percent` of `count` values: its rank counting from 0.
    static func rank(ofPercentile percent: Int, count: Int) -> Int {
        max(0, (percent * count + 99) / 100 - 1)
    }

    /// The default high end before rounding, on the values' own scale: the smaller of the nearest-rank
    /// 95th percentile and Q3 + 3 × (Q3 − Q1). Nightly prices are totals ÷ nights, so ranks and the
    /// fence on totals are those of the nightly prices times nights, exactly.
    /// - Parameters:
    ///   - values: not empty; reordered in place.
    ///   - bounds: the smallest and largest of `values`.
    static func defaultHighCut(_ values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>) -> Int64 {
        let count = values.count
        let (q1, q3, p95) = Selection.elements(
            atRanks: (rank(ofPercentile: 25, count: count), rank(ofPercentile: 75, count: count),
                      rank(ofPercentile: defaultHighPercentile, count: count)), in: values, bounds: bounds)
        let fence = q3 + outlierFenceWidth * (q3 - q1)
        return min(p95, fence)
    }
}

/// ⌊(*v* − low) · bins / width⌋ capped at the last bin, exactly, without a division per value: a
/// floating-point estimate corrected by one integer comparison each way.
struct ExactBinning {
    let low: Int64
    let width: Int64
    let bins: Int64
    let scale: Double

    init(low: Int64, width: Int64, bins: Int) {
        self.low = low
        self.width = width
        self.bins = Int64(bins)
        scale = Double(bins) / Double(width)
    }

    /// The bin of `value`, for low ≤ value ≤ low + width.
    @inline(__always)
    func bin(of value: Int64) -> Int {
        let offset = value &- low
        let scaled = offset &* bins
        var bin = Int64(Double(offset) * scale)
        if bin &* width > scaled { bin &-= 1 } else if (bin &+ 1) &* width <= scaled { bin &+= 1 }
        return Int(min(bin, bins &- 1))
    }
}

/// Finding the k-th smallest value without sorting everything.
enum Selection {
    /// The values that would be at ranks `ranks.0 ≤ ranks.1 ≤ ranks.2` if `values` were sorted
    /// ascending; may reorder `values`.
    ///
    /// Large inputs are narrowed first by one counting pass over the top bits (a radix step) shared by
    /// the three ranks, so that only the values sharing an answer's bucket are selected among. Two
    /// allocations however large the input: the bucket counts and the candidates of the three buckets.
    /// - Parameter bounds: the smallest and largest of `values`, when known (saves a pass).
    /// - Complexity: O(*n*).
    static func elements(
        atRanks ranks: (Int, Int, Int), in values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>? = nil
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
        let shift = UInt64(max(0, 64 - span.leadingZeroBitCount - bucketBits))
        let counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1 << bucketBits)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0)
        for value in values { counts[Int(UInt64(bitPattern: value &- smallest) >> shift)] &+= 1 }

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
        // the rank before it shares its segment.
        let firstStart = 0
        let secondStart = second.bucket == first.bucket ? firstStart : firstStart + Int(counts[first.bucket])
        let thirdStart = third.bucket == second.bucket ? secondStart : secondStart + Int(counts[second.bucket])
        let total = thirdStart + Int(counts[third.bucket])
        let members = UnsafeMutableBufferPointer<Int64>.allocate(capacity: total)
        defer { members.deallocate() }
        var cursors = (firstStart, secondStart, thirdStart)
        for value in values {
            let own = Int(UInt64(bitPattern: value &- smallest) >> shift)
            if own == first.bucket {
                members[cursors.0] = value
                cursors.0 += 1
            } else if own == second.bucket {
                members[cursors.1] = value
                cursors.1 += 1
            } else if own == third.bucket {
                members[cursors.2] = value
                cursors.2 += 1
            }
        }
        func select(_ rank: Int, _ place: (bucket: Int, below: Int), from start: Int) -> Int64 {
            let segment = UnsafeMutableBufferPointer(rebasing: members[start..<(start + Int(counts[place.bucket]))])
            return quickSelect(atRank: rank - place.below, in: segment)
        }
        return (select(ranks.0, first, from: firstStart), select(ranks.1, second, from: secondStart),
                select(ranks.2, third, from: thirdStart))
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
