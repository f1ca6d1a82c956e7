import StaySearch

/// Parsing numbers straight from CSV field bytes, without making strings.
package enum FieldParsing {
    /// A whole number with an optional leading `-`; nil for anything else or on overflow.
    @inline(__always)
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var isNegative = false
        if bytes.count > 0, bytes[0] == UInt8(ascii: "-") { isNegative = true; index = 1 }
        let digits = bytes.count - index
        guard digits > 0 else { return nil }
        var value: Int64 = 0
        if digits <= 18 {
            // Eighteen digits cannot overflow: no checks in the loop.
            var invalid: UInt8 = 0
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                invalid |= digit > 9 ? 1 : 0
                value = value &* 10 &+ Int64(digit)
                index += 1
            }
            guard invalid == 0 else { return nil }
            return isNegative ? -value : value
        }
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return isNegative ? -value : value
    }

    /// A whole number of 0 or more, capped at `Int32.max` (real files hold maximum_nights such
    /// as 2147483647 or more); nil for anything else.
    package static func count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard bytes.count > 0 else { return nil }
        if bytes.count <= 9 {
            // Nine digits cannot pass Int32.max: no clamping per digit.
            var value: Int32 = 0
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int32(digit)
            }
            return value
        }
        var value: Int64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = min(value * 10 + Int64(digit), Int64(Int32.max))
        }
        return Int32(value)
    }

    /// A `review_scores_rating` in hundredths of a star: from 0 to 5 as written (`4.85`), or on the 100-point
    /// scale of the older files (2015–2020) when above 5, divided by 20 and rounded half up (`94` → 4.70,
    /// `97.5` → 4.88); nil for anything else, a rating above 100 included.
    package static func rating(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let value = hundredths(bytes), value <= 10_000 else { return nil }
        return value <= 500 ? value : (value + 10) / 20
    }

    /// A decimal number such as `4.85` or `97` in hundredths, rounded half up; nil otherwise.
    static func hundredths(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var decimals = -1
        var digits = 0
        var roundUp = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard decimals < 0 else { return nil }
                decimals = 0
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            digits += 1
            if decimals < 0 {
                whole = whole * 10 + Int64(digit)
                guard whole < 10_000_000 else { return nil }
            } else {
                if decimals < 2 { fraction = fraction * 10 + Int64(digit) } else if decimals == 2 { roundUp = digit >= 5 }
                decimals += 1
            }
        }
        guard digits > 0 else { return nil }
        if decimals == 1 { fraction *= 10 }
        if decimals <= 0 { fraction = 0 }
        return Int32(whole * 100 + fraction + (roundUp ? 1 : 0))
    }

    /// A floating-point number such as `51.2045371`; nil otherwise.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count > 0, bytes.count < 64 else { return nil }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// A count such as `2` (or `2.0`, as some scrapes write it); nil when empty or anything else.
    static func wholeCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let hundredths = hundredths(bytes), hundredths % 100 == 0 else { return nil }
        return Int(hundredths / 100)
    }

    /// A `bathrooms` value such as `1.5` in halves (3); nil when empty or not a whole number of halves.
    static func bathroomHalves(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let hundredths = hundredths(bytes), hundredths % 50 == 0 else { return nil }
        return Int(hundredths / 50)
    }

    /// The bathrooms of a `bathrooms_text` value in halves: the number it starts with (`1.5 shared baths`
    /// is 3), or 1 for a half-bath (`Half-bath`, `Shared half-bath`, `Private half-bath`); nil otherwise.
    static func bathroomHalves(text: String) -> Int? {
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        if !number.isEmpty {
            let bytes = Array(number.utf8)
            return bytes.withUnsafeBufferPointer { bathroomHalves($0) }
        }
        return text.lowercased().contains("half-bath") ? 1 : nil
    }

    /// Whether a `t`/`f` field is `t`.
    static func isTrue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 1 && bytes[0] == UInt8(ascii: "t")
    }

    /// The text of a field as a short quotable excerpt for messages.
    static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return bytes.count > 40 ? text + "…" : text
    }
}

/// Parses ISO dates fast when consecutive ones share their year and month, as calendar rows do:
/// the `YYYY-MM-` prefix is compared as one 8-byte word and only the day is parsed.
package struct DateCache {
    private var prefix: UInt64 = 0
    private var monthStart = Day(daysSinceEpoch: 0)
    private var monthLength = 0

    /// A cache that holds no month yet.
    package init() {}

    /// The date in `bytes` (`YYYY-MM-DD`), or nil when it is not a valid date.
    package mutating func day(_ bytes: UnsafeBufferPointer<UInt8>) -> Day? {
        guard bytes.count == 10 else { return nil }
        let word = UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt64.self)
        if word != prefix || monthLength == 0 {
            var year = 0, month = 0
            for index in 0..<7 {
                if index == 4 { guard bytes[4] == UInt8(ascii: "-") else { return nil }; continue }
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if index < 4 { year = year * 10 + Int(digit) } else { month = month * 10 + Int(digit) }
            }
            guard bytes[7] == UInt8(ascii: "-"), let first = Day(year: year, month: month, day: 1) else { return nil }
            prefix = word
            monthStart = first
            monthLength = Day.length(ofMonth: month, in: year)
        }
        let tens = bytes[8] &- UInt8(ascii: "0"), ones = bytes[9] &- UInt8(ascii: "0")
        guard tens < 10, ones < 10 else { return nil }
        let day = Int(tens) * 10 + Int(ones)
        guard day >= 1, day <= monthLength else { return nil }
        return monthStart.advanced(by: day - 1)
    }
}

