/// The span prices (``SpanPrices``) an index last worked out, shared by every copy of the index and every
/// thread searching it.
final class SpanPriceCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var latest: SpanPrices?

    /// The prices over `start ..< end`, from the cache or made by `make` (and kept, replacing the last).
    func prices(from start: Int, to end: Int, make: () -> SpanPrices) -> SpanPrices {
        if let latest = lock.reading({ latest }), latest.start == start, latest.end == end { return latest }
        return lock.writing {
            if let latest, latest.start == start, latest.end == end { return latest }
            let prices = make()
            latest = prices
            return prices
        }
    }
}
