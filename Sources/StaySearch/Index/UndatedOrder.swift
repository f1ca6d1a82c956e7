/// Every row with a price without dates, in the order a search without dates lists them by price: price
/// ascending, then listing id ascending (then row, should two rows share an id).
///
/// A search without dates, region or filter beyond the guests and the room type depends on nothing but
/// these prices, so its answer can be read off this order (``UndatedPopulation``) instead of scanning
/// every row. It is worked out once per day of prices (``UndatedPrices/dayOffset``) and kept by the
/// index (``ListingIndex/undatedPopulation(guests:roomCode:prices:ahead:)``).
struct UndatedOrder: Sendable {
    /// The day offset of the prices it follows.
    let dayOffset: Int
    /// The priced rows in order.
    let rows: [Int32]

    /// The order of `index`'s rows by `prices`.
    /// - Complexity: O(*n* log *n*) for *n* priced rows: one sort by id, one of 64-bit keys (price, id's rank).
    init(of index: ListingIndex, prices: UndatedPrices) {
        dayOffset = prices.dayOffset
        var byID: [(id: Int64, row: Int32)] = []
        byID.reserveCapacity(index.count)
        index.storage.ids.withUnsafeBufferPointer { ids in
            prices.priced.withUnsafeBufferPointer { priced in
                for row in 0..<index.count where priced[row >> 6] >> UInt64(row & 63) & 1 == 1 {
                    byID.append((ids[row], Int32(truncatingIfNeeded: row)))
                }
            }
        }
        byID.sort { $0.id != $1.id ? $0.id < $1.id : $0.row < $1.row }
        // A priced row's stored price is at least 0, and orders as its amount does (wide prices' references are in
        // the order of their amounts, ``WidePrices``): as 32 unsigned bits above the id's rank it orders the keys.
        var keys = [UInt64](repeating: 0, count: byID.count)
        prices.prices.withUnsafeBufferPointer { values in
            for (rank, entry) in byID.enumerated() {
                keys[rank] = UInt64(UInt32(bitPattern: values[Int(entry.row)])) << 32 | UInt64(rank)
            }
        }
        keys.sort()
        rows = keys.map { byID[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)].row }
    }
}
