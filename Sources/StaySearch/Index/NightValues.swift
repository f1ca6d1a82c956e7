/// The prices and availability of runs that change from night to night, one value a night.
struct NightValues {
    /// Minor units, clamped as the index stores them, or -1.
    var prices: [Int32] = []
    var isAvailable: [Bool] = []

    /// The number of nights held.
    var count: Int { prices.count }

    mutating func reserveCapacity(_ count: Int) {
        prices.reserveCapacity(count)
        isAvailable.reserveCapacity(count)
    }

    mutating func append(price: Int32, isAvailable available: Bool, count: Int = 1) {
        prices.append(contentsOf: repeatElement(price, count: count))
        isAvailable.append(contentsOf: repeatElement(available, count: count))
    }

    mutating func append(_ other: NightValues) {
        prices.append(contentsOf: other.prices)
        isAvailable.append(contentsOf: other.isAvailable)
    }
}
