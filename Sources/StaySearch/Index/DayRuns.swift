/// Per-row values that change by day, stored as runs: for each row, the day offsets where a new
/// value starts and that value. Real calendars hold long runs of one price or one stay rule, so a
/// year of them usually costs one or two runs.
///
/// Each row's first run starts at day offset 0; its last run lasts to the end of the calendar.
public struct DayRuns: Sendable {
    /// `rows + 1` offsets: row *r*'s runs are `offsets[r] ..< offsets[r + 1]`.
    public let offsets: Column<UInt32>
    /// The day offset where each run starts.
    public let starts: Column<Int32>
    /// The value of each run.
    public let values: Column<Int64>

    /// Wraps run columns; the caller has checked that they are consistent.
    public init(offsets: Column<UInt32>, starts: Column<Int32>, values: Column<Int64>) {
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
    public func value(row: Int, dayOffset: Int) -> Int64 {
        values[run(row: row, dayOffset: dayOffset)]
    }

    /// The total number of runs.
    public var runCount: Int { starts.count }
}
