import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// Scans over many blocks of rows against the brute-force reference: where the page passes over blocks
/// none of whose rows could enter it, and where the histogram is counted into price slots.
@Suite struct LargeScanTests {
    /// 12,500 generated listings (four blocks of 4,096 rows) with calibrated and dynamic prices, queries
    /// over every region and over one city, with dates and without, each order, pages of 1 to 40, on one thread and two, with the
    /// histogram from the values and from price slots (the `recommended` order then ranked from its upper tier):
    /// every answer the reference's.
    @Test(arguments: SyntheticDataset.Pricing.allCases)
    func pagesSkippingBlocksAgreeWithTheReference(pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 12_500, seed: 21, dayCount: 45, pricing: pricing)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        #expect(index.count > 3 * 4_096)
        var random = SeededGenerator(seed: 5)
        for queryNumber in 0..<30 {
            var query = SearchQuery(region: random.chance(0.25) ? synthetic.listings[0].region.city : nil, adults: random.pick([1, 2, 4]))
            if queryNumber % 4 != 3 {
                let checkIn = Int.random(in: 0...35, using: &random)
                query.checkIn = synthetic.firstDay.advanced(by: checkIn)
                query.checkOut = synthetic.firstDay.advanced(by: checkIn + random.pick([1, 2, 3, 7]))
            }
            if random.chance(0.3) { query.maximumPrice = Money(major: random.pick([80, 150, 400])) }
            if random.chance(0.2) { query.minimumPrice = Money(major: random.pick([40, 90])) }
            query.sort = [SortOrder.rating, .reviews, .price, .priceDescending, .distance, .recommended][queryNumber % 6]
            if query.sort == .distance { query.near = GeoPoint(latitude: synthetic.listings[7].latitude, longitude: synthetic.listings[7].longitude) }
            query.limit = random.pick([1, 5, 20, 40])
            query.offset = random.pick([0, 0, 3])
            let want = try ReferenceSearch.search(query, in: data)
            for (threads, slotRows) in [(1, Int.max), (2, Int.max), (1, 0), (2, 0)] {
                let got = ReferenceAnswer(try index.search(query, threads: threads, minimumRowsPerPart: 1_000, minimumRowsForPriceSlots: slotRows))
                #expect(got == want, "query \(queryNumber), \(threads) threads, slots from \(slotRows) rows: \(query)")
            }
        }
    }

    /// Long stays (10 to 60 nights) over 12,500 generated listings with dynamic and calibrated prices: where
    /// a block's day-by-day rows have their stays summed all at once (16 nights and more, candidates enough)
    /// and where they are summed row by row (few candidates: many guests, a price range); every region and
    /// one city, one thread and two, the histogram from the values and from price slots: every answer the
    /// reference's.
    @Test(arguments: SyntheticDataset.Pricing.allCases)
    func longStaysAgreeWithTheReference(pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 12_500, seed: 23, dayCount: 100, pricing: pricing)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        if pricing == .dynamic { #expect(index.nightPrices.denseRows > index.count * 9 / 10) }
        var random = SeededGenerator(seed: 17)
        var found = 0
        for queryNumber in 0..<16 {
            var query = SearchQuery(region: queryNumber % 4 == 1 ? synthetic.listings[0].region.city : nil,
                                    adults: queryNumber % 4 == 3 ? 8 : random.pick([1, 2]))
            let length = [10, 16, 17, 21, 28, 30, 45, 60][queryNumber % 8]
            let checkIn = Int.random(in: 0...(100 - length), using: &random)
            query.checkIn = synthetic.firstDay.advanced(by: checkIn)
            query.checkOut = synthetic.firstDay.advanced(by: checkIn + length)
            if queryNumber % 5 == 2 { query.maximumPrice = Money(major: random.pick([80, 150])) }
            query.sort = [SortOrder.price, .priceDescending, .rating, .recommended][queryNumber % 4]
            query.limit = random.pick([5, 20])
            let want = try ReferenceSearch.search(query, in: data)
            found += want.total
            for (threads, slotRows) in [(1, Int.max), (2, Int.max), (1, 0), (2, 0)] {
                let got = ReferenceAnswer(try index.search(query, threads: threads, minimumRowsPerPart: 1_000, minimumRowsForPriceSlots: slotRows))
                #expect(got == want, "query \(queryNumber), \(threads) threads, slots from \(slotRows) rows: \(query)")
            }
        }
        #expect(found > 1_000, "the long stays found too few listings to test")
    }

    /// Flexible dates over consecutive check-ins (± days and windows, with and without weekdays) on generated
    /// listings whose words are all day-by-day rows, where each row's cheapest stay is worked out a word at a
    /// time, and on calibrated ones: every answer the reference's, one thread and two.
    @Test(arguments: SyntheticDataset.Pricing.allCases)
    func flexibleDatesOverWordsAgreeWithTheReference(pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 3_000, seed: 23, dayCount: 50, pricing: pricing)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        if pricing == .dynamic { #expect(index.nightPrices.denseRows > index.count * 9 / 10) }
        var random = SeededGenerator(seed: 9)
        for queryNumber in 0..<24 {
            var query = SearchQuery(region: random.chance(0.2) ? synthetic.listings[0].region.city : nil, adults: random.pick([1, 2, 4]))
            let length = random.pick([1, 2, 3, 7])
            if queryNumber % 3 == 2 {
                query.checkInFrom = synthetic.firstDay.advanced(by: Int.random(in: 0...10, using: &random))
                query.checkInTo = query.checkInFrom!.advanced(by: random.pick([5, 20, 30]))
                query.windowNights = length
                if random.chance(0.3) { query.checkInWeekdays = [.friday, .saturday] }
            } else {
                query.checkIn = synthetic.firstDay.advanced(by: Int.random(in: 4...36, using: &random))
                query.checkOut = query.checkIn!.advanced(by: length)
                query.flexibleDays = random.pick([1, 2, 3])
            }
            if random.chance(0.3) { query.maximumPrice = Money(major: random.pick([80, 150, 400])) }
            query.sort = [SortOrder.price, .rating, .priceDescending][queryNumber % 3]
            query.limit = random.pick([5, 20])
            let want = try ReferenceSearch.search(query, in: data)
            for threads in [1, 2] {
                let got = ReferenceAnswer(try index.search(query, threads: threads, minimumRowsPerPart: 1_000))
                #expect(got == want, "query \(queryNumber), \(threads) threads: \(query)")
            }
        }
    }

    /// Calendars far dearer than the listings' own prices (which the engine samples to decide whether
    /// to count slots): the stays' 95th percentile is past the slots, and the scan is made again keeping
    /// the values. Answers are the reference's all the same.
    @Test func pricesPastTheSlotsAreScannedAgain() throws {
        let synthetic = SyntheticDataset(listingCount: 3_000, seed: 8, dayCount: 30)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { night in
                var night = night
                if let price = night.price, position % 10 != 0 { night.price = Money(minorUnits: price.minorUnits * 60) }
                return (listing.id, night)
            })
        }
        var listings = synthetic.listings
        for position in listings.indices { listings[position].price = Money(major: 80) }
        let data = TestDataset(listings: listings, nights: nights)
        let index = data.makeIndex().index
        #expect(index.sampledHighPrice == 8_000)
        for (checkIn, length) in [(0, 1), (3, 4), (10, 2), (nil, nil)] as [(Int?, Int?)] {
            var query = SearchQuery(adults: 1)
            if let checkIn, let length {
                query.checkIn = synthetic.firstDay.advanced(by: checkIn)
                query.checkOut = synthetic.firstDay.advanced(by: checkIn + length)
            }
            let want = try ReferenceSearch.search(query, in: data)
            for threads in [1, 2] {
                let got = ReferenceAnswer(try index.search(query, threads: threads, minimumRowsPerPart: 500, minimumRowsForPriceSlots: 0))
                #expect(got == want, "\(threads) threads: \(query)")
            }
        }
    }
}
