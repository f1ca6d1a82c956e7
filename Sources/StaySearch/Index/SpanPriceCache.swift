/// The span prices (``SpanPrices``) an index last worked out, shared by every copy of the index and every
/// thread searching it: the last of every row, and the last of a few rows (a region's calendar on a span
/// not worked out for every row costs its own rows only, not the whole index).
final class SpanPriceCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var latest: SpanPrices?
    private var latestPart: SpanPrices?

    /// The share of the rows below which a calendar's rows are worked out alone rather than every row.
    static let partShare = 4

    /// The prices over `start ..< end` for stays of `nights` nights in units of 10^`scale` minor units of at
    /// least the rows of `rows` (of `rowCount`), from the cache or made by `make` — of every row (nil), or of those rows when they are
    /// under a quarter of them — and kept, replacing the last of their kind.
    func prices(from start: Int, to end: Int, nights: Int, scale: UInt8, rows: [Range<Int>], rowCount: Int,
                make: ([Range<Int>]?) -> SpanPrices) -> SpanPrices {
        func found(_ prices: SpanPrices?) -> SpanPrices? {
            guard let prices, prices.start == start, prices.end == end, prices.stayNights == nights, prices.scale == scale,
                  prices.covers(rows) else { return nil }
            return prices
        }
        if let cached = lock.reading({ found(latest) ?? found(latestPart) }) { return cached }
        return lock.writing {
            if let cached = found(latest) ?? found(latestPart) { return cached }
            let wanted = rows.reduce(0) { $0 + $1.count }
            if wanted * SpanPriceCache.partShare < rowCount {
                let prices = make(rows)
                latestPart = prices
                return prices
            }
            let prices = make(nil)
            latest = prices
            return prices
        }
    }

    /// Row `row` has nights that became bookable: the span prices kept widen its stay bounds back (see
    /// ``SpanPrices/restoreStayBounds(ofRow:)``). Called with no calendar reading them.
    func availabilityOpened(row: Int) {
        lock.writing {
            latest?.restoreStayBounds(ofRow: row)
            latestPart?.restoreStayBounds(ofRow: row)
        }
    }
}
