import Foundation
import Hummingbird
import HummingbirdTesting
import StaySearch
import StaySearchAPI
import StaySearchTestSupport
import Testing

/// `GET /v1/price-calendar` on the shipped Antwerp sample: each day what `/v1/search` answers for that
/// check-in; the picture; the keys it refuses.
@Suite(.serialized) struct PriceCalendarRouteTests {
    /// The day's stays of a search answer: every total, in price order.
    static func totals(_ body: String) throws -> (total: Int, totals: [Double]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        return (try #require(object["total"] as? Int), results.compactMap { $0["total_price"] as? Double })
    }

    @Test(arguments: [("zuid", 3, "2024-07"), ("zuid", 7, "2024-08"), ("antwerp", 2, "2024-06")])
    func everyDayIsWhatTheSearchOfThatCheckInFinds(region: String, nights: Int, month: String) async throws {
        try await RouteTests.withClient { client in
            let answer = try await client.execute(uri: "/v1/price-calendar?region=\(region)&month=\(month)&nights=\(nights)&adults=2&max_price=400",
                                                  method: .get)
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: answer.body).utf8)) as? [String: Any])
            #expect(object["nights"] as? Int == nights && object["today"] as? String == "2024-06-29")
            let days = try #require(object["days"] as? [[String: Any]])
            #expect(days.count == (month == "2024-06" ? 30 : 31))
            var open = 0
            for day in days {
                let checkIn = try #require(day["checkin"] as? String)
                let status = try #require(day["status"] as? String)
                if checkIn < "2024-06-29" {
                    #expect(status == "before_today", "\(checkIn)")
                    continue
                }
                #expect(status == "open", "\(checkIn)")
                open += 1
                let checkOut = try #require(day["checkout"] as? String)
                let searched = try await client.execute(
                    uri: "/v1/search?region=\(region)&checkin=\(checkIn)&checkout=\(checkOut)&adults=2&max_price=400&sort=price&limit=1000", method: .get)
                let (total, totals) = try Self.totals(String(buffer: searched.body))
                #expect(day["count"] as? Int == total, "\(checkIn)")
                if total <= 1_000 {
                    #expect(day["lowest_total"] as? Double == totals.first, "\(checkIn)")
                    #expect(day["median_total"] as? Double == (totals.isEmpty ? nil : totals[(totals.count - 1) / 2]), "\(checkIn)")
                }
            }
            #expect(open >= 2)
        }
    }

    @Test func thePictureAndTheKeysItRefuses() async throws {
        try await RouteTests.withClient { client in
            for locale in ["en", "ko"] {
                let picture = try await client.execute(uri: "/v1/price-calendar.png?region=zuid&month=2024-07&locale=\(locale)", method: .get)
                #expect(picture.status == .ok && picture.headers[.contentType] == "image/png")
                #expect(picture.body.getBytes(at: 0, length: 4) == [0x89, 0x50, 0x4E, 0x47])
            }
            let sorted = try await client.execute(uri: "/v1/price-calendar?sort=price", method: .get)
            #expect(sorted.status == .badRequest && String(buffer: sorted.body).contains(#""code":"unknown_parameter""#))
            let both = try await client.execute(uri: "/v1/price-calendar?month=2024-07&checkin_from=2024-07-01&checkin_to=2024-07-03", method: .get)
            #expect(both.status == .badRequest && String(buffer: both.body).contains("give month or checkin_from and checkin_to, not both"))
            let long = try await client.execute(uri: "/v1/price-calendar?checkin_from=2024-07-01&checkin_to=2024-09-01", method: .get)
            #expect(long.status == .badRequest && String(buffer: long.body).contains("at most 62 days"))
            let region = try await client.execute(uri: "/v1/price-calendar?region=zuidd", method: .get)
            #expect(region.status == .badRequest && String(buffer: region.body).contains(#""code":"unknown_region""#))
            // Without a month: today's; without nights: 3; a month wholly past: every day before today.
            let plain = String(buffer: try await client.execute(uri: "/v1/price-calendar", method: .get).body)
            #expect(plain.hasPrefix(#"{"nights":3,"today":"2024-06-29","#) && plain.contains(#""checkin":"2024-06-01""#))
            let past = String(buffer: try await client.execute(uri: "/v1/price-calendar?month=2024-05", method: .get).body)
            #expect(past.components(separatedBy: #""status":"before_today""#).count == 32)
            let document = String(buffer: try await client.execute(uri: "/openapi.json", method: .get).body)
            #expect(document.contains(#""/v1/price-calendar":"#) && document.contains(#""/v1/price-calendar.png":"#))
        }
    }

    /// Every route's dates at their bounds, and the keys an unknown key's message names: those the route takes.
    @Test func datesAtTheirBoundsAndTheKeysNamedForAnUnknownOne() async throws {
        try await RouteTests.withClient { client in
            let unknown = String(buffer: try await client.execute(uri: "/v1/price-calendar?colour=red", method: .get).body)
            #expect(unknown.contains(#""code":"unknown_parameter""#) && unknown.contains(", month"), "\(unknown)")
            let picture = String(buffer: try await client.execute(uri: "/v1/price-calendar.png?colour=red", method: .get).body)
            #expect(picture.contains(", month, locale, currency"), "\(picture)")

            // The last month: a price calendar's stays would check out after 9999-12-31, a listing's grid is its own.
            let last = try await client.execute(uri: "/v1/price-calendar?month=9999-12", method: .get)
            #expect(last.status == .badRequest && String(buffer: last.body).contains("checks in by 9999-12-28 at the latest"), "\(String(buffer: last.body))")
            let beyond = try await client.execute(uri: "/v1/price-calendar?month=10000-01", method: .get)
            #expect(beyond.status == .badRequest)
            let grid = try await client.execute(uri: "/v1/listings/50904/calendar?month=9999-12&months=3", method: .get)
            #expect(grid.status == .ok && String(buffer: grid.body).components(separatedBy: #""month":"#).count == 2, "\(String(buffer: grid.body))")
            let flexible = try await client.execute(uri: "/v1/search?checkin=9999-12-29&checkout=9999-12-31&flexible_days=3", method: .get)
            #expect(flexible.status == .badRequest && String(buffer: flexible.body).contains("9999-12-31"))

            // A listing's calendar: today's month by default, the days before today past.
            let calendar = String(buffer: try await client.execute(uri: "/v1/listings/50904/calendar", method: .get).body)
            #expect(calendar.contains(#""month":"2024-06""#) && calendar.components(separatedBy: #""status":"past""#).count == 29, "\(calendar)")
        }
    }
}
