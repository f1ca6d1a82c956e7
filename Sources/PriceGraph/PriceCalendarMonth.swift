import StaySearch

/// One month of a price calendar laid out as a printed calendar: weeks in rows, seven columns from a
/// chosen first weekday, each check-in day of the calendar's range with its stays and lowest total (days
/// of the month outside the range are blank).
public struct PriceCalendarMonth: Sendable {
    /// The year and month (1–12).
    public var year: Int
    public var month: Int
    /// 0 = Monday … 6 = Sunday: the weekday of the first column.
    public var firstWeekday: Int
    /// Weeks of seven cells: the day's number and, within the range, its check-in day; nil before the
    /// first and after the last day of the month.
    public var weeks: [[Cell?]]
    /// How the month, weekdays and prices are written.
    public var style: DisplayStyle

    /// A day of the month.
    public struct Cell: Sendable {
        public var number: Int
        public var day: PriceCalendarDay?
    }

    /// The months `calendar`'s check-in days fall in, laid out.
    public static func months(of calendar: PriceCalendar, firstWeekday: Int, style: DisplayStyle = .standard) -> [PriceCalendarMonth] {
        guard let first = calendar.days.first?.checkIn, let last = calendar.days.last?.checkIn else { return [] }
        let byDay = Dictionary(calendar.days.map { ($0.checkIn, $0) }, uniquingKeysWith: { a, _ in a })
        var (year, month) = (first.components.year, first.components.month)
        var months: [PriceCalendarMonth] = []
        while Day(year: year, month: month, day: 1)! <= last {
            months.append(PriceCalendarMonth(year: year, month: month, firstWeekday: firstWeekday, style: style, days: byDay))
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
        }
        return months
    }

    init(year: Int, month: Int, firstWeekday: Int, style: DisplayStyle, days: [Day: PriceCalendarDay]) {
        self.year = year
        self.month = month
        self.firstWeekday = firstWeekday
        self.style = style
        let first = Day(year: year, month: month, day: 1)!
        var weeks: [[Cell?]] = []
        var week = [Cell?](repeating: nil, count: (first.weekdayFromMonday - firstWeekday + 7) % 7)
        for number in 1...Day.length(ofMonth: month, in: year) {
            week.append(Cell(number: number, day: days[first.advanced(by: number - 1)]))
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

    /// What a cell says under its number: the stays, or why there are none to search.
    public func countText(_ day: PriceCalendarDay) -> String {
        switch day.status {
        case .open: return "\(day.count)"
        case .beforeToday: return style.language == .korean ? "지남" : "past"
        case .outsideData: return "·"
        }
    }

    /// The lowest total, compact; empty without stays.
    public func lowestText(_ day: PriceCalendarDay) -> String {
        day.lowest.map { CalendarMonth.compact($0, style: style) } ?? ""
    }

    /// The month as text: 7 columns of 11 characters, two lines a week (the day's number and its stays,
    /// then the lowest total).
    public func text() -> String {
        var lines = [title, weekdayNames.map { $0.padding(toLength: 11 - ($0.unicodeScalars.allSatisfy(\.isASCII) ? 0 : $0.count)) }
            .joined().trimmingTrailingSpaces]
        for week in weeks {
            lines.append(week.map { cell -> String in
                guard let cell else { return String(repeating: " ", count: 11) }
                let number = (cell.number < 10 ? " " : "") + "\(cell.number)"
                guard let day = cell.day else { return number.padding(toLength: 11) }
                let count = countText(day)
                // Hangul takes two columns of a terminal.
                return (number + " " + count).padding(toLength: 11 - (count.unicodeScalars.allSatisfy(\.isASCII) ? 0 : count.count))
            }.joined().trimmingTrailingSpaces)
            lines.append(week.map { cell -> String in
                guard let day = cell?.day else { return String(repeating: " ", count: 11) }
                return ("   " + lowestText(day)).padding(toLength: 11)
            }.joined().trimmingTrailingSpaces)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend of the cells, for `nights` nights.
    public static func legend(nights: Int, style: DisplayStyle) -> String {
        style.language == .korean
            ? "날짜 옆: 그날 체크인하는 \(nights)박 숙소 수 · 아래: 최저 총액\n지남: 오늘 이전 · ·: 데이터 밖"
            : "beside the date: stays of \(nights) night\(nights == 1 ? "" : "s") from that check-in · below: the lowest total\n"
                + "past: before today · ·: outside the data"
    }
}
