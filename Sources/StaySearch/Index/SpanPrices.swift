import StaySearchKernels

/// How each row is priced over one span of nights (day offsets `start ..< end`), for the price calendar's
/// word-at-a-time totals: a price that does not change over the span (whole units, ≤ ``largestUnits``),
/// dense prices read in place, nights of several runs copied here in whole units, or none of these.
///
/// A calendar UI asks for the same month again and again; ``ListingIndex/spanPrices(from:to:)`` works the
/// column out once per span and keeps it.
package struct SpanPrices: Sendable {
    /// A dense row (whole units ≤ 65,535 day by day, read from ``NightPrices/dense``).
    static let dense: Int32 = -2
    /// A row with a price of cents or above ``largestUnits`` in the span: its stays are totalled one by one.
    static let irregular: Int32 = -3
    /// The highest price a night (whole units) totalled word by word: any stay of up to 30,000 nights
    /// stays below 2^31 units.
    static let largestUnits: Int32 = 65_535

    /// The first and past-the-last day offset of the span.
    let start: Int
    let end: Int
    /// Per row: its one price over the span in whole units, ``dense``, ``irregular``, or for a row of several
    /// runs whose nights are copied, −4 − *k*: its nights are ``nights``[*k* × span ..< (*k* + 1) × span].
    let prices: Column<Int32>
    /// The copied nights, in whole units (0 for a night without a price: it is never bookable).
    let nights: Column<Int32>
    /// Per row: its lowest and highest price a night over the span's priced nights (whole units; both 0
    /// without any), or -1 for an ``irregular`` row.
    let lows: Column<Int32>
    let highs: Column<Int32>

    /// The span prices of `index`'s rows over `start ..< end`.
    /// - Complexity: O(*rows* + *r* log *r*) for the rows of several runs, plus O(*end* − *start*) for
    ///   each row whose price changes in the span.
    init(of index: ListingIndex, from start: Int, to end: Int) {
        self.start = start
        self.end = end
        let runs = index.nightPrices.runs
        var prices = [Int32](repeating: SpanPrices.irregular, count: index.count)
        var lows = [Int32](repeating: -1, count: index.count), highs = lows
        let span = max(0, end - start)
        // Dense rows' bounds, night by night over the dense prices (read in order).
        let denseRows = index.nightPrices.denseRows, dense = index.nightPrices.dense.base
        var denseLows = [Int32](repeating: Int32.max, count: denseRows), denseHighs = [Int32](repeating: -1, count: denseRows)
        denseLows.withUnsafeMutableBufferPointer { lows in
            denseHighs.withUnsafeMutableBufferPointer { highs in
                for night in start..<max(start, end) where denseRows > 0 {
                    staysearch_narrow_bounds(dense + night &* denseRows, denseRows, NightPrices.unpricedCode, lows.baseAddress!,
                                             highs.baseAddress!)
                }
            }
        }
        var nightsOfRow = [Int32](repeating: 0, count: span)
        var copied: [Int32] = []
        for row in 0..<index.count where end > start {
            let first = Int(runs.offsets[row]), last = Int(runs.offsets[row + 1])
            let value = runs.values[first]
            if let rank = value.denseIndex {
                prices[row] = SpanPrices.dense
                (lows[row], highs[row]) = denseHighs[rank] < 0 ? (0, 0) : (denseLows[rank], denseHighs[rank])
                continue
            }
            let run = last - first == 1 ? first : runs.run(row: row, dayOffset: start)
            let runEnd = run + 1 < last ? Int(runs.starts[run + 1]) : Int.max
            let price = runs.values[run]
            if runEnd >= end, price.patternIndex == nil {
                prices[row] = SpanPrices.units(of: price) ?? SpanPrices.irregular
                if prices[row] >= 0 { (lows[row], highs[row]) = (prices[row], prices[row]) }
                continue
            }
            nightsOfRow.withUnsafeMutableBufferPointer { index.nightPrices.values(row: row, from: start, to: end, into: $0.baseAddress!) }
            guard nightsOfRow.allSatisfy({ SpanPrices.units(of: $0) != nil }) else { continue }
            prices[row] = -4 - Int32(copied.count / span)
            var low = Int32.max, high: Int32 = -1
            for price in nightsOfRow {
                let units = SpanPrices.units(of: price)!
                copied.append(units)
                if price >= 0 {
                    low = min(low, units)
                    high = max(high, units)
                }
            }
            (lows[row], highs[row]) = high < 0 ? (0, 0) : (low, high)
        }
        self.prices = Column(prices)
        self.nights = Column(copied)
        self.lows = Column(lows)
        self.highs = Column(highs)
    }

    /// `price` (minor units) in whole units when it is whole and ≤ ``largestUnits``, else nil; a night without
    /// a price counts as 0 (it is never bookable).
    static func units(of price: Int32) -> Int32? {
        if price < 0 { return 0 }
        return price % 100 == 0 && price / 100 <= largestUnits ? price / 100 : nil
    }
}
