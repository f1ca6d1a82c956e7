import Foundation
import StaySearchTestSupport
import Testing

@Suite(.serialized) struct ListingCommandTests {
    @Test func quotesAStayNightByNight() throws {
        let output = try CommandRunner.run(["listing", "50904", "--checkin", "2024-06-29", "--checkout", "2024-07-02", "--adults", "2"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("id 50904 · Antwerp / Historisch Centrum · Hotel room · up to 2 guests"))
        #expect(output.stdout.contains("""
              Sat 2024-06-29     $175.00  booked
              Sun 2024-06-30     $175.00  available
              Mon 2024-07-01     $175.00  available
              total $525.00 · average $175.00 a night
              cannot be booked:
              - the night of 2024-06-29 is booked
            """))
        let bookable = try CommandRunner.run(["listing", "1188186300730889815", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2"])
        #expect(bookable.stdout.hasSuffix("  total $132.00 · average $44.00 a night\n  can be booked\n"))
        let crowded = try CommandRunner.run(["listing", "1188186300730889815", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "3"])
        #expect(crowded.stdout.hasSuffix("  - 3 guests is more than the 2 the listing takes\n"))
    }

    @Test func printsTheListingAndItsQuoteAsJSON() throws {
        let output = try CommandRunner.run(["listing", "50904", "--checkin", "2024-06-29", "--checkout", "2024-07-02", "--adults", "2",
                                            "--format", "json"])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "50904")
        #expect(object["neighbourhood"] as? String == "Historisch Centrum" && object["room_type"] as? String == "Hotel room")
        #expect(object["total_price"] as? Double == 525 && object["nightly_price"] as? Double == 175)
        let quote = try #require(object["quote"] as? [String: Any])
        #expect(quote["checkin"] as? String == "2024-06-29" && quote["checkout"] as? String == "2024-07-02")
        #expect(quote["bookable"] as? Bool == false)
        #expect(quote["reasons"] as? [String] == ["the night of 2024-06-29 is booked"])
        let nights = try #require(quote["nights"] as? [[String: Any]])
        #expect(nights.map { $0["date"] as? String } == ["2024-06-29", "2024-06-30", "2024-07-01"])
        #expect(nights.map { $0["available"] as? Bool } == [false, true, true])
        #expect(nights.map { $0["price"] as? Double } == [175, 175, 175])
        // Without dates: the price without dates, no total, no quote.
        let plain = try CommandRunner.run(["listing", "50904", "--format", "json"])
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(listing["nightly_price"] as? Double == 174 && listing["total_price"] is NSNull && listing["quote"] == nil)
    }

    @Test func unknownIdsAndBadDatesAreErrors() throws {
        let unknown = try CommandRunner.run(["listing", "123"])
        #expect(unknown.status == 64 && unknown.stderr == "staysearch: error: no listing has id 123\n")
        let notANumber = try CommandRunner.run(["listing", "abc"])
        #expect(notANumber.status == 64 && notANumber.stderr.contains("'abc' is not a listing id"))
        let oneDate = try CommandRunner.run(["listing", "50904", "--checkin", "2024-07-01"])
        #expect(oneDate.status == 64 && oneDate.stderr.contains("checkin given without checkout"))
    }
}

@Suite(.serialized) struct CalendarCommandTests {
    @Test func printsMonthGridsAndDrawsThem() throws {
        let text = try CommandRunner.run(["calendar", "50904", "--month", "2024-07"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("July 2024\nMon        Tue        Wed        Thu        Fri        Sat        Sun\n"
            + " 1 ● $175   2 × $175   3 ● $175   4 ● $175   5 ● $175   6 ● $175   7 × $175\n"))
        #expect(text.stdout.hasSuffix("● available   × booked   ? unpriced   ○ no calendar row   - past   · outside the calendar\n"))
        let sunday = try CommandRunner.run(["calendar", "50904", "--month", "2024-06", "--first-weekday", "sunday"])
        #expect(sunday.stdout.contains("Sun        Mon") && sunday.stdout.contains("29 × $175"))
        let path = Scratch.path("calendar.png")
        let png = try CommandRunner.run(["calendar", "50904", "--month", "2024-07", "--months", "2", "--png", path])
        #expect(png.status == 0 && png.stdout == "wrote \(path) (952×408)\n")   // two 448-pixel months, a 24-pixel gap, 16-pixel margins
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func printsEveryDayAsJSON() throws {
        let output = try CommandRunner.run(["calendar", "50904", "--month", "2024-06", "--months", "2", "--format", "json"])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "50904")
        let months = try #require(object["months"] as? [[String: Any]])
        #expect(months.map { $0["month"] as? String } == ["2024-06", "2024-07"])
        let june = try #require(months[0]["days"] as? [[String: Any]])
        let july = try #require(months[1]["days"] as? [[String: Any]])
        #expect(june.count == 30 && july.count == 31)
        // The calendar starts on 2024-06-29, today: the days before are past, not available, without a price.
        #expect(june[0]["status"] as? String == "past" && june[0]["available"] as? Bool == false && june[0]["price"] is NSNull)
        #expect(june[28]["status"] as? String == "booked" && june[29]["status"] as? String == "available")
        #expect(july[1]["date"] as? String == "2024-07-02" && july[1]["available"] as? Bool == false && july[1]["price"] as? Double == 175)
    }

    @Test(arguments: [(["calendar", "50904", "--month", "2024-13"], "month '2024-13' is not a month"),
                      (["calendar", "50904", "--month", "2024-07", "--months", "13"], "months must be from 1 to 12"),
                      (["calendar", "77", "--month", "2024-07"], "no listing has id 77")] as [([String], String)])
    func rejectsBadInput(arguments: [String], message: String) throws {
        let output = try CommandRunner.run(arguments)
        #expect(output.status == 64 && output.stderr.contains(message) && output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
    }
}
