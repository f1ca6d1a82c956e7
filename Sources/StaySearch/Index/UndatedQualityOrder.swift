/// Every row by the quality part of the `recommended` score, highest first, with what a search without
/// dates tests of it side by side (its price without dates as of one day, capacity and room type): the
/// `recommended` page of such a search reads these in order, a few cache lines for many rows, instead of
/// gathering each row's columns.
struct UndatedQualityOrder: Sendable {
    /// The day offset of the prices.
    let dayOffset: Int
    /// The rows, highest quality first.
    let rows: [Int32]
    /// Their qualities (thousandths of a point).
    let qualities: [Int32]
    /// Their prices without dates (minor units), -1 for none.
    let values: [Int64]
    /// Their capacities and room type codes.
    let accommodates: [UInt8]
    let roomTypes: [UInt8]

    /// The rows of `index` by `qualities` (one a row), with `prices`.
    /// - Complexity: O(*n* log *n*) for *n* rows.
    init(of index: ListingIndex, qualities rowQualities: [Int32], prices: UndatedPrices) {
        dayOffset = prices.dayOffset
        // A quality is at least 0: its distance below 2^31 − 1 above the row orders the keys.
        var keys = rowQualities.enumerated().map { row, quality in UInt64(UInt32(Int32.max - quality)) << 32 | UInt64(row) }
        keys.sort()
        let rows = keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        self.rows = rows
        qualities = rows.map { rowQualities[Int($0)] }
        values = prices.prices.withUnsafeBufferPointer { values -> [Int64] in
            prices.priced.withUnsafeBufferPointer { priced -> [Int64] in
                rows.map { row -> Int64 in
                    let r = Int(row)
                    let isPriced = priced[r >> 6] >> UInt64(r & 63) & 1 == 1
                    return isPriced ? index.nightPrices.amount(ofStored: values[r]) : -1
                }
            }
        }
        accommodates = index.storage.accommodates.withUnsafeBufferPointer { column in rows.map { column[Int($0)] } }
        roomTypes = index.storage.roomTypes.withUnsafeBufferPointer { column in rows.map { column[Int($0)] } }
    }
}
