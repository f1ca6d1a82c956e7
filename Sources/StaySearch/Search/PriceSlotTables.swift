/// What one query's scan needs to count its values into price slots (``PriceSlots``) instead of keeping
/// them: per part, a table of slot counts and room for one block's values, and by granule room for the values
/// between granules. From the scratch pool.
///
/// Taken for a query on exact dates or none over many rows, where writing every value to memory and
/// reading it again for the histogram costs more than counting the values while they are in cache;
/// given back when the query is answered. Parts scanned at once each write their own table and block
/// only.
struct PriceSlotTables: @unchecked Sendable {
    let slots: PriceSlots
    let parts: Int
    /// How many values between granules each part keeps (``betweenValues(_:)``): one in 16 of its share of the
    /// rows, as many as the prices off the granule an index may have (``ListingIndex/calendarScale``); 0 in
    /// slots by whole units.
    let betweenCapacity: Int
    /// `parts` blocks of ``blockCapacity`` values, `parts` rooms of ``betweenCapacity`` values, then `parts`
    /// tables of ``PriceSlots/count`` counts, each zeroed by its part's scan (``zeroedTable(_:)``), on the part's
    /// own thread: a fortnight in won's tables are a megabyte.
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
        betweenCapacity = slots.byGranule ? rows / parts / 16 + 64 : 0
        let blockCount = parts * (PriceSlotTables.blockCapacity + betweenCapacity), countCount = parts * slots.count
        buffer = ScratchPool.shared.take(Int64.self, count: max(blockCount + (countCount + 1) / 2,
                                                                ScratchPool.smallestPooledBytes / MemoryLayout<Int64>.stride))
        tables = UnsafeMutableRawPointer(buffer.baseAddress! + blockCount).bindMemory(to: Int32.self, capacity: countCount)
    }

    /// Room for the values between granules of part `part` (its table's ``PriceSlots/betweenSlot`` counts them,
    /// and those past the room are not kept); nil in slots by whole units.
    func betweenValues(_ part: Int) -> UnsafeMutableBufferPointer<Int64>? {
        guard betweenCapacity > 0 else { return nil }
        return UnsafeMutableBufferPointer(start: buffer.baseAddress! + parts * PriceSlotTables.blockCapacity + part * betweenCapacity,
                                          count: betweenCapacity)
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
