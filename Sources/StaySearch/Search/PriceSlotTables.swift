/// What one query's scan needs to count its values into price slots (``PriceSlots``) instead of keeping
/// them: per part, a table of slot counts and room for one block's values. From the scratch pool.
///
/// Taken for a query on exact dates or none over many rows, where writing every value to memory and
/// reading it again for the histogram costs more than counting the values while they are in cache;
/// given back when the query is answered. Parts scanned at once each write their own table and block
/// only.
struct PriceSlotTables: @unchecked Sendable {
    let slots: PriceSlots
    let parts: Int
    /// `parts` blocks of ``blockCapacity`` values, then `parts` tables of ``PriceSlots/count`` counts, each zeroed
    /// by its part's scan (``zeroedTable(_:)``), on the part's own thread: a fortnight in won's tables are megabytes.
    private let buffer: UnsafeMutableBufferPointer<Int64>
    private let tables: UnsafeMutablePointer<Int32>

    /// The fewest rows a scan counts price slots for: below it, zeroing the tables (half a megabyte a
    /// part) costs more than a second pass over the values.
    static let minimumRows = 65_536

    /// The most values one block of a scan settles at once.
    static let blockCapacity = Scan.blockWords * 64

    /// Tables for `parts` parts of a scan of `rows` rows of `index` for `query`, or nil when the
    /// slots would not tell its histogram: flexible dates, more than ``PriceSlots/largestBins`` bins,
    /// an end asked for between whole units or past the slots, or prices in `index` so high (the 95th
    /// percentile of a sample of its rows' prices past half the slots' reach, as in currencies of many
    /// units to the dollar) that the default high end would be past them; or when the rows are fewer
    /// than `minimumRows`.
    ///
    /// The slots cut at whole units a night, or at the granule the index's prices share
    /// (``ListingIndex/calendarScale``, ₩100 in won) when that reaches further — but not for trip prices
    /// (fees or a service fee with dates), whose discounts and percentages leave totals between granules.
    init?(query: SearchQuery, rows: Int, parts: Int, index: ListingIndex, minimumRows: Int = PriceSlotTables.minimumRows) {
        let nights = Int64(query.nights ?? 1)
        guard rows >= minimumRows, rows > 0, !query.isFlexible,
              var slots = PriceSlots(nights: nights, bins: query.bins) else { return nil }
        let tripPrices = query.nights != nil && (!index.feeTable.isEmpty || query.serviceFeeBasisPoints > 0)
        if !tripPrices, let byGranule = PriceSlots(nights: nights, bins: query.bins, granuleScale: Int(index.calendarScale),
                                                   reach: index.sampledHighPrice * 2),
           byGranule.nightlyReach > slots.nightlyReach {
            slots = byGranule
        }
        let reach = slots.nightlyReach
        for end in [query.histogramMinimum, query.histogramMaximum] {
            if let end, end.minorUnits % 100 != 0 || end.minorUnits >= reach { return nil }
        }
        if query.histogramMaximum == nil, index.sampledHighPrice * 2 >= reach { return nil }
        self.slots = slots
        self.parts = parts
        // At least what the pool keeps between queries (a fresh allocation would fault in every page).
        let blockCount = parts * PriceSlotTables.blockCapacity, countCount = parts * slots.count
        buffer = ScratchPool.shared.take(Int64.self, count: max(blockCount + (countCount + 1) / 2,
                                                                ScratchPool.smallestPooledBytes / MemoryLayout<Int64>.stride))
        tables = UnsafeMutableRawPointer(buffer.baseAddress! + blockCount).bindMemory(to: Int32.self, capacity: countCount)
    }

    /// The slot counts of part `part`, zeroed: for the part's scan as it starts, once.
    func zeroedTable(_ part: Int) -> UnsafeMutablePointer<Int32> {
        let table = tables + part * slots.count
        table.initialize(repeating: 0, count: slots.count)
        return table
    }

    /// Room for one block's values of part `part`.
    func blockValues(_ part: Int) -> UnsafeMutablePointer<Int64> {
        buffer.baseAddress! + part * PriceSlotTables.blockCapacity
    }

    /// Returns the tables to the pool; they must not be used after.
    func giveBack() {
        ScratchPool.shared.giveBack(buffer)
    }
}
