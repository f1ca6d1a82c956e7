/// The prices and availability of runs that change from night to night, one value a night, while
/// ``IndexBuilder`` collects one listing's nights and while it builds one row: a price of whole units is
/// a 16-bit code, availability one bit a night, and the rare price a code cannot hold (cents, or above
/// 65,532 units, as a night in won or yen) goes to a side column, one value a night once the listing has
/// one. (Nights kept until the build are sealed: see ``CalendarFragments``.)
package struct NightValues {
    /// Whole units, or ``unpriced``, or ``elsewhere`` (then the price is in `exactPrices`).
    private(set) var codes: [UInt16] = []
    /// Bit *n* is set when night *n* is available.
    private(set) var availability: [UInt64] = []
    /// Empty until a night's price is one a code cannot hold; then every night's exact price (0 where the
    /// code holds it).
    private(set) var exactPrices: [Int32] = []
    /// Whether ``exactPrices`` holds a value for every night.
    private var keepsExactPrices = false

    static let unpriced: UInt16 = .max
    static let elsewhere: UInt16 = .max - 1

    /// Values of no night yet.
    package init() {}

    /// The number of nights held.
    package var count: Int { codes.count }

    /// Night `position`'s price in minor units (clamped as the index stores them), or -1.
    package func price(at position: Int) -> Int32 {
        let code = codes[position]
        if code == Self.unpriced { return -1 }
        if code == Self.elsewhere { return exactPrices[position] }
        return Int32(code) * 100
    }

    /// Whether night `position` is available.
    package func isAvailable(at position: Int) -> Bool {
        availability[position >> 6] >> UInt64(position & 63) & 1 == 1
    }

    /// Appends one night.
    @inline(__always)
    package mutating func append(price: Int32, isAvailable available: Bool) {
        if price >= 0, price % 100 == 0, price < Int32(Self.elsewhere) * 100 {
            append(code: UInt16(truncatingIfNeeded: price / 100), isAvailable: available)
        } else {
            append(price: price, isAvailable: available, count: 1)
        }
    }

    /// Appends one night by its code; a code of ``elsewhere`` takes its price from `exactPrice`.
    @inline(__always)
    mutating func append(code: UInt16, isAvailable available: Bool, exactPrice: Int32 = 0) {
        let position = codes.count
        if code == Self.elsewhere, !keepsExactPrices { keepExactPrices() }
        if keepsExactPrices { exactPrices.append(exactPrice) }
        codes.append(code)
        let bit = UInt64(available ? 1 : 0) << UInt64(position & 63)
        if position & 63 == 0 {
            availability.append(bit)
        } else {
            availability[position >> 6] |= bit
        }
    }

    /// Appends `count` nights of one price and availability.
    package mutating func append(price: Int32, isAvailable available: Bool, count: Int) {
        let code: UInt16
        if price < 0 {
            code = Self.unpriced
        } else if price % 100 == 0, price / 100 < Int32(Self.elsewhere) {
            code = UInt16(price / 100)
        } else {
            code = Self.elsewhere
        }
        if code == Self.elsewhere, !keepsExactPrices { keepExactPrices() }
        if keepsExactPrices { exactPrices.append(contentsOf: repeatElement(code == Self.elsewhere ? price : 0, count: count)) }
        for _ in 0..<count {
            let position = codes.count
            codes.append(code)
            if position & 63 == 0 { availability.append(0) }
            if available { availability[position >> 6] |= 1 << UInt64(position & 63) }
        }
    }

    /// Empties the values, keeping their storage for the next listing's.
    package mutating func removeAll() {
        codes.removeAll(keepingCapacity: true)
        availability.removeAll(keepingCapacity: true)
        exactPrices.removeAll(keepingCapacity: true)
        keepsExactPrices = false
    }

    /// Starts keeping every night's exact price: 0 for the nights held so far (their codes hold them).
    private mutating func keepExactPrices() {
        exactPrices.removeAll(keepingCapacity: true)
        exactPrices.append(contentsOf: repeatElement(0, count: codes.count))
        keepsExactPrices = true
    }
}
