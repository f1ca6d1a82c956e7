/// Every listing's nightly price on every day of the calendar, stored the cheaper of two ways per row:
/// as runs (``DayRuns``, for calendars that keep a price for weeks, the common case in Inside Airbnb's
/// samples), or densely, one `UInt16` of whole units a day, for calendars whose price changes most days
/// (professional hosts' pricing tools). A dense row has a single run whose value refers to its rank among
/// the dense rows.
///
/// Dense values are day-major: day *d* of dense row *k* is `dense[d × denseRows + k]`. The scan visits
/// candidates in row order, so the nights of a stay are read as a few sequential streams, not one cache
/// miss per candidate.
///
/// Stored values: price in minor units, ``ListingIndex/unpricedNight`` or ``ListingIndex/noCalendarRow``.
package struct NightPrices: Sendable {
    /// The runs of every row; a dense row's one run refers to its dense values.
    package let runs: DayRuns<Int32>
    /// `dayCount × denseRows` values, day-major, in whole units, or ``unpricedCode`` / ``noRowCode``.
    package let dense: Column<UInt16>
    /// How many rows are dense: the stride of ``dense``.
    package let denseRows: Int

    /// The dense code of an unpriced night.
    package static let unpricedCode: UInt16 = 0xFFFE
    /// The dense code of a day without a calendar row.
    package static let noRowCode: UInt16 = 0xFFFF
    /// The highest price a dense row can hold, in whole units.
    package static let largestDenseUnits = 0xFFFD

    /// Wraps the columns; the caller has checked them (``IndexStorage/checkInvariants(shape:)``).
    package init(runs: DayRuns<Int32>, dense: Column<UInt16>, dayCount: Int) {
        self.runs = runs
        self.dense = dense
        denseRows = dayCount == 0 ? 0 : dense.count / dayCount
    }

    /// The value of row `row` on day offset `dayOffset`.
    /// - Complexity: O(log *r*) for *r* runs of the row.
    package func value(row: Int, dayOffset: Int) -> Int32 {
        let first = Int(runs.offsets[row])
        if let rank = runs.values[first].denseIndex {
            return NightPrices.decode(dense[dayOffset * denseRows + rank])
        }
        return runs.value(row: row, dayOffset: dayOffset)
    }

    /// Row `row`'s values on the day offsets `start ..< end`, written to `buffer` (from its start): the
    /// nights of a range of stays, read once.
    /// - Complexity: O(*end* − *start* + log *r*).
    package func values(row: Int, from start: Int, to end: Int, into buffer: UnsafeMutablePointer<Int32>) {
        let first = Int(runs.offsets[row]), last = Int(runs.offsets[row + 1])
        if let rank = runs.values[first].denseIndex {
            let dense = self.dense.base
            for day in start..<end { buffer[day - start] = NightPrices.decode(dense[day * denseRows + rank]) }
            return
        }
        var run = runs.run(row: row, dayOffset: start)
        var day = start
        while day < end {
            let stop = run + 1 < last ? min(Int(runs.starts[run + 1]), end) : end
            let value = runs.values[run]
            if let pattern = value.patternIndex {
                // The week's prices from the first night's weekday on, without a division a night.
                let week = runs.patterns.base + pattern * 7
                var weekday = (runs.firstWeekday + day) % 7
                for night in day..<stop {
                    buffer[night - start] = week[weekday]
                    weekday = weekday == 6 ? 0 : weekday + 1
                }
            } else {
                for night in day..<stop { buffer[night - start] = value }
            }
            day = stop
            run += 1
        }
    }

    /// Row `row`'s values on every day offset `0 ..< dayCount`.
    package func values(row: Int, dayCount: Int) -> [Int32] {
        if let rank = runs.values[Int(runs.offsets[row])].denseIndex {
            return (0..<dayCount).map { NightPrices.decode(dense[$0 * denseRows + rank]) }
        }
        return runs.values(row: row, dayCount: dayCount)
    }

    /// The sum of row `row`'s prices over the day offsets `start ..< end`, valid when every night in it
    /// is priced.
    /// - Complexity: O(*k*) for *k* nights when the row is dense, else O(log *r* + *k*) for *r* runs.
    @inline(__always)
    package func sum(row: Int, from start: Int, to end: Int) -> Int64 {
        let first = Int(runs.offsets[row])
        guard let rank = runs.values[first].denseIndex else {
            return runs.sum(row: row, from: start, to: end)
        }
        // Read through the column's pointer: the caller's index keeps it alive (a closure here cost a
        // retain and a release per call).
        let dense = self.dense.base
        var units: Int64 = 0
        var position = start &* denseRows &+ rank
        for _ in start..<end {
            units &+= Int64(dense[position])
            position &+= denseRows
        }
        return units &* 100
    }

    /// A stored value from a dense code.
    static func decode(_ code: UInt16) -> Int32 {
        switch code {
        case noRowCode: return ListingIndex.noCalendarRow
        case unpricedCode: return ListingIndex.unpricedNight
        default: return Int32(code) * 100
        }
    }

    /// The dense codes of a row's values by day, or nil when a price is not whole units or is too high.
    static func denseCodes(of days: [Int32]) -> [UInt16]? {
        var codes: [UInt16] = []
        codes.reserveCapacity(days.count)
        for value in days {
            switch value {
            case ListingIndex.noCalendarRow: codes.append(noRowCode)
            case ListingIndex.unpricedNight: codes.append(unpricedCode)
            default:
                guard value >= 0, value % 100 == 0, Int(value / 100) <= largestDenseUnits else { return nil }
                codes.append(UInt16(value / 100))
            }
        }
        return codes
    }
}

extension Int32 {
    /// Price run values below this refer to dense rows: `Int32.min + k` is dense row *k*.
    static let denseReferenceLimit = -(Int32(1) << 30)

    /// The value that refers to dense row `index`.
    static func denseReference(_ index: Int) -> Int32 { Int32.min + Int32(index) }

    /// The dense row this value refers to, if it is such a reference.
    var denseIndex: Int? { self < Int32.denseReferenceLimit ? Int(self) - Int(Int32.min) : nil }
}
