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

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Lays out `month` of `year` for row `row` of `index`.
    public init(index: ListingIndex, row: Int, year: Int, month: Int, firstWeekday: Int) {
        self.year = year
        self.month = month
        self.firstWeekday = firstWeekday
        let first = Day(year: year, month: month, day: 1)!
        let length = Day.length(ofMonth: month, in: year)
        var weeks: [[Cell?]] = []
        var week = [Cell?](repeating: nil, count: (first.weekdayFromMonday - firstWeekday + 7) % 7)
        for night in index.nights(ofRow: row, from: first, to: first.advanced(by: length)) {
            week.append(night)
            if week.count == 7 {
                weeks.append(week)
                week = []
            }
        }
        if !week.isEmpty { weeks.append(week + [Cell?](repeating: nil, count: 7 - week.count)) }
        self.weeks = weeks
    }

    /// `July 2024`.
    public var title: String { "\(CalendarMonth.monthNames[month - 1]) \(year)" }

    /// Weekday names in column order.
    public var weekdayNames: [String] { (0..<7).map { CalendarMonth.weekdayNames[($0 + firstWeekday) % 7] } }

    static let markers: [NightStatus: Character] = [.available: "●", .booked: "×", .unpriced: "?", .outsideCalendar: "·"]

    /// The month as text, 7 columns of 11 characters.
    public func text() -> String {
        var lines = [title, weekdayNames.map { $0.padding(toLength: 11) }.joined().trimmingTrailingSpaces]
        for week in weeks {
            lines.append(week.map { cell -> String in
                guard let cell else { return String(repeating: " ", count: 11) }
                let number = cell.day.components.day
                let price = cell.price.map { compact($0) } ?? ""
                return ((number < 10 ? " " : "") + "\(number) \(CalendarMonth.markers[cell.status]!)\(price.isEmpty ? "" : " " + price)").padding(toLength: 11)
            }.joined().trimmingTrailingSpaces)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend of the markers.
    public static let legend = "● available   × booked   ? unpriced   · outside the calendar"

    /// `$175`, `$1,350`, `$25k` for ten thousand and more (to the nearest thousand).
    func compact(_ money: Money) -> String {
        money.minorUnits >= 1_000_000 ? "$\((money.minorUnits + 50_000) / 100_000)k" : money.formatted(showsCents: false)
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
