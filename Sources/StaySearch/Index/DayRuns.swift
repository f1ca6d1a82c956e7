/// Per-row values that change by day, stored as runs: for each row, the day offsets where a new
/// value starts and that value. Real calendars hold long runs of one price or one stay rule, so a
/// year of them usually costs one or two runs.
///
/// A run's value may instead refer to a weekly pattern (seven values, Monday first) in a shared
/// table: a weekend price or a weekend minimum stay is then one run for the whole season, not two
/// runs a week.
///
/// Each row's first run starts at day offset 0; its last run lasts to the end of the calendar.
package struct DayRuns<Value: RunValue>: Sendable {
    /// `rows + 1` offsets: row *r*'s runs are `offsets[r] ..< offsets[r + 1]`.
    package let offsets: Column<UInt32>
    /// The day offset where each run starts.
    package let starts: Column<Int32>
    /// The value of each run, or a reference to a weekly pattern.
    package let values: Column<Value>
    /// Weekly patterns, seven values each, Monday first.
    package let patterns: Column<Value>
    /// The weekday of day offset 0, 0 = Monday.
    package let firstWeekday: Int

    /// Wraps run columns; the caller has checked that they are consistent.
    package init(offsets: Column<UInt32>, starts: Column<Int32>, values: Column<Value>, patterns: Column<Value>, firstWeekday: Int) {
        self.offsets = offsets
        self.starts = starts
        self.values = values
        self.patterns = patterns
        self.firstWeekday = firstWeekday
    }

    /// The runs a row has at least before a lookup of the run holding a day first tries the run as many
    /// places on as the day is days on (the run of that day in a row whose price changes every day).
    package static var guessedRuns: Int { 16 }

    /// The position of the run of row `row` that holds `dayOffset`.
    /// - Complexity: O(log *r*) for *r* runs of the row; O(1) when its runs are days.
    @inlinable
    package func run(row: Int, dayOffset: Int) -> Int {
        var low = Int(offsets[row])
        var high = Int(offsets[row + 1])      // the answer is in low ..< high
        let target = Int32(truncatingIfNeeded: dayOffset)
        if high - low > DayRuns.guessedRuns {
            // Runs start on strictly later days: the run k places on starts k days on at the earliest.
            let guess = low + max(0, dayOffset - Int(starts[low]))
            if guess < high {
                if starts[guess] == target { return guess }
                high = guess
            }
        }
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= target { low = middle } else { high = middle }
        }
        return low
    }

    /// The value of row `row` on day offset `dayOffset`.
    @inlinable
    package func value(row: Int, dayOffset: Int) -> Value {
        let value = values[run(row: row, dayOffset: dayOffset)]
        guard let pattern = value.patternIndex else { return value }
        return patterns[pattern * 7 + (firstWeekday + dayOffset) % 7]
    }

    /// Row `row`'s values on every day offset `0 ..< dayCount`, its runs walked once.
    /// - Complexity: O(*dayCount* + *r*).
    package func values(row: Int, dayCount: Int) -> [Value] {
        let first = Int(offsets[row]), last = Int(offsets[row + 1])
        return [Value](unsafeUninitializedCapacity: dayCount) { buffer, initialized in
            for run in first..<last {
                let start = max(0, Int(starts[run]))
                let end = run + 1 < last ? min(dayCount, Int(starts[run + 1])) : dayCount
                guard start < end else { continue }
                let value = values[run]
                if let pattern = value.patternIndex {
                    for day in start..<end { buffer[day] = patterns[pattern * 7 + (firstWeekday + day) % 7] }
                } else {
                    for day in start..<end { buffer[day] = value }
                }
            }
            initialized = dayCount
        }
    }

    /// The total number of runs.
    package var runCount: Int { starts.count }
}

extension DayRuns where Value == Int32 {
    /// The sum of row `row`'s prices over the day offsets `start ..< end`, in minor units: a value from
    /// ``WidePrices/firstReference`` on stands for its amount in `wide` (``WidePrices``).
    /// - Complexity: O(log *r* + *k*) for *r* runs of the row, *k* of them overlapping the days.
    @inlinable
    package func sum(row: Int, from start: Int, to end: Int, wide: UnsafePointer<Int64>?) -> Int64 {
        var run = self.run(row: row, dayOffset: start)
        let last = Int(offsets[row + 1])
        var total: Int64 = 0
        var day = start
        while day < end {
            let stop = run + 1 < last ? min(Int(starts[run + 1]), end) : end
            let value = values[run]
            if let pattern = value.patternIndex {
                total += weeklySum(pattern: pattern, from: day, count: stop - day)
            } else {
                total += WidePrices.amount(ofStored: value, in: wide) * Int64(stop - day)
            }
            day = stop
            run += 1
        }
        return total
    }

    @usableFromInline
    func weeklySum(pattern: Int, from day: Int, count: Int) -> Int64 {
        let base = pattern * 7
        var week: Int64 = 0
        for slot in 0..<7 { week += Int64(patterns[base + slot]) }
        var total = week * Int64(count / 7)
        var weekday = (firstWeekday + day) % 7
        for _ in 0..<(count % 7) {
            total += Int64(patterns[base + weekday])
            weekday = weekday == 6 ? 0 : weekday + 1
        }
        return total
    }
}

/// A value that runs can hold, with room to mark a reference to a weekly pattern.
package protocol RunValue: BitwiseCopyable, Hashable, Sendable {
    /// The value that refers to weekly pattern `index`.
    static func patternReference(_ index: Int) -> Self
    /// The pattern this value refers to, if it is a reference.
    var patternIndex: Int? { get }
}

extension Int32: RunValue {
    /// Prices are ≥ 0, -1 (unpriced) or -2 (no calendar row); -3 down to -2³⁰ refer to weekly patterns
    /// (below that, to dense rows: see ``NightPrices``).
    @inlinable
    package static func patternReference(_ index: Int) -> Int32 { -3 - Int32(index) }

    @inlinable
    package var patternIndex: Int? { self <= -3 && self >= -(Int32(1) << 30) ? Int(-3 - self) : nil }
}

extension UInt32: RunValue {
    /// Packed stay rules leave the top bit clear; with it set, the low bits are a pattern index.
    @inlinable
    package static func patternReference(_ index: Int) -> UInt32 { 0x8000_0000 | UInt32(index) }

    @inlinable
    package var patternIndex: Int? { self & 0x8000_0000 != 0 ? Int(self & 0x7FFF_FFFF) : nil }
}
