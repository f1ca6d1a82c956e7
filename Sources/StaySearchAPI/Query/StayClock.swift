import StaySearch

/// Which day is today for the searches and changes of a command or a server, and the days its data covers.
///
/// Today is what the command line or `serve` says (`--today`), else the data's own date: the first day of
/// its calendars, the day it was scraped (docs/query-semantics.md, "Today"). A search that starts before
/// today, or whose every stay leaves the days the data covers, is refused with a message that says why; a
/// change to nights before today is refused.
package struct StayClock: Sendable, Equatable {
    /// Today.
    package let today: Day
    /// The first day the data's calendars cover.
    package let first: Day
    /// How many days they cover: from `first` to the end of the window (today + the window's days), or the
    /// calendars' own last day, whichever is later.
    package let dayCount: Int

    /// The clock of data whose calendars cover `dayCount` days from `first`, today being `today` if given.
    /// With `window`, the days covered run at least `window` days from today: a window that rolls
    /// (docs/query-semantics.md, "A window that rolls"), whose days past the calendars have no calendar row.
    package init(today: Day?, first: Day, dayCount: Int, window: Int? = nil) {
        let today = today ?? first
        self.today = today
        self.first = first
        self.dayCount = max(dayCount, window.map { first.distance(to: today) + $0 } ?? 0)
    }

    /// The last night the data covers.
    package var last: Day { first.advanced(by: max(0, dayCount - 1)) }

    /// The first night that can be searched: today, or the calendars' first day if later.
    package var firstOpen: Day { max(first, today) }

    /// The day after the last night the data covers.
    package var end: Day { first.advanced(by: dayCount) }

    /// `query` with today set and checked: a check-in before today and a query none of whose stays lies
    /// within the days the data covers are refused.
    /// - Throws: ``QueryError`` (the query's own rules, ``QueryError/checkInBeforeToday(checkIn:today:)``,
    ///   ``QueryError/outsideCalendar(checkIn:checkOut:first:last:)``).
    package func prepared(_ query: SearchQuery) throws(QueryError) -> SearchQuery {
        var query = query
        query.today = today
        try query.validate()
        let checkIns = query.candidateCheckIns
        guard let nights = query.nights, let earliest = checkIns.first, let latest = checkIns.last else { return query }
        let end = first.advanced(by: dayCount)
        guard checkIns.contains(where: { $0 >= first && $0.advanced(by: nights) <= end }) else {
            throw .outsideCalendar(checkIn: earliest, checkOut: latest.advanced(by: nights), first: firstOpen, last: last)
        }
        return query
    }

    /// Why `change` is refused by the clock: it touches nights before today. Nil when it may go on.
    package func refusal(of change: CalendarChange) -> ChangeError? {
        guard let nights = change.nights, nights.from < today else { return nil }
        return .nightsBeforeToday(from: nights.from, today: today)
    }
}
