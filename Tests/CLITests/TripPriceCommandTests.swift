import Foundation
import StaySearchTestSupport
import Testing

/// The trip price on the command line: the quote's lines, the same totals in searches, the platform's
/// settings and their errors, on the older-format Jersey City sample (listing 6860: $95 cleaning, a weekly
/// price of $900 against $163 a night, 2 guests included and $50 a night each above, a $500 deposit).
@Suite(.serialized) struct TripPriceCommandTests {
    static let data = "Jersey City=\(CommandRunner.packageRoot.path)/Data/jersey-city-2019"
    static let stay = ["--checkin", "2019-05-06", "--checkout", "2019-05-14"]
    static let settings = ["--service-fee", "14.2", "--tax", "jersey city=6.63"]

    @Test func theQuoteShowsEachLineAndTheTotals() throws {
        let text = try CommandRunner.run(["listing", "6860", "--data", Self.data, "--adults", "2"] + Self.stay + Self.settings)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("""
              $149.00 × 8 nights                   $1,192.00
              Weekly discount (21.12 %)             −$251.75
              Cleaning fee                            $95.00
              Service fee (14.2 %)                   $147.01
              Trip price (all fees, before taxes)  $1,182.26
              Taxes (6.63 %)                          $78.38
              Total with taxes                     $1,260.64
              Security deposit (not charged)         $500.00
              total $1,182.26 · average $147.78 a night
            """), "\(text.stdout)")
        let json = try CommandRunner.run(["listing", "6860", "--data", Self.data, "--adults", "2", "--format", "json"] + Self.stay + Self.settings)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let quote = try #require(object["quote"] as? [String: Any])
        #expect(quote["nightly_subtotal"] as? Double == 1_192)
        let discount = try #require(quote["length_of_stay_discount"] as? [String: Any])
        #expect(discount["kind"] as? String == "weekly" && discount["percent"] as? Double == 21.12 && discount["amount"] as? Double == 251.75)
        #expect(quote["extra_guests"] is NSNull)
        #expect(quote["cleaning_fee"] as? Double == 95)
        #expect((quote["service_fee"] as? [String: Any])?["amount"] as? Double == 147.01)
        #expect(quote["trip_price"] as? Double == 1_182.26 && quote["total_price"] as? Double == 1_182.26)
        #expect((quote["taxes"] as? [String: Any])?["percent"] as? Double == 6.63)
        #expect(quote["total_with_taxes"] as? Double == 1_260.64)
        #expect(quote["security_deposit"] as? Double == 500)
        #expect(object["total_price"] as? Double == 1_182.26)
        // Three guests: one above those included, $50 × 8 nights.
        let three = try CommandRunner.run(["listing", "6860", "--data", Self.data, "--adults", "2", "--children", "1", "--format", "json"] + Self.stay)
        let extra = try #require(((try JSONSerialization.jsonObject(with: Data(three.stdout.utf8)) as? [String: Any])?["quote"]
            as? [String: Any])?["extra_guests"] as? [String: Any])
        #expect(extra["guests"] as? Int == 1 && extra["fee_per_night"] as? Double == 50 && extra["amount"] as? Double == 400)
    }

    @Test func searchesShowTheTripPrice() throws {
        let search = try CommandRunner.run(["search", "--data", Self.data, "--adults", "2", "--limit", "1000", "--format", "json",
                                            "--checkin", "2019-05-06", "--checkout", "2019-05-09"] + Self.settings)
        #expect(search.status == 0, "\(search.stderr)")
        let results = try #require((try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        let listing = try #require(results.first { $0["id"] as? String == "6860" })
        let quote = try CommandRunner.run(["listing", "6860", "--data", Self.data, "--adults", "2", "--format", "json",
                                           "--checkin", "2019-05-06", "--checkout", "2019-05-09"] + Self.settings)
        let quoted = try #require((try JSONSerialization.jsonObject(with: Data(quote.stdout.utf8)) as? [String: Any])?["quote"] as? [String: Any])
        #expect(listing["total_price"] as? Double == quoted["trip_price"] as? Double)
        #expect((listing["total_price"] as? Double ?? 0) > (quoted["nightly_subtotal"] as? Double ?? 0))
        // Sorted by what the guest pays.
        let totals = results.compactMap { $0["total_price"] as? Double }
        #expect(totals == totals.sorted() && totals.count == results.count)
    }

    @Test func badSettingsAreOneLineErrors() throws {
        for (arguments, message) in [
            (["--service-fee", "abc"], "--service-fee 'abc' is not a percentage from 0 to 100 such as 14.2"),
            (["--service-fee", "101"], "--service-fee '101' is not a percentage from 0 to 100 such as 14.2"),
            (["--service-fee", "-3"], "--service-fee '-3' is not a percentage from 0 to 100 such as 14.2"),
            (["--tax", "Jersey City=abc"], "--tax 'Jersey City=abc': 'abc' is not a percentage from 0 to 100 such as 10"),
            (["--tax", "10"], "--tax '10' is not CITY=PERCENT such as Seoul=10"),
            (["--tax", "Atlantis=5"], "--tax 'Atlantis=…': 'Atlantis' is not a city of the data (its cities: Jersey City)"),
        ] {
            for command in [["search"], ["listing", "6860"]] {
                let output = try CommandRunner.run(command + ["--data", Self.data] + arguments)
                #expect(output.status == 64, "\(command) \(arguments)")
                #expect(output.stderr.hasPrefix("staysearch: error: \(message)"), "\(output.stderr)")
                #expect(output.stderr.split(separator: "\n").count == 1)
            }
        }
    }
}
