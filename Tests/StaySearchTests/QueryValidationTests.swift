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
}
