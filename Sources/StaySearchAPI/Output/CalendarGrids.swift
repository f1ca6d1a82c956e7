import PriceGraph
import StaySearch

/// A listing's calendar as month grids, and those grids as JSON.
package enum CalendarGrids {
    /// A month as `YYYY-MM`.
    package struct Month: Sendable {
        package var year: Int
        package var month: Int

        package init(year: Int, month: Int) {
            self.year = year
            self.month = month
        }

        package static func parse(_ text: String) throws(InputError) -> Month {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
                  Day(year: year, month: month, day: 1) != nil else {
                throw InputError("month '\(text)' is not a month; use YYYY-MM from 0001-01 to 9999-12, e.g. 2024-07")
            }
            return Month(year: year, month: month)
        }

        /// The month after this one.
        package var next: Month { month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1) }

        /// Whether the month lies within ``Day/earliest`` … ``Day/latest``.
        package var isWithinDateBounds: Bool { (1...9999).contains(year) }
    }

    /// `count` month grids of row `row` from `month` on, none past 9999-12 (``Day/latest``).
    /// With `clock`, the days before its today are past and the days of its window past the calendars have no
    /// calendar row.
    package static func grids(index: ListingIndex, row: Int, from month: Month, count: Int, firstWeekday: Int,
                              style: DisplayStyle = .standard, clock: StayClock? = nil) -> [CalendarMonth] {
        var month = month
        var grids: [CalendarMonth] = []
        for _ in 0..<count where month.isWithinDateBounds {
            grids.append(CalendarMonth(index: index, row: row, year: month.year, month: month.month, firstWeekday: firstWeekday,
                                       style: style, today: clock?.today, coveredUntil: clock?.end))
            month = month.next
        }
        return grids
    }

    /// `{"id": "50904", "months": [{"month": "2024-07", "days": [{"date", "price", "available", "status"}]}]}`.
    package static func json(id: Int64, _ grids: [CalendarMonth]) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("id", string: String(id))
        json.key("months")
        json.beginArray()
        for grid in grids {
            json.beginObject()
            json.field("month", string: "\(grid.year)-\(grid.month < 10 ? "0" : "")\(grid.month)")
            json.key("days")
            json.beginArray()
            for case let night? in grid.weeks.joined() { ListingFormatting.nightObject(&json, night) }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.text
    }
}
