import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct StayQuoteTests {
    /// A quote is bookable exactly when search finds the stay, and its total is the reference's.
    @Test(arguments: 0..<25)
    func quotesAgreeWithTheReference(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 700)
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed))
        var calendars: [Int64: [Day: CalendarNight]] = [:]
        for (id, night) in data.nights where calendars[id]?[night.day] == nil { calendars[id, default: [:]][night.day] = night }
        #expect(!data.listings.isEmpty, "seed \(seed) makes no listing: nothing would be checked")
        for _ in 0..<60 {
            let listing = try #require(data.listings.randomElement(using: &random))
            let row = index.row(ofListingID: listing.id)!
            let checkIn = TestDataset.calendarStart.advanced(by: Int.random(in: -3...84, using: &random))
            let checkOut = checkIn.advanced(by: random.pick([1, 2, 3, 5, 8]))
            let guests = random.pick([1, 2, 4])
            let quote = index.quote(row: row, checkIn: checkIn, checkOut: checkOut, guests: guests)

            // The reference: every night's price and status straight from the calendar rows.
            var expectedTotal: Int64 = 0
            var allPriced = true
            var day = checkIn
            var expectedStatuses: [StayQuote.NightStatus] = []
            while day < checkOut {
                if let night = calendars[listing.id]?[day] {
                    if let price = night.price ?? listing.price {
                        expectedTotal += price.minorUnits
                        expectedStatuses.append(night.isAvailable ? .available : .booked)
                    } else {
                        allPriced = false
                        expectedStatuses.append(.unpriced)
                    }
                } else {
                    // Without a row: a day the data's calendars cover has no calendar row; any other is outside.
                    allPriced = false
                    let covered = day >= index.firstDay && day < index.firstDay.advanced(by: index.dayCount)
                    expectedStatuses.append(covered ? .noCalendarRow : .outsideCalendar)
                }
                day = day.advanced(by: 1)
            }
            #expect(quote.nights.map(\.status) == expectedStatuses)
            #expect(quote.total == (allPriced ? Money(minorUnits: expectedTotal) : nil))
            let query = SearchQuery(region: listing.region.components.last, checkIn: checkIn, checkOut: checkOut, adults: guests, limit: 1_000)
            let found = try index.search(query).matches.contains { $0.id == listing.id }
            #expect(quote.isBookable == found, "\(listing.id) \(checkIn)–\(checkOut): \(quote.problems)")
        }
    }

    @Test func explainsEveryProblem() {
        let start = Day(iso: "2025-03-01")!
        let listing = ListingRecord(id: 9, name: "Q", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                                    accommodates: 2, price: nil)
        let nights = [
            CalendarNight(day: start, isAvailable: true, price: Money(major: 80), minimumNights: 3, maximumNights: 3),
            CalendarNight(day: start.advanced(by: 1), isAvailable: false, price: Money(major: 90)),
            CalendarNight(day: start.advanced(by: 2), isAvailable: true, price: nil),
        ]
        let index = TestDataset(listings: [listing], nights: nights.map { (9, $0) }).makeIndex().index
        let quote = index.quote(row: 0, checkIn: start, checkOut: start.advanced(by: 4), guests: 3)
        #expect(quote.nights.map(\.status) == [.available, .booked, .unpriced, .outsideCalendar])
        #expect(quote.nights.map(\.price) == [Money(major: 80), Money(major: 90), nil, nil])
        #expect(quote.total == nil && !quote.isBookable)
        #expect(quote.problems.map(\.description) == [
            "the night of 2025-03-02 is booked", "the night of 2025-03-03 is unpriced",
            "the night of 2025-03-04 is outside the calendar",
            "a stay checking in that day may be at most 3 nights (this one is 4)", "3 guests is more than the 2 the listing takes",
        ])
        let good = index.quote(row: 0, checkIn: start, checkOut: start.advanced(by: 1), guests: 2)
        #expect(good.problems == [.tooFewNights(minimum: 3, nights: 1)])
        #expect(good.total == Money(major: 80) && good.averageNightlyPrice == Money(major: 80))
    }
}
