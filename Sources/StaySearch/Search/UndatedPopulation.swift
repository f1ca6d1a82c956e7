/// The rows a search without dates, region or filter beyond guests and room type counts in its histogram
/// (every filter but the price range), in ``UndatedOrder``: with their prices, ascending, beside them.
///
/// Such a search is then answered by binary searches over ``values``: the histogram's bins, quartiles and
/// percentile by rank and boundary, the count within the price range, and the page from where the range
/// starts (``ListingIndex/undatedResult(of:population:)``).
struct UndatedPopulation: Sendable {
    /// The guests the rows take (``SearchQuery/guests``).
    let guests: Int
    /// The room type code they have, -1 for any (as ``ScanPlan/roomCode``).
    let roomCode: Int
    /// The day offset of the prices.
    let dayOffset: Int
    /// The rows, in order.
    let rows: [Int32]
    /// Their prices without dates (minor units), ascending.
    let values: [Int64]
    /// The sum of ``values``.
    let sum: Int64

    /// The rows of `order` that take `guests` and, unless `roomCode` is -1, have that room type.
    /// - Complexity: O(*n*) for the *n* rows of `order`.
    init(of order: UndatedOrder, in index: ListingIndex, prices: UndatedPrices, guests: Int, roomCode: Int) {
        self.guests = guests
        self.roomCode = roomCode
        dayOffset = order.dayOffset
        var rows: [Int32] = [], values: [Int64] = []
        var sum: Int64 = 0
        // Capacities are kept up to 255; room code 256 is a standard type the index has none of.
        if guests <= Int(UInt8.max), roomCode <= Int(UInt8.max) {
            rows.reserveCapacity(order.rows.count)
            values.reserveCapacity(order.rows.count)
            index.storage.accommodates.withUnsafeBufferPointer { accommodates in
                index.storage.roomTypes.withUnsafeBufferPointer { roomTypes in
                    prices.prices.withUnsafeBufferPointer { prices in
                        for row in order.rows {
                            let r = Int(row)
                            guard Int(accommodates[r]) >= guests, roomCode < 0 || Int(roomTypes[r]) == roomCode else { continue }
                            rows.append(row)
                            let value = index.nightPrices.amount(ofStored: prices[r])
                            values.append(value)
                            sum += value
                        }
                    }
                }
            }
        }
        self.rows = rows
        self.values = values
        self.sum = sum
    }

    /// How many of ``values`` are below `value`.
    func count(below value: Int64) -> Int {
        var low = 0, high = values.count
        values.withUnsafeBufferPointer { values in
            while low < high {
                let middle = (low + high) >> 1
                if Int64(values[middle]) < value { low = middle + 1 } else { high = middle }
            }
        }
        return low
    }

    /// How many of ``values`` are at most `value`.
    func count(atMost value: Int64) -> Int {
        value == Int64.max ? values.count : count(below: value + 1)
    }
}
