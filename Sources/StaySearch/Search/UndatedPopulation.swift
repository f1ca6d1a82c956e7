/// The rows a search without dates and without filters beyond region, guests and room type counts in its
/// histogram (every filter but the price range), in ``UndatedOrder``: with their prices, ascending, beside them.
///
/// Such a search is then answered by binary searches over ``values``: the histogram's bins, quartiles and
/// percentile by rank and boundary, the count within the price range, and the page from where the range
/// starts (``ListingIndex/undatedResult(of:population:)``).
struct UndatedPopulation: Sendable {
    /// The guests the rows take (``SearchQuery/guests``).
    let guests: Int
    /// The room type code they have, -1 for any (as ``ScanPlan/roomCode``).
    let roomCode: Int
    /// The region's row ranges (as ``ScanPlan/ranges``; every row's for none).
    let ranges: [Range<Int>]
    /// Whether ``ranges`` are every row of the index (no region).
    let coversEveryRow: Bool
    /// The day offset of the prices.
    let dayOffset: Int
    /// The rows, in order.
    let rows: [Int32]
    /// Their prices without dates (minor units), ascending.
    let values: [Int32]
    /// The sum of ``values``.
    let sum: Int64

    /// What tells this population from others: its day offset, guests, room code and row ranges.
    var key: [Int] { UndatedPopulation.key(dayOffset: dayOffset, guests: guests, roomCode: roomCode, ranges: ranges) }

    /// The ``key`` of the population of `guests`, `roomCode` and `ranges` on day offset `dayOffset`.
    static func key(dayOffset: Int, guests: Int, roomCode: Int, ranges: [Range<Int>]) -> [Int] {
        [dayOffset, guests, roomCode] + ranges.flatMap { [$0.lowerBound, $0.upperBound] }
    }

    /// The rows of `order` in `ranges` that take `guests` and, unless `roomCode` is -1, have that room type.
    /// - Complexity: O(*n*) for the *n* rows of `order`.
    init(of order: UndatedOrder, in index: ListingIndex, prices: UndatedPrices, guests: Int, roomCode: Int, ranges: [Range<Int>]) {
        self.guests = guests
        self.roomCode = roomCode
        self.ranges = ranges
        dayOffset = order.dayOffset
        coversEveryRow = ranges == [0..<index.count]
        let members = coversEveryRow ? nil : UndatedPopulation.members(of: ranges, rowCount: index.count)
        var rows: [Int32] = [], values: [Int32] = []
        var sum: Int64 = 0
        // Capacities are kept up to 255; room code 256 is a standard type the index has none of.
        if guests <= Int(UInt8.max), roomCode <= Int(UInt8.max) {
            let expected = members == nil ? order.rows.count : ranges.reduce(0) { $0 + $1.count }
            rows.reserveCapacity(expected)
            values.reserveCapacity(expected)
            let everyRow = [UInt64](repeating: ~0, count: 1)
            index.storage.accommodates.withUnsafeBufferPointer { accommodates in
                index.storage.roomTypes.withUnsafeBufferPointer { roomTypes in
                    prices.prices.withUnsafeBufferPointer { prices in
                        (members ?? everyRow).withUnsafeBufferPointer { bits in
                            // Every row a member: the one word of ones, read at word 0 for every row.
                            let wordMask = members == nil ? 0 : Int.max
                            for row in order.rows {
                                let r = Int(row)
                                guard bits[(r >> 6) & wordMask] >> UInt64(r & 63) & 1 == 1, Int(accommodates[r]) >= guests,
                                      roomCode < 0 || Int(roomTypes[r]) == roomCode else { continue }
                                rows.append(row)
                                values.append(prices[r])
                                sum += Int64(prices[r])
                            }
                        }
                    }
                }
            }
        }
        self.rows = rows
        self.values = values
        self.sum = sum
    }

    /// One bit a row of `rowCount`, set for the rows in `ranges`.
    static func members(of ranges: [Range<Int>], rowCount: Int) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (rowCount + 63) >> 6)
        for range in ranges {
            for row in range { bits[row >> 6] |= 1 << UInt64(row & 63) }
        }
        return bits
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
