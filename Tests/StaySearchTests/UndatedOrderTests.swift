import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// Searches without dates, region or filters beyond guests and room type, answered from the order of
/// prices without dates: every answer the brute-force reference's and the scan's, field by field.
@Suite struct UndatedOrderTests {
    /// 6,000 generated listings (15 % priced only by their nights, whole-dollar prices: many ties broken by
    /// id), both pricing kinds, today before, on and past days of the calendar, guests from 1 to 9, each room
    /// type and a standard one the data lacks, price ranges, histogram ends, 1 to 1,000 bins, pages in both
    /// price orders past their first ties, and the `recommended` order (its page from rows by quality, or from
    /// every match when they are few).
    @Test(arguments: SyntheticDataset.Pricing.allCases)
    func answersFromTheOrderAreTheReferencesAndTheScans(pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 6_000, seed: 31, dayCount: 40, pricing: pricing)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        var random = SeededGenerator(seed: 17)
        let roomTypes: [String?] = [nil, nil, "Entire home/apt", "Private room", "Shared room", "Hotel room"]
        for queryNumber in 0..<60 {
            var query = SearchQuery(adults: random.pick([1, 1, 2, 2, 3, 4, 9]))
            query.children = random.pick([0, 0, 0, 1])
            query.roomType = random.pick(roomTypes)
            query.sort = [SortOrder.price, .recommended, .priceDescending, .price, .recommended][queryNumber % 5]
            query.today = random.pick([nil, synthetic.firstDay.advanced(by: -3), synthetic.firstDay,
                                       synthetic.firstDay.advanced(by: 12), synthetic.firstDay.advanced(by: 39),
                                       synthetic.firstDay.advanced(by: 45)])
            if random.chance(0.3) { query.maximumPrice = Money(major: random.pick([60, 150, 400])) }
            if random.chance(0.3) { query.minimumPrice = Money(major: random.pick([0, 40, 90, 1_000])) }
            if let low = query.minimumPrice, let high = query.maximumPrice, low > high { query.minimumPrice = nil }
            if random.chance(0.25) { query.histogramMaximum = Money(major: random.pick([100, 250])) }
            if random.chance(0.2) { query.histogramMinimum = Money(major: random.pick([20, 50])) }
            if let low = query.histogramMinimum, let high = query.histogramMaximum, low >= high { query.histogramMinimum = nil }
            query.bins = random.pick([1, 7, 30, 30, 1_000])
            query.limit = random.pick([0, 1, 5, 20, 40])
            query.offset = random.pick([0, 0, 3, 57])
            #expect(query.dependsOnlyOnPricesWithoutDates)
            let want = try ReferenceSearch.search(query, in: data)
            let scanned = try index.search(query, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: Int.max)
            // Half the populations are made ahead; the others in the background once asked for a second time
            // (and a `recommended` page of many matches its rows by quality once asked with its population).
            if queryNumber % 2 == 0 { index.prepareUndatedOrder(for: [query]) }
            for _ in 0..<(queryNumber % 2 == 0 ? 1 : 3) {
                let read = try index.search(query, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: 0)
                #expect(ReferenceAnswer(read) == want, "query \(queryNumber): \(query)")
                #expect(read == scanned, "query \(queryNumber): \(query)")
                index.undatedOrderCache.waitForBackgroundWork()
            }
            let dayOffset = max(0, query.today.map { synthetic.firstDay.distance(to: $0) } ?? 0)
            let roomCode = query.roomType.map { index.roomTypeNames.firstIndex(of: $0) ?? 256 } ?? -1
            #expect(index.undatedOrderCache.holds(dayOffset: dayOffset, guests: query.guests, roomCode: roomCode), "query \(queryNumber)")
            if query.sort == .recommended, query.limit > 0 {
                #expect(index.undatedOrderCache.holdsQualityOrder(dayOffset: dayOffset) || scanned.total * 8 < index.count,
                        "query \(queryNumber)")
            }
        }
    }

    /// The order follows today's prices: a listing priced only by its nights moves as the days pass, and
    /// the populations of many guests, kept a few at a time, give the same answers when asked again after
    /// others pushed them out. One search alone is scanned (the order costs more than a scan); the second is
    /// too, while its population is made in the background for the third.
    @Test func theOrderFollowsTodayAndPopulationsComeBack() throws {
        let synthetic = SyntheticDataset(listingCount: 2_000, seed: 37, dayCount: 30, pricing: .dynamic)
        let index = synthetic.makeIndex()
        var answers: [SearchResult] = []
        var queries: [SearchQuery] = []
        for round in 0..<2 {
            var position = 0
            for today in [0, 5, 29] {
                for adults in 1...6 {
                    var query = SearchQuery(adults: adults)
                    query.today = synthetic.firstDay.advanced(by: today)
                    query.limit = 30
                    let read = try index.search(query, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: 0)
                    index.undatedOrderCache.waitForBackgroundWork()
                    #expect(index.undatedOrderCache.holds(dayOffset: today, guests: adults, roomCode: -1) == (round == 1),
                            "today +\(today), \(adults) adults, round \(round)")
                    if round == 0 {
                        let scanned = try index.search(query, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: Int.max)
                        #expect(read == scanned, "today +\(today), \(adults) adults")
                        answers.append(read)
                        queries.append(query)
                    } else {
                        #expect(read == answers[position], "asked again: \(queries[position])")
                    }
                    position += 1
                }
            }
        }
    }

    /// A server keeps the populations it is asked for; when the day moves on, the first search of the new day
    /// for guests held the day before is scanned and has the new day's population made in the background, so
    /// the next reads it: no search of a new day waits for a sort of every row. Guests not held before still
    /// need a second search.
    @Test func aNewDaysFirstSearchHasTheDayBeforesPopulationsMade() throws {
        let synthetic = SyntheticDataset(listingCount: 3_000, seed: 41, dayCount: 30, pricing: .dynamic)
        let index = synthetic.makeIndex()
        func query(adults: Int, day: Int, sort: SortOrder = .price) -> SearchQuery {
            var query = SearchQuery(adults: adults)
            query.today = synthetic.firstDay.advanced(by: day)
            query.sort = sort
            return query
        }
        index.prepareUndatedOrder(for: [query(adults: 1, day: 3), query(adults: 2, day: 3, sort: .recommended)])
        #expect(index.undatedOrderCache.holds(dayOffset: 3, guests: 1, roomCode: -1))
        #expect(index.undatedOrderCache.holds(dayOffset: 3, guests: 2, roomCode: -1))
        #expect(index.undatedOrderCache.holdsQualityOrder(dayOffset: 3))
        for adults in [2, 1, 5] {
            let next = query(adults: adults, day: 4, sort: adults == 2 ? .recommended : .price)
            let scanned = try index.search(next, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: Int.max)
            for round in 0..<3 {
                let read = try index.search(next, threads: 1, minimumRowsPerPart: 1_000, minimumRowsForUndatedOrder: 0)
                #expect(read == scanned, "\(adults) adults, search \(round + 1)")
                index.undatedOrderCache.waitForBackgroundWork()
                #expect(index.undatedOrderCache.holds(dayOffset: 4, guests: adults, roomCode: -1) == (adults != 5 || round > 0),
                        "\(adults) adults, after search \(round + 1)")
            }
        }
        // The recommended page of the new day (every row matches) had its rows by quality made as well.
        #expect(index.undatedOrderCache.holdsQualityOrder(dayOffset: 4))
    }

    /// A query with anything more than guests, room type, price range, histogram and page is scanned.
    @Test func queriesWithMoreAreScanned() throws {
        let synthetic = SyntheticDataset(listingCount: 200, seed: 3, dayCount: 20, pricing: .calibrated)
        var plain = SearchQuery(adults: 2)
        #expect(plain.dependsOnlyOnPricesWithoutDates)
        plain.sort = .priceDescending
        #expect(plain.dependsOnlyOnPricesWithoutDates)
        var others: [SearchQuery] = []
        var query = SearchQuery(region: synthetic.listings[0].region.city)
        others.append(query)
        query = SearchQuery(checkIn: synthetic.firstDay, checkOut: synthetic.firstDay.advanced(by: 2))
        others.append(query)
        plain.sort = .recommended
        #expect(plain.dependsOnlyOnPricesWithoutDates)
        for sort in [SortOrder.rating, .reviews] {
            query = SearchQuery()
            query.sort = sort
            others.append(query)
        }
        query = SearchQuery()
        query.sort = .recommended
        query.near = GeoPoint(latitude: synthetic.listings[0].latitude, longitude: synthetic.listings[0].longitude)
        others.append(query)
        query = SearchQuery()
        query.bedrooms = 1
        others.append(query)
        query = SearchQuery()
        query.superhostsOnly = true
        others.append(query)
        query = SearchQuery()
        query.facets = [.roomType]
        others.append(query)
        for other in others { #expect(!other.dependsOnlyOnPricesWithoutDates, "\(other)") }
    }
}
