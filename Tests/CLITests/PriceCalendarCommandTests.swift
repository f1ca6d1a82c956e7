import Foundation
import PriceGraph
import StaySearchTestSupport
import Testing

/// `staysearch price-calendar` on the shipped Antwerp sample.
@Suite(.serialized) struct PriceCalendarCommandTests {
    @Test func aMonthGridWithEachDaysStaysAndLowestTotal() throws {
        let output = try CommandRunner.run(["price-calendar", "--region", "zuid", "--month", "2024-07", "--nights", "3", "--adults", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "3 nights from each check-in · zuid · 2 guests")
        #expect(lines[2] == "July 2024" && lines[3].hasPrefix("Mon        Tue"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        // Each day's count and lowest total are those of the search of that check-in.
        let json = try CommandRunner.run(["price-calendar", "--region", "zuid", "--month", "2024-07", "--nights", "3", "--adults", "2",
                                          "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]])
        let twelfth = try #require(days.first { $0["checkin"] as? String == "2024-07-12" })
        let search = try CommandRunner.run(["search", "--region", "zuid", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2",
                                            "--format", "json", "--limit", "1"])
        let searched = try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])
        let first = try #require((searched["results"] as? [[String: Any]])?.first)
        #expect(twelfth["count"] as? Int == searched["total"] as? Int)
        #expect(twelfth["lowest_total"] as? Double == first["total_price"] as? Double)
        let count = try #require(twelfth["count"] as? Int)
        #expect(lines.contains { $0.hasPrefix("12 \(count) ") || $0.contains(" 12 \(count) ") || $0.hasSuffix(" 12 \(count)") })
    }

    @Test func inKoreanAndAsAPicture() throws {
        let korean = try CommandRunner.run(["price-calendar", "--region", "zuid", "--month", "2024-06", "--locale", "ko"])
        #expect(korean.status == 0)
        #expect(korean.stdout.contains("2024년 6월") && korean.stdout.contains("지남") && korean.stdout.hasPrefix("체크인별 3박"))
        let path = Scratch.path("price-calendar.png")
        let picture = try CommandRunner.run(["price-calendar", "--region", "zuid", "--checkin-from", "2024-07-20", "--checkin-to", "2024-08-10",
                                             "--png", path, "--scale", "2"])
        #expect(picture.status == 0 && picture.stdout == "wrote \(path) (2128×888)\n", "\(picture.stdout)\(picture.stderr)")
        let image = try GDImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.width == 2_128)
    }

    @Test(arguments: [
        (["--nights", "0"], "nights must be from 1 to 365 (got 0)"),
        (["--month", "2024-13"], "month '2024-13' is not a month; use YYYY-MM from 0001-01 to 9999-12, e.g. 2024-07"),
        (["--month", "2024-07", "--checkin-from", "2024-07-01"], "give month or checkin_from and checkin_to, not both"),
        (["--checkin-from", "2024-07-01", "--checkin-to", "2024-09-30"], "a check-in window may have at most 62 days (got 92)"),
        (["--region", "atlantis"], "unknown region 'atlantis'"),
    ])
    func refusesWhatIsNotACalendar(flags: [String], message: String) throws {
        let output = try CommandRunner.run(["price-calendar"] + flags)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }
}
