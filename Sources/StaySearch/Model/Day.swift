/// A calendar date, stored as the number of days since 1970-01-01 (proleptic Gregorian).
///
/// Days are plain integers so that a stay is a range of integers and a calendar is a bit set.
public struct Day: Hashable, Comparable, Strideable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01; negative before it.
    public var daysSinceEpoch: Int32

    /// The first day staysearch reads, keeps or writes: 0001-01-01.
    public static let earliest = Day(year: 1, month: 1, day: 1)!

    /// The last day staysearch reads, keeps or writes: 9999-12-31, the last date `YYYY-MM-DD` can write. A stay
    /// checks out by it, a window of calendars ends by it, and so a today is at most this day less the window.
    public static let latest = Day(year: 9999, month: 12, day: 31)!

    /// The latest today whose window of `window` days still ends by ``latest`` (its last stay checks out by then).
    public static func latestToday(window: Int) -> Day { latest.advanced(by: -max(0, window)) }

    /// Why `today` cannot be today for a window of `window` days (its days would run past ``latest``), in one
    /// line naming the latest day that can; nil when it can.
    public static func refusal(ofToday today: Day, window: Int, option: String = "--today") -> String? {
        let latest = latestToday(window: window)
        guard today > latest else { return nil }
        return "\(option) \(today) is too late: its window of \(window) days would run past \(Day.latest), the last date "
            + "staysearch takes; the latest today is \(latest)"
    }

    /// Creates a day from its offset from 1970-01-01.
    @inlinable
    public init(daysSinceEpoch: Int32) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// Creates a day from a valid Gregorian date, or returns `nil` for one that does not exist
    /// (month 13, 30 February, year outside 1…9999).
    @inlinable
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        self.daysSinceEpoch = Int32(era * 146_097 + dayOfEra - 719_468)
    }

    /// Parses a strict ISO date `YYYY-MM-DD` from ASCII bytes.
    @inlinable
    public init?(isoASCII bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10 else { return nil }
        var numbers = (0, 0, 0)
        var position = 0
        for byte in bytes {
            switch position {
            case 4, 7:
                guard byte == UInt8(ascii: "-") else { return nil }
            default:
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let digit = Int(byte - UInt8(ascii: "0"))
                if position < 4 { numbers.0 = numbers.0 * 10 + digit }
                else if position < 7 { numbers.1 = numbers.1 * 10 + digit }
                else { numbers.2 = numbers.2 * 10 + digit }
            }
            position += 1
        }
        self.init(year: numbers.0, month: numbers.1, day: numbers.2)
    }

    /// Parses a strict ISO date `YYYY-MM-DD`, e.g. `2024-07-12`.
    public init?(iso text: String) {
        var text = text
        guard let day = text.withUTF8({ Day(isoASCII: $0) }) else { return nil }
        self = day
    }

    /// The year, month (1–12) and day of month (1–31).
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = Int(daysSinceEpoch) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday, 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public var weekdayFromMonday: Int {
        Int(((Int64(daysSinceEpoch) % 7) + 7 + 3) % 7)
    }

    /// The ISO form, `2024-07-12`.
    public var description: String {
        let (year, month, day) = components
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The number of days in a month of a year.
    @inlinable
    public static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
    public func distance(to other: Day) -> Int { Int(other.daysSinceEpoch) - Int(daysSinceEpoch) }
    public func advanced(by n: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + Int32(n)) }
}
