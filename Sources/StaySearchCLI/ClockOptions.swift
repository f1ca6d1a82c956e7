import ArgumentParser
import StaySearch
import StaySearchAPI

/// `--today`: which day is today for a command's searches and changes.
struct ClockOptions: ParsableArguments {
    @Option(name: .customLong("today"), help: ArgumentHelp(
        "Today's date: stays may not start before it, and changes may not touch nights before it. "
            + "Default: the data's own date, the first day of its calendars (the day it was scraped).",
        valueName: "YYYY-MM-DD"))
    var text: String?

    func validate() throws {
        if let text, Day(iso: text) == nil { throw ValidationError("--today '\(text)' is not a date; use YYYY-MM-DD, e.g. 2024-07-12") }
    }

    /// The day given, if one was.
    var today: Day? { text.flatMap { Day(iso: $0) } }

    /// The clock of `index`'s data, whose window is as long as its calendars (docs/query-semantics.md, "A
    /// window that rolls").
    func clock(for index: ListingIndex) -> StayClock {
        StayClock(today: today, first: index.firstDay, dayCount: index.dayCount, window: index.dayCount)
    }

    /// The clock of data whose calendars cover `span`, with a window of `window` days.
    func clock(for span: (first: Day, dayCount: Int), window: Int) -> StayClock {
        StayClock(today: today, first: span.first, dayCount: span.dayCount, window: window)
    }

    /// The day a live index's calendars must run until for today's window (`window` days from today), when
    /// that is past `end`; nil otherwise.
    func windowEnd(first: Day, window: Int, end: Day) -> Day? {
        let until = (today ?? first).advanced(by: window)
        return until > end ? until : nil
    }
}
