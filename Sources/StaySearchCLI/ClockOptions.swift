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

    /// The clock of `index`'s data.
    func clock(for index: ListingIndex) -> StayClock {
        StayClock(today: today, first: index.firstDay, dayCount: index.dayCount)
    }

    /// The clock of data whose calendars cover `span`.
    func clock(for span: (first: Day, dayCount: Int)) -> StayClock {
        StayClock(today: today, first: span.first, dayCount: span.dayCount)
    }
}
