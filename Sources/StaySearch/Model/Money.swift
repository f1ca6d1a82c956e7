/// An exact amount of money in minor units (cents), never a floating-point number.
///
/// Inside Airbnb writes money as `$70.00` or `"$1,350.00"`; ``init(parsing:)`` reads both,
/// and user input such as `120` or `99.5`.
public struct Money: Hashable, Comparable, Sendable {
    /// The amount in minor units: `Money(minorUnits: 12345)` is 123.45.
    public var minorUnits: Int64

    /// Creates an amount from minor units.
    public init(minorUnits: Int64) {
        self.minorUnits = minorUnits
    }

    /// Creates an amount of whole major units.
    public init(major: Int64) {
        self.minorUnits = major * 100
    }

    /// The largest amount a price, a stay's night or a user's bound may be: 1,000,000,000.00 in any currency
    /// (a luxury villa's night in rupiah or dong). A stay of 365 such nights is 3.65 × 10^13 minor units, well
    /// inside 64 bits.
    public static let largest = Money(minorUnits: 100_000_000_000)

    /// Parses `$1,350.00`, `1350`, `99.5` or `0.99`: an optional `$`, digits with optional
    /// thousands commas, and at most two decimals. Returns `nil` for anything else, including
    /// negative amounts and amounts above ``largest``.
    @inlinable
    public init?(parsingASCII bytes: UnsafeBufferPointer<UInt8>) {
        // The shape nearly every calendar row has, `$` + up to 8 digits + `.` + 2 digits, without the
        // general loop (an import parses hundreds of millions of them).
        let count = bytes.count
        if count >= 5, count <= 12, bytes[0] == UInt8(ascii: "$"), bytes[count &- 3] == UInt8(ascii: ".") {
            var whole: Int64 = 0
            var isPlain = true
            for index in 1..<(count &- 3) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                if digit >= 10 {
                    isPlain = false
                    break
                }
                whole = whole &* 10 &+ Int64(digit)
            }
            let tens = bytes[count &- 2] &- UInt8(ascii: "0"), ones = bytes[count &- 1] &- UInt8(ascii: "0")
            if isPlain, tens < 10, ones < 10 {
                minorUnits = whole &* 100 &+ Int64(tens) &* 10 &+ Int64(ones)
                return
            }
        }
        var units: Int64 = 0
        var cents: Int64 = 0
        var decimals = -1          // -1: no '.' seen yet
        var digits = 0
        var index = bytes.startIndex
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "$") { index = bytes.index(after: index) }
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte &- UInt8(ascii: "0"))
                if decimals >= 0 {
                    guard decimals < 2 else { return nil }
                    cents = cents * 10 + digit
                    decimals += 1
                } else {
                    guard units <= 1_000_000_000 else { return nil }
                    units = units * 10 + digit
                    digits += 1
                }
            case UInt8(ascii: ","):
                guard decimals < 0, digits > 0 else { return nil }
            case UInt8(ascii: "."):
                guard decimals < 0 else { return nil }
                decimals = 0
            default:
                return nil
            }
            index = bytes.index(after: index)
        }
        guard digits > 0 || decimals > 0 else { return nil }
        if decimals == 1 { cents *= 10 }
        guard units * 100 + cents <= Money.largest.minorUnits else { return nil }
        self.minorUnits = units * 100 + cents
    }

    /// Parses text such as `$1,350.00` or `99.5`; see ``init(parsingASCII:)``.
    public init?(parsing text: String) {
        var text = text
        let parsed = text.withUTF8 { Money(parsingASCII: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.minorUnits < rhs.minorUnits }

    /// The amount as a decimal number with two decimals and no separators: `1350.00`.
    public var decimalText: String {
        let sign = minorUnits < 0 ? "-" : ""
        let magnitude = minorUnits.magnitude
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// The amount for people: `$1,350.00`, or `$1,350` with `showsCents: false` (rounded half up).
    public func formatted(showsCents: Bool = true) -> String {
        let sign = minorUnits < 0 ? "-" : ""
        var magnitude = minorUnits.magnitude
        if !showsCents { magnitude = (magnitude + 50) / 100 * 100 }
        let units = magnitude / 100
        let cents = magnitude % 100
        var groups: [String] = []
        var rest = units
        repeat {
            let group = rest % 1000
            rest /= 1000
            groups.append(rest > 0 ? String(group + 1000).dropFirst().description : String(group))
        } while rest > 0
        let whole = groups.reversed().joined(separator: ",")
        if !showsCents { return "\(sign)$\(whole)" }
        return "\(sign)$\(whole).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// `total ÷ nights`, rounded half up to the cent.
    public static func average(of total: Int64, over count: Int64) -> Money {
        precondition(count > 0)
        return Money(minorUnits: (2 * total + count) / (2 * count))
    }
}
