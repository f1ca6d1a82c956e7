/// The price slot counts of one query's scan (``PriceSlots``): a table per part, from the scratch pool.
///
/// Taken for a query on exact dates or none over many rows, where reading the values again for the histogram
/// costs more than counting them as they are written; given back when the query is answered. Parts
/// scanned at once each write their own table only.
struct PriceSlotTables: @unchecked Sendable {
    let slots: PriceSlots
    /// `parts` tables of ``PriceSlots/count`` counts, zeroed.
    private let buffer: UnsafeMutableBufferPointer<Int32>
    let parts: Int

    /// The fewest rows a scan counts price slots for: below it, zeroing the tables (a quarter of a
    /// megabyte each at 30 bins) costs more than a second pass over the values.
    static let minimumRows = 65_536

    /// Zeroed tables for `parts` parts of a scan of `rows` rows for `query`, or nil when the query is
    /// not one whose histogram the slots serve (flexible dates, more than ``PriceSlots/largestBins``
    /// bins) or the rows are fewer than `minimumRows`.
    init?(query: SearchQuery, rows: Int, parts: Int, minimumRows: Int = PriceSlotTables.minimumRows) {
        guard rows >= minimumRows, rows > 0, !query.isFlexible,
              let slots = PriceSlots(nights: Int64(query.nights ?? 1), bins: query.bins) else { return nil }
        self.slots = slots
        self.parts = parts
        // At least what the pool keeps between queries (a fresh allocation would fault in every page).
        let count = parts * slots.count
        buffer = ScratchPool.shared.take(Int32.self, count: max(count, ScratchPool.smallestPooledBytes / MemoryLayout<Int32>.stride))
        UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).initialize(repeating: 0)
    }

    /// The table of part `part`.
    func table(_ part: Int) -> UnsafeMutablePointer<Int32> {
        buffer.baseAddress! + part * slots.count
    }

    /// Returns the tables to the pool; they must not be used after.
    func giveBack() {
        ScratchPool.shared.giveBack(buffer)
    }
}
