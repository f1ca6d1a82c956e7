import Foundation
import StaySearchTestSupport
import Testing

/// Dates at their bounds and today against the data on the shipped sample (scraped 2024-06-29, 365 days):
/// every date staysearch reads, keeps or writes lies from 0001-01-01 to 9999-12-31; a request past that is
/// refused in one line with exit 64, never a signal; the listing screen and calendars speak of today's
/// window, past days and days the window rolled in.
@Suite struct DateBoundsCommandTests {
    /// The sample saved as an index once (a saved index loads in milliseconds; the folder takes seconds).
    static let index: String = {
        let path = Scratch.path("date-bounds.ssx")
        _ = try? CommandRunner.run(["import", "Antwerp=\(CommandRunner.packageRoot.path)/Data/antwerp", "--output", path])
        return path
    }()

    /// `staysearch COMMAND --index (the sample) REST`.
    static func on(_ command: [String], _ rest: [String]) -> [String] { command + ["--index", index] + rest }

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// A refusal: exit 64 (no signal) and one line on standard error saying `words`.
    static func expectRefused(_ arguments: [String], saying words: String) throws {
        let answer = try CommandRunner.run(arguments)
        #expect(answer.status == 64 && answer.stdout.isEmpty, "\(arguments): \(answer.status) \(answer.stdout)")
        #expect(answer.stderr.hasPrefix("staysearch: error: ") && answer.stderr.filter { $0 == "\n" }.count == 1
                && answer.stderr.contains(words), "\(arguments): \(answer.stderr)")
    }

    @Test func datesPastTheLastDayAreRefusedInOneLine() throws {
        try Self.expectRefused(Self.on(["search"], ["--today", "9999-12-01"]), saying: "the latest today is 9998-12-31")
        try Self.expectRefused(Self.on(["listing", "50904"], ["--today", "9999-01-01"]), saying: "the latest today is 9998-12-31")
        try Self.expectRefused(Self.on(["price-calendar"], ["--month", "9999-12", "--nights", "3"]), saying: "checks in by 9999-12-28 at the latest")
        try Self.expectRefused(Self.on(["search"], ["--checkin", "9999-12-28", "--checkout", "9999-12-31", "--flexible-days", "7"]),
                               saying: "a stay must lie from 0001-01-01 to 9999-12-31")
        try Self.expectRefused(Self.on(["search"], ["--checkin", "0001-01-02", "--checkout", "0001-01-03", "--flexible-days", "3", "--today", "0001-01-01"]),
                               saying: "a stay must lie from 0001-01-01 to 9999-12-31")
        try Self.expectRefused(Self.on(["calendar", "50904"], ["--month", "10000-01"]), saying: "from 0001-01 to 9999-12")

        // The last month is a month: its grid, and none after it.
        let last = try CommandRunner.run(Self.on(["calendar", "50904"], ["--month", "9999-12", "--months", "3", "--format", "json"]))
        let months = try #require(Self.json(last.stdout)?["months"] as? [[String: Any]], "\(last.stderr)")
        #expect(last.status == 0 && months.map { $0["month"] as? String } == ["9999-12"], "\(last.stdout)")
    }

    @Test func theListingScreenShowsTheWindowFromToday() throws {
        let answer = try CommandRunner.run(Self.on(["listing", "50904"], ["--today", "2024-09-01"]))
        #expect(answer.status == 0 && answer.stdout.contains("calendar 2024-09-01 … 2025-08-31 · ")
                && answer.stdout.contains(" of the first 30 nights free"), "\(answer.stdout)\(answer.stderr)")
        let scrape = try CommandRunner.run(Self.on(["listing", "50904"], []))
        #expect(scrape.stdout.contains("calendar 2024-06-29 … 2025-06-28 · "), "\(scrape.stdout)")
    }

    @Test func nightsTheWindowRolledInHaveNoCalendarRowAndPastDaysArePast() throws {
        let quote = try CommandRunner.run(Self.on(["listing", "50904"], ["--today", "2025-06-01", "--checkin", "2025-06-27",
                                                                              "--checkout", "2025-07-01", "--format", "json"]))
        let object = try #require(Self.json(quote.stdout)?["quote"] as? [String: Any], "\(quote.stdout)\(quote.stderr)")
        let statuses = (object["nights"] as? [[String: Any]])?.map { "\($0["date"]!) \($0["status"]!)" } ?? []
        #expect(statuses.suffix(2) == ["2025-06-29 no calendar row", "2025-06-30 no calendar row"], "\(statuses)")
        #expect((object["reasons"] as? [String])?.contains("the night of 2025-06-29 has no calendar row") == true, "\(object)")

        let calendar = try CommandRunner.run(Self.on(["calendar", "50904"], ["--month", "2024-08", "--today", "2024-08-10", "--format", "json"]))
        let days = try #require(((Self.json(calendar.stdout)?["months"] as? [[String: Any]])?.first?["days"] as? [[String: Any]]),
                                "\(calendar.stdout)\(calendar.stderr)")
        #expect(days.count == 31)
        for day in days {
            let date = try #require(day["date"] as? String), status = try #require(day["status"] as? String)
            #expect((date < "2024-08-10") == (status == "past"), "\(date) \(status)")
            if status == "past" { #expect(day["available"] as? Bool == false) }
        }
        let text = try CommandRunner.run(Self.on(["calendar", "50904"], ["--month", "2024-08", "--today", "2024-08-10"]))
        #expect(text.stdout.contains(" 9 -") && text.stdout.contains("- past"), "\(text.stdout)")
    }
}
