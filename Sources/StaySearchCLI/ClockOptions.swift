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
    /// - Throws: ``CommandFailure`` (exit 64) for a today whose window would run past ``Day/latest``.
    func clock(for index: ListingIndex) throws -> StayClock {
        try clock(for: (index.firstDay, index.dayCount), window: index.dayCount)
    }

    /// The clock of data whose calendars cover `span`, with a window of `window` days.
    /// - Throws: ``CommandFailure`` (exit 64) for a today whose window would run past ``Day/latest``.
    func clock(for span: (first: Day, dayCount: Int), window: Int) throws -> StayClock {
        try ClockOptions.check(today, window: window)
        return StayClock(today: today, first: span.first, dayCount: span.dayCount, window: window)
    }

    /// Refuses a `today` whose window of `window` days would run past ``Day/latest`` (exit 64).
    static func check(_ today: Day?, window: Int) throws {
        if let today, let refusal = Day.refusal(ofToday: today, window: window) {
            throw CommandFailure(message: refusal, code: ExitStatus.badInput)
        }
    }

    /// The day a live index's calendars must run until for today's window (`window` days from today), when
    /// that is past `end`; nil otherwise.
    func windowEnd(first: Day, window: Int, end: Day) -> Day? {
        let until = (today ?? first).advanced(by: window)
        return until > end ? until : nil
    }
}
