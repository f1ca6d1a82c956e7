import StaySearchAPI
import StaySearch

/// The index a searching command reads: a frozen index, or, after a journal with listing changes, the live
/// index that answers through its overlay, so that a search need not build the whole index again.
final class SearchableIndex {
    private let frozen: ListingIndex?
    private let live: LiveIndex?
    private var rebuilt: ListingIndex?
    /// Today and the days the data covers: each query is prepared by it (``StayClock/prepared(_:)``).
    var clock: StayClock?
    /// The platform's service fee, set on each query.
    var platform = PlatformFees()

    init(frozen: ListingIndex) {
        self.frozen = frozen
        live = nil
    }

    init(live: LiveIndex) {
        frozen = nil
        self.live = live
    }

    /// Runs a query, prepared by ``clock``.
    func search(_ query: SearchQuery, threads: Int) throws(QueryError) -> SearchResult {
        var query = try clock?.prepared(query) ?? query
        query.serviceFeeBasisPoints = platform.serviceFeeBasisPoints
        if let frozen { return try frozen.search(query, threads: threads) }
        return try live!.search(query, threads: threads)
    }

    /// Works out ahead what the `recommended` order reads of every row, as `serve` does when it loads.
    func prepareRecommendedOrder() {
        if let frozen {
            frozen.prepareRecommendedOrder()
        } else {
            live!.prepareRecommendedOrder()
        }
    }

    /// Works out ahead the order of the prices without dates for those of `queries` it answers (today set by
    /// ``clock``): searches without a region, dates or filters beyond guests and room type.
    func prepareUndatedOrder(for queries: [SearchQuery]) {
        let prepared = queries.map { (try? clock?.prepared($0)) ?? $0 }
        if let frozen {
            frozen.prepareUndatedOrder(for: prepared)
        } else {
            live!.prepareUndatedOrder(for: prepared)
        }
    }

    /// The price calendar of a query (today set by ``clock``, with the platform's service fee).
    func priceCalendar(_ query: SearchQuery, threads: Int) throws(QueryError) -> PriceCalendar {
        var query = query
        if let clock { query.today = clock.today }
        query.serviceFeeBasisPoints = platform.serviceFeeBasisPoints
        if let frozen {
            // Days a rolling window adds past the saved calendars are covered (without calendar rows).
            return try frozen.priceCalendar(query, threads: threads, coveredDays: max(frozen.dayCount, clock?.dayCount ?? 0), live: nil)
        }
        return try live!.priceCalendar(query, threads: threads)
    }

    /// The days the calendars cover.
    var calendarSpan: (first: Day, dayCount: Int) {
        if let frozen { return (frozen.firstDay, frozen.dayCount) }
        return live!.calendarSpan
    }

    /// The days of the window that rolls from today: as many as the saved index's own calendars.
    var windowDays: Int {
        if let frozen { return frozen.dayCount }
        return live!.calendarSpan.first.distance(to: live!.frozenCalendarEnd)
    }

    /// The whole index, for what only a frozen index offers (maps, chart titles): after listing changes, built
    /// again once.
    var index: ListingIndex {
        if let frozen { return frozen }
        if let rebuilt { return rebuilt }
        let whole = live!.withIndex { $0 }
        rebuilt = whole
        return whole
    }
}
