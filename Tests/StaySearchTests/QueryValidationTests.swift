import StaySearch
import Testing

@Suite struct QueryValidationTests {
    private let day = Day(iso: "2024-07-12")!

    @Test func rejectsEveryBadInputOfTheSpec() {
        let bad: [(SearchQuery, String)] = [
            (SearchQuery(checkIn: day, checkOut: day), "must be after checkin"),
            (SearchQuery(checkIn: day, checkOut: day.advanced(by: -1)), "must be after checkin"),
            (SearchQuery(checkIn: day), "checkin given without checkout"),
            (SearchQuery(checkOut: day), "checkout given without checkin"),
            (SearchQuery(minimumPrice: Money(major: 200), maximumPrice: Money(major: 100)), "above max price"),
            (SearchQuery(adults: 0), "adults must be at least 1"),
            (SearchQuery(children: -1), "children must be 0 or more"),
            (SearchQuery(infants: 6), "infants must be from 0 to 5"),
            (SearchQuery(infants: -1), "infants must be from 0 to 5"),
            (SearchQuery(limit: 1_001), "limit must be from 0 to 1000"),
            (SearchQuery(limit: -1), "limit must be from 0 to 1000"),
            (SearchQuery(offset: -3), "offset must be from 0"),
            (SearchQuery(bins: 0), "bins must be from 1 to 1000"),
            (SearchQuery(histogramMinimum: Money(major: 10), histogramMaximum: Money(major: 10)), "hist max 10.00 must be above"),
            (SearchQuery(region: "  "), "region is empty"),
        ]
        for (query, message) in bad {
            #expect(throws: QueryError.self) { try query.validate() }
            do { try query.validate() } catch {
                #expect(error.description.contains(message), "\(error.description) should say \(message)")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(throws: QueryError.unknownSort("cheapest")) { try SortOrder(parsing: "cheapest") }
    }

    @Test func acceptsTheEdges() throws {
        try SearchQuery(checkIn: day, checkOut: day.advanced(by: 1), adults: 1, infants: 5, minimumPrice: Money(major: 0),
                        maximumPrice: Money(major: 0), limit: 0, bins: 1).validate()
        try SearchQuery(limit: 1_000, offset: 1_000_000, bins: 1_000).validate()
    }

    @Test func flexibleDatesRejectWhatCannotBeAStay() {
        func query(_ change: (inout SearchQuery) -> Void) -> SearchQuery {
            var query = SearchQuery()
            change(&query)
            return query
        }
        let august = Day(iso: "2024-08-01")!
        let bad: [(SearchQuery, String)] = [
            (query { $0.flexibleDays = 3 }, "flexible days needs checkin and checkout"),
            (query { $0.checkIn = day; $0.checkOut = day.advanced(by: 2); $0.flexibleDays = 8 }, "flexible days must be from 0 to 7"),
            (query { $0.checkIn = day; $0.checkOut = day.advanced(by: 2); $0.flexibleDays = -1 }, "flexible days must be from 0 to 7"),
            (query { $0.checkInFrom = august; $0.windowNights = 7 }, "checkin to is missing"),
            (query { $0.checkInTo = august; $0.windowNights = 7 }, "checkin from is missing"),
            (query { $0.checkInFrom = august; $0.checkInTo = august }, "nights is missing"),
            (query { $0.checkInFrom = august; $0.checkInTo = august.advanced(by: -1); $0.windowNights = 7 }, "is before checkin from"),
            (query { $0.checkInFrom = august; $0.checkInTo = august.advanced(by: 62); $0.windowNights = 7 }, "at most 62 days (got 63)"),
            (query { $0.checkInFrom = august; $0.checkInTo = august.advanced(by: 30); $0.windowNights = 0 }, "nights must be from 1 to 365"),
            (query { $0.checkInFrom = august; $0.checkInTo = august.advanced(by: 30); $0.windowNights = 366 }, "nights must be from 1 to 365"),
            (query { $0.checkInFrom = august; $0.checkInTo = august; $0.windowNights = 2; $0.checkIn = day; $0.checkOut = day.advanced(by: 1) },
             "not both"),
            (query { $0.checkInWeekdays = [.friday] }, "checkin weekdays needs a window"),
            // 2024-08-01 is a Thursday: a one-day window has no Friday.
            (query { $0.checkInFrom = august; $0.checkInTo = august; $0.windowNights = 2; $0.checkInWeekdays = [.friday] },
             "no day from 2024-08-01 to 2024-08-01 is a fri"),
        ]
        for (query, message) in bad {
            #expect(throws: QueryError.self) { try query.validate() }
            do { try query.validate() } catch {
                #expect(error.description.contains(message), "\(error.description) should say \(message)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test func flexibleDatesListTheirCheckIns() throws {
        var weekend = SearchQuery()
        weekend.checkInFrom = Day(iso: "2024-03-01")!
        weekend.checkInTo = Day(iso: "2024-03-31")!
        weekend.windowNights = 2
        weekend.checkInWeekdays = [.friday]
        try weekend.validate()
        #expect(weekend.candidateCheckIns.map(\.description) == ["2024-03-01", "2024-03-08", "2024-03-15", "2024-03-22", "2024-03-29"])
        #expect(weekend.nights == 2 && weekend.isFlexible)
        var shifted = SearchQuery(checkIn: day, checkOut: day.advanced(by: 3))
        shifted.flexibleDays = 2
        try shifted.validate()
        #expect(shifted.candidateCheckIns.map(\.description) == ["2024-07-10", "2024-07-11", "2024-07-12", "2024-07-13", "2024-07-14"])
        #expect(shifted.nights == 3)
        #expect(SearchQuery(checkIn: day, checkOut: day.advanced(by: 3)).candidateCheckIns == [day])
        #expect(Weekday(name: "FRI") == .friday && Weekday(name: "saturday") == .saturday && Weekday(name: "fr") == nil)
        #expect(Weekday(of: day) == .friday)
    }
}
