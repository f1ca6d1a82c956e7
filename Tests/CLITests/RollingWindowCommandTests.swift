import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// A window that rolls on one machine: `update --today` past the data's first day adds the days after the
/// calendars (no calendar row until a change gives one), journals them so that a load replays changes to
/// them, and `compact` keeps the window from that day.
@Suite struct RollingWindowCommandTests {
    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    @Test func updateOpensDaysTheWindowAddedAndCompactKeepsTheWindow() throws {
        let index = Scratch.path("rolling.ssx")
        let made = try CommandRunner.run(["import", "Antwerp=\(CommandRunner.packageRoot.path)/Data/antwerp", "--output", index])
        #expect(made.status == 0, "\(made.stderr)")
        let today = ["--today", "2025-06-01"]
        let first = try CommandRunner.run(["search", "--index", index, "--checkin", "2024-07-01", "--checkout", "2024-07-02", "--limit", "1", "--format", "json"])
        let id = try #require(((Self.json(first.stdout)?["results"] as? [[String: Any]])?.first?["id"] as? String))
        let stay = ["--checkin", "2025-07-02", "--checkout", "2025-07-04", "--format", "json"]

        // Past the calendars' last night (2025-06-28) but within today's window: no stay, and no error.
        let before = try CommandRunner.run(["search", "--index", index] + today + stay)
        #expect(before.status == 0 && Self.json(before.stdout)?["total"] as? Int == 0, "\(before.stdout)\(before.stderr)")
        let beyond = try CommandRunner.run(["search", "--index", index] + today + ["--checkin", "2026-05-31", "--checkout", "2026-06-02"])
        #expect(beyond.status == 64 && beyond.stderr.contains("cover the nights of 2025-06-01 to 2026-05-31"), "\(beyond.stderr)")

        let changes = [
            #"{"op": "price", "id": "\#(id)", "from": "2025-07-01", "to": "2025-07-05", "price": 111}"#,
            #"{"op": "availability", "id": "\#(id)", "from": "2025-07-01", "to": "2025-07-05", "available": true}"#,
            #"{"op": "book", "id": "\#(id)", "checkin": "2025-07-01", "checkout": "2025-07-02"}"#,
            #"{"op": "book", "id": "\#(id)", "checkin": "2025-05-01", "checkout": "2025-05-02"}"#,
        ]
        let updated = try CommandRunner.run(["update", "--index", index] + today + ["-"], input: changes.joined(separator: "\n") + "\n")
        let answers = updated.stdout.split(separator: "\n").map { Self.json(String($0)) }
        #expect(answers.count == 4 && answers.prefix(3).allSatisfy { $0?["ok"] as? Bool == true }
                && answers[3]?["code"] as? String == "nights_before_today", "\(updated.stdout)")

        // The journal's days and changes replayed: the stay is found at its price, with --today or without.
        let queries = [stay, ["--checkin", "2025-07-01", "--checkout", "2025-07-03", "--format", "json"],
                       ["--checkin", "2025-06-20", "--checkout", "2025-06-23", "--format", "json", "--limit", "5"]]
        var replayed: [String] = []
        for query in queries {
            let answer = try CommandRunner.run(["search", "--index", index] + today + query)
            #expect(answer.status == 0, "\(answer.stderr)")
            replayed.append(answer.stdout.replacing(/"took_us":\d+,?/, with: ""))
        }
        let found = Self.json(replayed[0])
        let match = (found?["results"] as? [[String: Any]])?.first
        #expect(found?["total"] as? Int == 1 && match?["id"] as? String == id && match?["nightly_price"] as? Double == 111, "\(replayed[0])")
        #expect(Self.json(replayed[1])?["total"] as? Int == 0, "the night booked in the added days")

        // Compacted: the window from 2025-06-01, 365 days, the same answers.
        let compacted = try CommandRunner.run(["compact", "--index", index])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        let saved = try IndexFileReader.load(from: index)
        #expect(saved.firstDay == Day(iso: "2025-06-01") && saved.dayCount == 365)
        for (query, expected) in zip(queries, replayed) {
            let answer = try CommandRunner.run(["search", "--index", index] + today + query)
            #expect(answer.stdout.replacing(/"took_us":\d+,?/, with: "") == expected, "\(query)")
        }
        let past = try CommandRunner.run(["search", "--index", index, "--checkin", "2025-05-30", "--checkout", "2025-06-02"])
        #expect(past.status == 64 && past.stderr.contains("before today (2025-06-01)"), "\(past.stderr)")
    }
}
