/// The prices a search without dates uses, as of one day of an index's calendar: each listing's own
/// price, else its first priced night on or after that day (docs/query-semantics.md); and which rows
/// have one.
///
/// An index stores them as of its first day (``IndexStorage/basePrices``). Once the window has rolled
/// past that day, a listing without a price of its own is priced from today's nights, as an index made
/// fresh today prices it: ``ListingIndex/undatedPrices(from:)`` works them out once per day and keeps them.
package struct UndatedPrices: Sendable {
    /// The day offset these prices are taken from.
    package let dayOffset: Int
    /// Each row's price without dates (minor units, ``ListingIndex/noPrice`` for none).
    package let prices: Column<Int32>
    /// One bit per row: whether it has a price without dates.
    package let priced: Column<UInt64>

    /// The stored prices of `index` (as of its first day).
    init(storedIn index: ListingIndex) {
        dayOffset = 0
        prices = index.storage.basePrices
        priced = index.storage.pricedWithoutDates
    }

    /// The prices of `index` as of day offset `dayOffset` (> 0): the stored ones, with each listing
    /// without a price of its own priced by its first priced night from that day.
    /// - Complexity: O(*rows*) plus, for each row without a price of its own, O(*r* + days searched).
    init(of index: ListingIndex, from dayOffset: Int) {
        self.dayOffset = dayOffset
        var prices = index.storage.basePrices.array
        var priced = index.storage.pricedWithoutDates.array
        let listingPrices = index.storage.listingPrices
        for row in 0..<index.count where listingPrices[row] == ListingIndex.noPrice {
            let price = index.firstPricedNight(ofRow: row, from: dayOffset)
            prices[row] = price
            let bit = UInt64(1) << UInt64(row & 63)
            if price >= 0 { priced[row >> 6] |= bit } else { priced[row >> 6] &= ~bit }
        }
        self.prices = Column(prices)
        self.priced = Column(priced)
    }
}

/// The undated prices an index last worked out for a day after its first (``UndatedPrices``), shared by
/// every copy of the index and every thread searching it.
final class UndatedPriceCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var latest: UndatedPrices?

    /// The prices as of `dayOffset`, from the cache or made by `make` (and kept, replacing the day before's).
    func prices(from dayOffset: Int, make: () -> UndatedPrices) -> UndatedPrices {
        if let latest = lock.reading({ latest }), latest.dayOffset == dayOffset { return latest }
        return lock.writing {
            if let latest, latest.dayOffset == dayOffset { return latest }
            let prices = make()
            latest = prices
            return prices
        }
    }
}
