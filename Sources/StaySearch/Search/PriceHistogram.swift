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

    /// Bins `values` (totals over `nights` nights, in minor units).
    ///
    /// Default bounds: lo is the lowest nightly price rounded down to a whole unit; hi is the
    /// nearest-rank 95th percentile nightly price rounded up to a whole unit, and at least lo + 1.
    /// - Parameter values: reordered in place.
    /// - Complexity: O(*m*) on average for *m* values.
    public static func make(
        values: inout [Int64], sum: Int128, nights: Int64, bins: Int, lo requestedLo: Money?, hi requestedHi: Money?
    ) -> PriceHistogram {
        let unit = nights * 100
        var lo = requestedLo?.minorUnits ?? 0
        var hi = requestedHi?.minorUnits ?? 0
        if requestedLo == nil, !values.isEmpty {
            lo = values.min()! / unit * 100
        }
        if requestedHi == nil {
            if values.isEmpty {
                hi = lo + 100
            } else {
                let rank = (defaultHighPercentile * values.count + 99) / 100 - 1
                let cut = values.withUnsafeMutableBufferPointer { Selection.element(atRank: rank, in: $0) }
                hi = (cut + unit - 1) / unit * 100
            }
            if hi <= lo { hi = lo + 100 }
        } else if requestedLo == nil, lo >= hi {
            lo = max(0, hi - 100)
        }
        var counts = [Int](repeating: 0, count: bins)
        var underflow = 0
        var overflow = 0
        let low = lo * nights
        let high = hi * nights
        let width = (hi - lo) * nights
        let binCount = Int64(bins)
        for value in values {
            if value < low {
                underflow += 1
            } else if value > high {
                overflow += 1
            } else {
                counts[Int(min((value - low) * binCount / width, binCount - 1))] += 1
            }
        }
        let covered = Int128(values.count) * Int128(nights)
        let average = values.isEmpty ? nil : Money(minorUnits: Int64((2 * sum + covered) / (2 * covered)))
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: counts, underflow: underflow,
            overflow: overflow, count: values.count, averageNightlyPrice: average)
    }
}

/// Finding the k-th smallest value without sorting everything.
enum Selection {
    /// The value that would be at `rank` if `values` were sorted ascending; reorders `values`.
    /// - Complexity: O(*n*) on average.
    static func element(atRank rank: Int, in values: UnsafeMutableBufferPointer<Int64>) -> Int64 {
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
