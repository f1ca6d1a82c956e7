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
    ///   - threads: how many threads the passes over `values` may use (a part needs 65,536 values).
    public static func make(
        values: UnsafeMutableBufferPointer<Int64>, sum: Int128, bounds: ClosedRange<Int64>?, nights: Int64, bins: Int,
        lo requestedLo: Money?, hi requestedHi: Money?, threads: Int = 1
    ) -> PriceHistogram {
        make(values: values, sum: sum, bounds: bounds, nights: nights, bins: bins, lo: requestedLo, hi: requestedHi, threads: threads,
             defaultHighUnits: nil)
    }

    /// ``make(values:sum:bounds:nights:bins:lo:hi:threads:)`` with the default high end already worked out
    /// (``defaultHighUnits(_:bounds:unit:threads:)`` of these values), when known.
    static func make(
        values: UnsafeMutableBufferPointer<Int64>, sum: Int128, bounds: ClosedRange<Int64>?, nights: Int64, bins: Int,
        lo requestedLo: Money?, hi requestedHi: Money?, threads: Int = 1, defaultHighUnits knownHighUnits: Int64?
    ) -> PriceHistogram {
        let unit = nights * 100
        var bounds = bounds
        if bounds == nil, !values.isEmpty {
            var smallest = Int64.max, largest = Int64.min
            for value in values {
                smallest = min(smallest, value)
                largest = max(largest, value)
            }
            bounds = smallest...largest
        }
        let (lo, hi) = ends(lo: requestedLo, hi: requestedHi, bounds: bounds, unit: unit) { bounds in
            knownHighUnits ?? defaultHighUnits(values, bounds: bounds, unit: unit, threads: threads)
        }!
        // Each part counts into its own bins + 2 slots (then underflow, overflow); the first part's get the sums.
        let low = lo * nights
        let binning = ExactBinning(low: low, width: (hi - lo) * nights, bins: bins)
        let parts = ParallelPasses.partCount(values: values.count, threads: threads)
        let slots = bins + 2
        var partCounts = [Int](repeating: 0, count: parts * slots)
        partCounts.withUnsafeMutableBufferPointer { partCounts in
            let shared = SharedBuffer(buffer: values), sharedCounts = SharedBuffer(buffer: partCounts)
            let valueCount = values.count
            ParallelPasses.run(parts: parts) { part in
                let stretch = ParallelPasses.stretch(part, of: parts, count: valueCount)
                binning.count(UnsafeBufferPointer(rebasing: shared.buffer[stretch]),
                              into: UnsafeMutableBufferPointer(rebasing: sharedCounts.buffer[(part * slots)..<((part + 1) * slots)]))
            }
            for part in 1..<parts {
                for slot in 0..<slots { partCounts[slot] += partCounts[part * slots + slot] }
            }
        }
        let counts = partCounts[0..<slots]
        let covered = Int128(values.count) * Int128(nights)
        let average = values.isEmpty ? nil : Money(minorUnits: Int64((2 * sum + covered) / (2 * covered)))
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: Array(counts[0..<bins]), underflow: counts[bins],
            overflow: counts[bins + 1], count: values.count, averageNightlyPrice: average)
    }
}

extension PriceHistogram {
    /// The histogram's ends in minor units: those requested, else lo the smallest value's nightly price
    /// rounded down to a whole unit, and hi the default high end (`highUnits`, in whole units, from the
    /// values' bounds; nil when it cannot tell, and then so is this), at least lo + 1 unit.
    /// - Parameter bounds: the smallest and largest value, nil when there are none.
    static func ends(lo requestedLo: Money?, hi requestedHi: Money?, bounds: ClosedRange<Int64>?, unit: Int64,
                     highUnits: (ClosedRange<Int64>) -> Int64?) -> (lo: Int64, hi: Int64)? {
        var lo = requestedLo?.minorUnits ?? 0
        var hi = requestedHi?.minorUnits ?? 0
        if requestedLo == nil, let bounds {
            lo = bounds.lowerBound / unit * 100
        }
        if requestedHi == nil {
            if let bounds {
                guard let units = highUnits(bounds) else { return nil }
                hi = units * 100
            } else {
                hi = lo + 100
            }
            if hi <= lo { hi = lo + 100 }
        } else if requestedLo == nil, lo >= hi {
            lo = max(0, hi - 100)
        }
        return (lo, hi)
    }

    /// The nearest-rank percentile `percent` of `count` values: its rank counting from 0.
    package static func rank(ofPercentile percent: Int, count: Int) -> Int {
        max(0, (percent * count + 99) / 100 - 1)
    }

    /// The default high end before rounding, on the values' own scale: the smaller of the nearest-rank
    /// 95th percentile and Q3 + 3 × (Q3 − Q1). Nightly prices are totals ÷ nights, so ranks and the
    /// fence on totals are those of the nightly prices times nights, exactly.
    /// - Parameters:
    ///   - values: not empty; reordered in place.
    ///   - bounds: the smallest and largest of `values`.
    package static func defaultHighCut(_ values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>, threads: Int = 1) -> Int64 {
        let count = values.count
        let (q1, q3, p95) = Selection.elements(
            atRanks: (rank(ofPercentile: 25, count: count), rank(ofPercentile: 75, count: count),
                      rank(ofPercentile: defaultHighPercentile, count: count)), in: values, bounds: bounds, threads: threads)
        let fence = q3 + outlierFenceWidth * (q3 - q1)
        return min(p95, fence)
    }

    /// The default high end in whole `unit`s (a unit is one currency unit a night times the nights):
    /// ⌈``defaultHighCut(_:bounds:threads:)`` ÷ unit⌉.
    ///
    /// Only that rounded figure matters, so the selection counts the values by whole units above a
    /// multiple of the unit (``Selection/elements(atRanks:in:bounds:threads:unit:unlessDecided:)``) and
    /// stops there when the ranges of values its buckets give the three ranks fix it: ⌈min(p95, Q3 +
    /// 3(Q3 − Q1)) ÷ u⌉ = min(⌈p95 ÷ u⌉, ⌈fence ÷ u⌉), each side taken at both ends of its range. The
    /// 95th percentile's bucket is one unit wide below 2,048 units, and the fence is usually well above it;
    /// otherwise the values of the ranks' buckets are gathered and the cut found exactly.
    /// - Parameters:
    ///   - values: not empty; reordered in place.
    ///   - bounds: the smallest and largest of `values` (none negative).
    package static func defaultHighUnits(_ values: UnsafeMutableBufferPointer<Int64>, bounds: ClosedRange<Int64>, unit: Int64, threads: Int = 1) -> Int64 {
        let (exact, decided) = Selection.elements(atRanks: highEndRanks(count: values.count), in: values, bounds: bounds,
                                                  threads: threads, unit: unit) { highUnits(decidedBy: $0, unit: unit) }
        if let decided { return decided }
        let (q1, q3, p95) = exact!
        return (min(p95, q3 + outlierFenceWidth * (q3 - q1)) + unit - 1) / unit
    }

    /// ``defaultHighUnits(_:bounds:unit:threads:)``, and the value at rank `rank` of `values` (counting from
    /// 0) from the same counting pass (``Selection/elements(atRanks:andExactly:in:bounds:threads:unit:wholeUnits:unlessDecided:)``):
    /// the recommended order's median and the histogram's high end for the cost of one. `values` are left as they are.
    /// - Parameters:
    ///   - values: not empty.
    ///   - bounds: the smallest and largest of `values` (none negative).
    ///   - wholeUnits: every value is a multiple of 100 minor units.
    package static func defaultHighUnits(_ values: UnsafeBufferPointer<Int64>, bounds: ClosedRange<Int64>, unit: Int64, threads: Int = 1,
                                 valueAtRank rank: Int, wholeUnits: Bool) -> (units: Int64, valueAtRank: Int64) {
        let (exact, decided, atRank) = Selection.elements(atRanks: highEndRanks(count: values.count), andExactly: rank, in: values,
                                                          bounds: bounds, threads: threads, unit: unit, wholeUnits: wholeUnits) {
            highUnits(decidedBy: $0, unit: unit)
        }
        if let decided { return (decided, atRank) }
        let (q1, q3, p95) = exact!
        return ((min(p95, q3 + outlierFenceWidth * (q3 - q1)) + unit - 1) / unit, atRank)
    }

    /// The ranks of Q1, Q3 and the 95th percentile among `count` values, counting from 0.
    static func highEndRanks(count: Int) -> (Int, Int, Int) {
        (rank(ofPercentile: 25, count: count), rank(ofPercentile: 75, count: count), rank(ofPercentile: defaultHighPercentile, count: count))
    }

    /// The default high end in whole `unit`s when the ranges of values holding Q1, Q3 and the 95th
    /// percentile fix it, else nil.
    static func highUnits(decidedBy ranges: Selection.RankRanges, unit: Int64) -> Int64? {
        let (q1, q3, p95) = ranges
        func units(_ value: Int64) -> Int64 { (value + unit - 1) / unit }
        // The fence is at least Q3 whatever Q1 is within its range (Q1 ≤ Q3).
        let lowestFence = max(q3.lowerBound, q3.lowerBound + outlierFenceWidth * (q3.lowerBound - q1.upperBound))
        let highestFence = q3.upperBound + outlierFenceWidth * (q3.upperBound - q1.lowerBound)
        let least = min(units(p95.lowerBound), units(lowestFence)), most = min(units(p95.upperBound), units(highestFence))
        return least == most ? least : nil
    }
}
