import StaySearch

/// One month of a listing's calendar laid out as a printed calendar: weeks in rows, seven columns
/// from a chosen first weekday.
public struct CalendarMonth: Sendable {
    /// What one day cell shows: the night of that day.
    public typealias Cell = ListingNight

    /// The year and month (1–12).
    public var year: Int
    public var month: Int
    /// 0 = Monday … 6 = Sunday: the weekday of the first column.
    public var firstWeekday: Int
    /// Weeks of seven cells; nil before the first and after the last day of the month.
    public var weeks: [[Cell?]]
    /// How the month, weekdays and prices are written.
    public var style: DisplayStyle

    /// Lays out `month` of `year` for row `row` of `index`; with `today`, the days before it are past, and with
    /// `coveredUntil`, the days of a window that rolled past the calendars have no calendar row.
    public init(index: ListingIndex, row: Int, year: Int, month: Int, firstWeekday: Int, style: DisplayStyle = .standard,
                today: Day? = nil, coveredUntil: Day? = nil) {
        self.style = style
        self.year = year
        self.month = month
        self.firstWeekday = firstWeekday
        let first = Day(year: year, month: month, day: 1)!
        let length = Day.length(ofMonth: month, in: year)
        var weeks: [[Cell?]] = []
        var week = [Cell?](repeating: nil, count: (first.weekdayFromMonday - firstWeekday + 7) % 7)
        for night in index.nights(ofRow: row, from: first, to: first.advanced(by: length), today: today, coveredUntil: coveredUntil) {
            week.append(night)
            if week.count == 7 {
                weeks.append(week)
                week = []
            }
        }
        if !week.isEmpty { weeks.append(week + [Cell?](repeating: nil, count: 7 - week.count)) }
        self.weeks = weeks
    }

    /// `July 2024`, `2024년 7월`.
    public var title: String { style.monthTitle(year: year, month: month) }

    /// Weekday names in column order.
    public var weekdayNames: [String] { (0..<7).map { style.weekdayName(($0 + firstWeekday) % 7) } }

    static let markers: [NightStatus: Character] = [
        .available: "●", .booked: "×", .unpriced: "?", .noCalendarRow: "○", .outsideCalendar: "·", .past: "-",
    ]

    /// The month as text, 7 columns of 11 characters.
    public func text() -> String {
        // Hangul takes two columns of a terminal: a Korean weekday name is padded to 11 columns, not characters.
        var lines = [title, weekdayNames.map { $0.padding(toLength: 11 - ($0.unicodeScalars.allSatisfy(\.isASCII) ? 0 : $0.count)) }
            .joined().trimmingTrailingSpaces]
        for week in weeks {
            lines.append(week.map { cell -> String in
                guard let cell else { return String(repeating: " ", count: 11) }
                let number = cell.day.components.day
                let price = cell.status == .past ? "" : cell.price.map { compact($0) } ?? ""
                return ((number < 10 ? " " : "") + "\(number) \(CalendarMonth.markers[cell.status]!)\(price.isEmpty ? "" : " " + price)").padding(toLength: 11)
            }.joined().trimmingTrailingSpaces)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend of the markers.
    public static let legend = legend(.standard)

    /// The legend of the markers in `style`'s language.
    public static func legend(_ style: DisplayStyle) -> String {
        style.language == .korean
            ? "● 예약 가능   × 예약됨   ? 가격 없음   ○ 달력 행 없음   - 지난 날   · 달력 밖"
            : "● available   × booked   ? unpriced   ○ no calendar row   - past   · outside the calendar"
    }

    /// `$175`, `$1,350`, `$25k` for ten thousand and more (to the nearest thousand), `$40M` for a million and more
    /// (to the nearest million); `₩85,000`, `₩120만` for a million won and more (to the nearest ten thousand, as
    /// Korean counts).
    func compact(_ money: Money) -> String { CalendarMonth.compact(money, style: style) }

    /// ``compact(_:)`` in `style`.
    static func compact(_ money: Money, style: DisplayStyle) -> String {
        if style.hasWholeUnitsOnly, style.language == .korean, money.minorUnits >= 100_000_000 {
            return style.currencySymbol + style.grouped(Int((money.minorUnits + 500_000) / 1_000_000)) + "만"
        }
        if !style.hasWholeUnitsOnly, money.minorUnits >= 99_950_000 {
            return "\(style.currencySymbol)\((money.minorUnits + 50_000_000) / 100_000_000)M"
        }
        if !style.hasWholeUnitsOnly, money.minorUnits >= 1_000_000 {
            return "\(style.currencySymbol)\((money.minorUnits + 50_000) / 100_000)k"
        }
        if style.hasWholeUnitsOnly, money.minorUnits >= 100_000_000 {
            return "\(style.currencySymbol)\((money.minorUnits + 50_000_000) / 100_000_000)M"
        }
        return style.money(money, showsCents: false)
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
