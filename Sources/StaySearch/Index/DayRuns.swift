/// Per-row values that change by day, stored as runs: for each row, the day offsets where a new
/// value starts and that value. Real calendars hold long runs of one price or one stay rule, so a
/// year of them usually costs one or two runs.
///
/// Each row's first run starts at day offset 0; its last run lasts to the end of the calendar.
public struct DayRuns<Value: BitwiseCopyable>: Sendable {
    /// `rows + 1` offsets: row *r*'s runs are `offsets[r] ..< offsets[r + 1]`.
    public let offsets: Column<UInt32>
    /// The day offset where each run starts.
    public let starts: Column<Int32>
    /// The value of each run.
    public let values: Column<Value>

    /// Wraps run columns; the caller has checked that they are consistent.
    public init(offsets: Column<UInt32>, starts: Column<Int32>, values: Column<Value>) {
        self.offsets = offsets
        self.starts = starts
        self.values = values
    }

    /// The position of the run of row `row` that holds `dayOffset`.
    /// - Complexity: O(log *r*) for *r* runs of the row.
    @inlinable
    public func run(row: Int, dayOffset: Int) -> Int {
        var low = Int(offsets[row])
        var high = Int(offsets[row + 1])      // the answer is in low ..< high
        let target = Int32(truncatingIfNeeded: dayOffset)
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= target { low = middle } else { high = middle }
        }
        return low
    }

    /// The value of row `row` on day offset `dayOffset`.
    @inlinable
    public func value(row: Int, dayOffset: Int) -> Value {
        values[run(row: row, dayOffset: dayOffset)]
    }

    /// The total number of runs.
    public var runCount: Int { starts.count }
}

extension DayRuns where Value == Int32 {
    /// The sum of row `row`'s values over the day offsets `start ..< end`.
    /// - Complexity: O(log *r* + *k*) for *r* runs of the row, *k* of them overlapping the days.
    @inlinable
    public func sum(row: Int, from start: Int, to end: Int) -> Int64 {
        var run = self.run(row: row, dayOffset: start)
        let last = Int(offsets[row + 1])
        var total: Int64 = 0
        var day = start
        while day < end {
            let runEnd = run + 1 < last ? Int(starts[run + 1]) : end
            let stop = min(runEnd, end)
            total += Int64(values[run]) * Int64(stop - day)
            day = stop
            run += 1
        }
        return total
    }
}

/// A stay rule of one check-in day: `minimum_nights` and `maximum_nights`, each capped at 65,535
/// (no calendar is that long, so capping changes no answer), packed into one `UInt32`.
public struct StayRule: Hashable, Sendable {
    /// The packed form: minimum in the high 16 bits, maximum in the low 16 bits.
    public var packed: UInt32

    /// Packs a rule, capping both numbers at 65,535 and flooring them at 0.
    @inlinable
    public init(minimumNights: Int32, maximumNights: Int32) {
        let minimum = UInt32(min(max(minimumNights, 0), 65_535))
        let maximum = UInt32(min(max(maximumNights, 0), 65_535))
        packed = minimum << 16 | maximum
    }

    /// Wraps a packed rule.
    @inlinable
    public init(packed: UInt32) { self.packed = packed }

    /// The fewest nights a stay may have.
    @inlinable
    public var minimumNights: Int { Int(packed >> 16) }

    /// The most nights a stay may have.
    @inlinable
    public var maximumNights: Int { Int(packed & 0xFFFF) }

    /// Whether a stay of `nights` nights is allowed.
    @inlinable
    public func allows(nights: Int) -> Bool {
        nights >= minimumNights && nights <= maximumNights
    }
}
