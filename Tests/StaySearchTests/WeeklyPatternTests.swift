import StayData
import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct WeeklyPatternTests {
    /// Weekend prices for months and weekend minimum stays cost a run or two, not two runs a week.
    @Test func weeklyCalendarsAreStoredAsPatterns() throws {
        let start = Day(iso: "2025-06-02")!     // a Monday
        let listing = ListingRecord(id: 1, name: "A", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                                    accommodates: 2, price: Money(major: 100))
        let nights = (0..<364).map { offset -> CalendarNight in
            let day = start.advanced(by: offset)
            let weekend = day.weekdayFromMonday >= 4 && day.weekdayFromMonday <= 5
            return CalendarNight(day: day, isAvailable: true, price: Money(major: weekend ? 130 : 100), minimumNights: weekend ? 2 : 1)
        }
        let data = TestDataset(listings: [listing], nights: nights.map { (1, $0) })
        let index = data.makeIndex().index
        #expect(index.nightPrices.runs.runCount == 1)
        #expect(index.stayRules.runCount == 1)
        #expect(try index.search(SearchQuery(checkIn: start.advanced(by: 4), checkOut: start.advanced(by: 11))).matches.first?.totalPrice
                == Money(major: 760))       // Fri 130, Sat 130, then five nights of 100
        #expect(try index.search(SearchQuery(checkIn: start.advanced(by: 4), checkOut: start.advanced(by: 5))).total == 0)  // 2-night minimum
        #expect(try index.search(SearchQuery(checkIn: start.advanced(by: 3), checkOut: start.advanced(by: 4))).total == 1)
    }

    /// A weekend uplift over a price that moves every week takes a weekly pattern a week: past a few
    /// such runs the row is stored densely (a stay is then priced without a binary search over runs);
    /// the same uplift over a price that moves every two months stays a handful of pattern runs.
    @Test(arguments: [(3, true), (8, false)])
    func manyWeeklyRunsAreStoredDensely(weeksPerPrice: Int, dense: Bool) throws {
        let start = Day(iso: "2025-06-02")!     // a Monday
        let listing = ListingRecord(id: 1, name: "A", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                                    accommodates: 2, price: Money(major: 100))
        let nights = (0..<364).map { offset -> CalendarNight in
            let day = start.advanced(by: offset)
            let weekend = day.weekdayFromMonday >= 4 && day.weekdayFromMonday <= 5
            let base = 100 + offset / (7 * weeksPerPrice)
            return CalendarNight(day: day, isAvailable: true, price: Money(major: Int64(weekend ? base + 30 : base)))
        }
        let data = TestDataset(listings: [listing], nights: nights.map { (1, $0) })
        let index = data.makeIndex().index
        #expect((index.nightPrices.denseRows == 1) == dense)
        #expect(index.nightPrices.runs.runCount == (dense ? 1 : 7))
        for checkIn in [0, 4, 17, 180, 357] {
            for length in [1, 3, 7] where checkIn + length <= 364 {
                let query = SearchQuery(checkIn: start.advanced(by: checkIn), checkOut: start.advanced(by: checkIn + length))
                #expect(ReferenceAnswer(try index.search(query)) == (try ReferenceSearch.search(query, in: data)), "\(query)")
            }
        }
    }

    /// The generator's streaming build agrees with the reference on its own calendars, flat and dynamic.
    @Test(arguments: 0..<4, SyntheticDataset.Pricing.allCases)
    func generatedIndexesAgreeWithTheReference(seed: Int, pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 400, seed: UInt64(seed), dayCount: 120, pricing: pricing)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        if pricing == .calibrated { #expect(index.nightPrices.runs.patterns.count > 0 && index.stayRules.patterns.count > 0) }
        var random = SeededGenerator(seed: UInt64(seed))
        let regions = synthetic.listings.flatMap(\.region.components)
        for _ in 0..<150 {
            var query = SearchQuery(region: random.chance(0.7) ? random.pick(regions) : nil, adults: random.pick([1, 2, 3]))
            if random.chance(0.85) {
                query.checkIn = synthetic.firstDay.advanced(by: Int.random(in: -2...118, using: &random))
                query.checkOut = query.checkIn!.advanced(by: random.pick([1, 2, 3, 5, 7, 10, 16]))
            }
            if random.chance(0.5) { query.maximumPrice = Money(major: random.pick([50, 100, 150, 300])) }
            query.sort = random.pick([SortOrder.price, .priceDescending, .rating, .reviews])
            query.limit = 10
            #expect(ReferenceAnswer(try index.search(query)) == (try ReferenceSearch.search(query, in: data)), "\(query)")
            // The same as flexible dates: ± days, and windows of consecutive or chosen weekdays' check-ins
            // (day-by-day prices take the sliding sums).
            guard let checkIn = query.checkIn, let checkOut = query.checkOut, checkIn >= synthetic.firstDay,
                  checkOut <= synthetic.firstDay.advanced(by: 120) else { continue }
            var flexible = query
            flexible.flexibleDays = random.pick([1, 3, 7])
            if flexible.candidateCheckIns.allSatisfy({ $0 >= synthetic.firstDay && $0.advanced(by: flexible.nights!) <= synthetic.firstDay.advanced(by: 120) }) {
                #expect(ReferenceAnswer(try index.search(flexible)) == (try ReferenceSearch.search(flexible, in: data)), "\(flexible)")
            }
            var window = query
            window.checkIn = nil
            window.checkOut = nil
            window.checkInFrom = checkIn
            window.checkInTo = checkIn.advanced(by: random.pick([2, 6, 13, 30]))
            window.windowNights = random.pick([1, 2, 3, 7])
            if random.chance(0.3) { window.checkInWeekdays = [random.pick(Weekday.allCases), random.pick(Weekday.allCases)] }
            // A window the weekdays leave without a check-in is refused by both, with the same error.
            #expect(Result { () throws(QueryError) in ReferenceAnswer(try index.search(window)) }.mapError(\.withoutSuggestions)
                    == Result { () throws(QueryError) in try ReferenceSearch.search(window, in: data) }.mapError(\.withoutSuggestions), "\(window)")
        }
    }

    @Test func generationIsDeterministic() {
        let first = SyntheticDataset(listingCount: 300, seed: 9)
        let second = SyntheticDataset(listingCount: 300, seed: 9)
        #expect(first.listings == second.listings)
        #expect(first.calendar(ofListingAt: 17) == second.calendar(ofListingAt: 17))
        #expect(SyntheticDataset(listingCount: 300, seed: 10).listings != first.listings)
        #expect(Set(first.listings.map(\.id)).count == 300)
        #expect(first.listings.contains { $0.region.city == "Zürich" } && first.listings.contains { $0.region.city == "São Paulo" })
    }

    /// Dynamic pricing changes the price most days (weekends dearer, a seasonal curve, city events, a
    /// last-minute discount) and leaves occupancy, stay rules and listings as the calibrated data has them.
    @Test func dynamicPricesChangeMostDays() {
        let calibrated = SyntheticDataset(listingCount: 200, seed: 4)
        let dynamic = SyntheticDataset(listingCount: 200, seed: 4, pricing: .dynamic)
        #expect(calibrated.listings == dynamic.listings)
        var changes = 0, nights = 0, weekendSum = 0.0, weekdaySum = 0.0, weekendCount = 0, weekdayCount = 0
        for position in 0..<200 {
            let flat = calibrated.calendar(ofListingAt: position)
            let priced = dynamic.calendar(ofListingAt: position)
            #expect(flat.map(\.isAvailable) == priced.map(\.isAvailable))
            #expect(flat.map(\.minimumNights) == priced.map(\.minimumNights))
            #expect(priced.allSatisfy { ($0.price?.minorUnits ?? 0) >= 1_000 && $0.price!.minorUnits % 100 == 0 })
            for (previous, night) in zip(priced, priced.dropFirst()) where previous.price != night.price { changes += 1 }
            nights += priced.count - 1
            let base = Double(priced.map { $0.price!.minorUnits }.reduce(0, +)) / Double(priced.count)
            for night in priced {
                let relative = Double(night.price!.minorUnits) / base
                if night.day.weekdayFromMonday == 4 || night.day.weekdayFromMonday == 5 {
                    weekendSum += relative
                    weekendCount += 1
                } else {
                    weekdaySum += relative
                    weekdayCount += 1
                }
            }
        }
        #expect(Double(changes) / Double(nights) > 0.6, "the price changed on \(changes) of \(nights) nights")
        let uplift = (weekendSum / Double(weekendCount)) / (weekdaySum / Double(weekdayCount)) - 1
        #expect(uplift > 0.08 && uplift < 0.3, "weekend uplift \(uplift)")
        #expect(dynamic.calendar(ofListingAt: 5) == SyntheticDataset(listingCount: 200, seed: 4, pricing: .dynamic).calendar(ofListingAt: 5))
    }
}
