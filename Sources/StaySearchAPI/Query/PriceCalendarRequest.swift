import StaySearch

/// A price calendar's query read from a request's keys or a command's flags: the search keys of
/// ``QuerySchema/priceCalendarSearchKeys``, the check-in days as `checkin_from` and `checkin_to` or as a
/// `month` (default: today's), and `nights` (default ``QuerySchema/defaultCalendarNights``).
package enum PriceCalendarRequest {
    /// The query of `items` on `today`; `extraKeys`: the route's keys read before (a picture's `locale`),
    /// named with the calendar's own when a key is unknown.
    /// - Throws: ``InputError`` for a key that is not a calendar's, a month together with `checkin_from` or
    ///   `checkin_to`, or a value the schema refuses; ``QueryError`` as ``SearchQuery/validate()`` does.
    package static func query(_ items: [(key: String, value: String)], today: Day, extraKeys: [String] = []) throws -> SearchQuery {
        var items = items
        let month = items.filter { $0.key == QuerySchema.checkInMonth.key }
        items.removeAll { $0.key == QuerySchema.checkInMonth.key }
        guard month.count <= 1 else { throw InputError("key 'month' appears twice") }
        let givesDays = items.contains { $0.key == "checkin_from" || $0.key == "checkin_to" }
        if let month = month.first {
            guard !givesDays else { throw InputError("give month or checkin_from and checkin_to, not both") }
            let parsed = try CalendarGrids.Month.parse(month.value)
            items += days(of: parsed)
        } else if !givesDays {
            items += days(of: CalendarGrids.Month(year: today.components.year, month: today.components.month))
        }
        if !items.contains(where: { $0.key == "nights" }) { items.append(("nights", String(QuerySchema.defaultCalendarNights))) }
        var query = try QueryReader.query(items: items, allowed: QuerySchema.priceCalendar,
                                          extraKeys: QuerySchema.priceCalendarRoute.map(\.key) + extraKeys)
        query.today = today
        return query
    }

    /// `checkin_from` and `checkin_to` of every day of `month`.
    private static func days(of month: CalendarGrids.Month) -> [(key: String, value: String)] {
        let first = Day(year: month.year, month: month.month, day: 1)!
        return [("checkin_from", first.description),
                ("checkin_to", first.advanced(by: Day.length(ofMonth: month.month, in: month.year) - 1).description)]
    }
}
