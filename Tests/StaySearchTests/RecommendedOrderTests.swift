import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The recommended order on more matches than one thread ranks alone (parts of 65,536 values): the page is
/// the same whatever the threads, and it is the order of the documented score.
@Suite struct RecommendedOrderTests {
    /// 150,000 listings in three cities, ratings, reviews and prices (to the cent) spread so that scores differ and tie.
    static let listings: [ListingRecord] = {
        var random = SeededGenerator(seed: 29)
        let cities = ["Seoul", "Busan", "Incheon"]
        var listings: [ListingRecord] = []
        for id in 1...150_000 {
            var listing = ListingRecord(
                id: Int64(id), name: "L\(id)", region: RegionPath(city: cities[id % 3], neighbourhood: "N\(id % 40)"),
                roomType: "Entire home/apt", accommodates: Int.random(in: 1...6, using: &random),
                price: Money(minorUnits: Int64.random(in: 2_000...40_000, using: &random)),
                ratingHundredths: random.chance(0.2) ? nil : Int32.random(in: 300...500, using: &random),
                reviewCount: Int32.random(in: 0...300, using: &random),
                latitude: 37.5 + Double(id % 1000) / 10_000, longitude: 127 + Double(id % 777) / 10_000)
            listing.recentReviewCount = Int32.random(in: 0...listing.reviewCount, using: &random)
            listing.isSuperhost = random.chance(0.25)
            listings.append(listing)
        }
        return listings
    }()
    static let index = IndexBuilder.build(listings: listings, firstDay: Day(iso: "2024-07-01")!, dayCount: 10) { _ in [] }

    @Test(arguments: [false, true])
    func twoThreadsRankAsOne(near: Bool) throws {
        var query = SearchQuery(adults: 1, sort: .recommended, limit: 30, offset: 5)
        if near { query.near = GeoPoint(latitude: 37.55, longitude: 127.03) }
        // The scan's ranking (a search of nothing but prices without dates may be read off their order instead).
        let one = try Self.index.search(query, threads: 1, minimumRowsPerPart: 32_768, minimumRowsForUndatedOrder: Int.max)
        let two = try Self.index.search(query, threads: 2, minimumRowsPerPart: 32_768, minimumRowsForUndatedOrder: Int.max)
        #expect(one.total == 150_000)   // two parts of at least 65,536 values each
        #expect(one.matches.map(\.id) == two.matches.map(\.id) && one.matches.count == 30)
        // The page is in the order of the score as the reference computes it from the listings.
        let matches = Self.listings.filter { $0.accommodates >= 1 }.map { (listing: $0, value: $0.price!.minorUnits) }
        let scores = ReferenceSearch.recommendedScores(matches, query: query, data: TestDataset(listings: Self.listings, nights: []))
        let ranked = matches.map(\.listing.id).sorted { (-scores[$0]!, $0) < (-scores[$1]!, $1) }
        #expect(Array(ranked.dropFirst(5).prefix(30)) == one.matches.map(\.id))
    }

    /// The page of a query with a price range: whole units (the median read from the price slots the scan
    /// counted) and units with cents (the median by selection), with the candidates picked by the portable
    /// kernel and by the fastest, against the reference's scores.
    @Test(arguments: [false, true])
    func priceRangesRankAsTheReference(portable: Bool) throws {
        staysearch_candidates_use_portable(portable ? 1 : 0)
        defer { staysearch_candidates_use_portable(0) }
        let data = TestDataset(listings: Self.listings, nights: [])
        for (minimum, maximum) in [(Int64(6_000), Int64(25_000)), (5_050, 30_075), (0, 9_900)] {
            for near in [false, true] {
                var query = SearchQuery(adults: 2, sort: .recommended, limit: 25, offset: 3)
                query.minimumPrice = Money(minorUnits: minimum)
                query.maximumPrice = Money(minorUnits: maximum)
                if near { query.near = GeoPoint(latitude: 37.56, longitude: 127.05) }
                let matches = Self.listings.filter { $0.accommodates >= 2 && (minimum...maximum).contains($0.price!.minorUnits) }
                    .map { (listing: $0, value: $0.price!.minorUnits) }
                let scores = ReferenceSearch.recommendedScores(matches, query: query, data: data)
                let ranked = matches.map(\.listing.id).sorted { (-scores[$0]!, $0) < (-scores[$1]!, $1) }
                for threads in [1, 2] {
                    let got = try Self.index.search(query, threads: threads, minimumRowsPerPart: 32_768, minimumRowsForUndatedOrder: Int.max)
                    #expect(got.total == matches.count)
                    #expect(got.matches.map(\.id) == Array(ranked.dropFirst(3).prefix(25)), "\(minimum)–\(maximum), near \(near), \(threads) threads")
                }
            }
        }
    }

    /// Matches kept with their rows rather than counted into price slots (a smaller scan's way): the median
    /// found in the counting pass of the histogram's high end ranks as the reference — every listing and
    /// one neighbourhood (under 4,096 matches), with and without a price range, prices to the cent and in
    /// whole units, one thread and two — and the histogram is the one the price order builds on its own.
    @Test(arguments: [false, true])
    func theMedianFoundWithTheHistogramRanksAsTheReference(wholeUnits: Bool) throws {
        let listings = wholeUnits ? Self.wholeUnitListings : Self.listings
        let index = wholeUnits ? Self.wholeUnitIndex : Self.index
        let data = TestDataset(listings: listings, nights: [])
        let ranges: [(Int64?, Int64?)] = [(nil, nil), (6_000, 25_000), (5_050, 30_075), (0, 9_900), (39_000, nil), (nil, 2_500)]
        for region in [nil, "N7"] as [String?] {
            for (minimum, maximum) in ranges {
                var query = SearchQuery(adults: 2, sort: .recommended, limit: 25, offset: 3)
                query.region = region
                query.minimumPrice = minimum.map { Money(minorUnits: $0) }
                query.maximumPrice = maximum.map { Money(minorUnits: $0) }
                let matches = listings.filter { listing in
                    let price = listing.price!.minorUnits
                    return listing.accommodates >= 2 && (region == nil || listing.region.neighbourhood == region)
                        && price >= (minimum ?? 0) && price <= (maximum ?? Int64.max)
                }.map { (listing: $0, value: $0.price!.minorUnits) }
                let scores = ReferenceSearch.recommendedScores(matches, query: query, data: data)
                let ranked = matches.map(\.listing.id).sorted { (-scores[$0]!, $0) < (-scores[$1]!, $1) }
                var byPrice = query
                byPrice.sort = .price
                for threads in [1, 2] {
                    let got = try index.search(query, threads: threads, minimumRowsPerPart: 32_768, minimumRowsForPriceSlots: Int.max,
                                               minimumRowsForUndatedOrder: Int.max)
                    let priced = try index.search(byPrice, threads: threads, minimumRowsPerPart: 32_768, minimumRowsForPriceSlots: Int.max,
                                               minimumRowsForUndatedOrder: Int.max)
                    let label = "\(region ?? "everywhere"), \(minimum.map(String.init) ?? "–")…\(maximum.map(String.init) ?? "–"), \(threads) threads"
                    #expect(got.total == matches.count, "\(label)")
                    #expect(got.matches.map(\.id) == Array(ranked.dropFirst(3).prefix(25)), "\(label)")
                    #expect(got.histogram == priced.histogram, "\(label)")
                }
            }
        }
    }

    /// Each row's quality as the score defines it, with the frozen cities' means and with a city's mean
    /// changed (as a live index's edits move it), asked for in turns so that the cache is both hit and
    /// replaced.
    @Test func qualitiesFollowAChangedCityMean() {
        let index = Self.index
        func expected(_ changed: [String: Int64]) -> [Int32] {
            (0..<index.count).map { row in
                let listing = index.fullListing(atRow: row)
                let mean = changed[listing.region.city] ?? index.cityRatings[listing.region.city]?.meanHundredths ?? 0
                return Int32(RecommendedScore.quality(
                    ratingHundredths: listing.ratingHundredths.map(Int64.init), reviews: Int64(listing.reviewCount),
                    recentReviews: Int64(listing.recentReviewCount), isSuperhost: listing.isSuperhost,
                    cityMeanHundredths: mean))
            }
        }
        let frozen = expected([:])
        let busan = expected(["Busan": 250])
        let seoul = expected(["Seoul": 480, "Incheon": 0])
        #expect(busan != frozen && seoul != frozen)
        let turns: [[String: Int64]] = [[:], ["Busan": 250], ["Busan": 250], [:], ["Seoul": 480, "Incheon": 0], ["Busan": 250]]
        for (round, changed) in turns.enumerated() {
            let want = changed.isEmpty ? frozen : changed["Busan"] != nil ? busan : seoul
            #expect(index.qualities(changedMeans: changed) == want, "round \(round): \(changed)")
        }
    }

    /// 150,000 listings priced in whole units: a large scan's `recommended` page is ranked from the upper
    /// tier of qualities it kept, or scanned again keeping every match when the tier cannot tell it.
    static let wholeUnitListings: [ListingRecord] = listings.map { listing in
        var listing = listing
        listing.price = Money(minorUnits: listing.price!.minorUnits / 100 * 100)
        return listing
    }
    static let wholeUnitIndex = IndexBuilder.build(listings: wholeUnitListings, firstDay: Day(iso: "2024-07-01")!, dayCount: 10) { _ in [] }
    /// The same with every superhost (most of the upper tier) at $400 a night: their price parts sink them
    /// below cheaper listings outside the tier, which the page must then hold.
    static let dearTierListings: [ListingRecord] = wholeUnitListings.map { listing in
        var listing = listing
        if listing.isSuperhost { listing.price = Money(minorUnits: 40_000) }
        return listing
    }
    static let dearTierIndex = IndexBuilder.build(listings: dearTierListings, firstDay: Day(iso: "2024-07-01")!, dayCount: 10) { _ in [] }

    /// Broad queries (the tier tells the page), narrow ones (too few tier matches: ranked from every match,
    /// which the scan kept) and a tier priced out of the page (scanned again), one thread and two, against the
    /// reference's scores; the three outcomes are seen.
    @Test func theUpperTierRanksAsEveryMatch() throws {
        let query = SearchQuery(adults: 1, sort: .recommended)
        #expect(Self.wholeUnitIndex.canRankRecommendedByTier(query, countsSlots: true))
        #expect(!Self.index.canRankRecommendedByTier(query, countsSlots: true) && !Self.wholeUnitIndex.canRankRecommendedByTier(query, countsSlots: false))
        let answered = TierOutcomes.shared.answered.load(ordering: .relaxed)
        let scannedAgain = TierOutcomes.shared.scannedAgain.load(ordering: .relaxed)
        let rankedFromEveryMatch = TierOutcomes.shared.rankedFromEveryMatch.load(ordering: .relaxed)
        let ranges: [(Int64?, Int64?)] = [(nil, nil), (6_000, 25_000), (nil, 9_900), (39_900, 40_000), (20_000, 20_000), (nil, 2_100),
                                          (15_000, 15_400), (8_000, 8_100), (30_000, 31_000)]
        for (name, listings, index) in [("whole units", Self.wholeUnitListings, Self.wholeUnitIndex),
                                        ("dear tier", Self.dearTierListings, Self.dearTierIndex)] {
            let data = TestDataset(listings: listings, nights: [])
            for (minimum, maximum) in ranges {
                for adults in [1, 3, 6] {
                    var query = SearchQuery(adults: adults, sort: .recommended, limit: 25, offset: 3)
                    query.minimumPrice = minimum.map { Money(minorUnits: $0) }
                    query.maximumPrice = maximum.map { Money(minorUnits: $0) }
                    let matches = listings.filter { listing in
                        let price = listing.price!.minorUnits
                        return listing.accommodates >= adults && price >= (minimum ?? 0) && price <= (maximum ?? Int64.max)
                    }.map { (listing: $0, value: $0.price!.minorUnits) }
                    let scores = ReferenceSearch.recommendedScores(matches, query: query, data: data)
                    let ranked = matches.map(\.listing.id).sorted { (-scores[$0]!, $0) < (-scores[$1]!, $1) }
                    for threads in [1, 2] {
                        let got = try index.search(query, threads: threads, minimumRowsPerPart: 32_768, minimumRowsForUndatedOrder: Int.max)
                        #expect(got.total == matches.count)
                        #expect(got.matches.map(\.id) == Array(ranked.dropFirst(3).prefix(25)),
                                "\(minimum ?? -1)–\(maximum ?? -1), \(adults) adults, \(threads) threads, \(name)")
                    }
                    // Read off the order of the prices without dates: the same page.
                    index.prepareUndatedOrder(for: [query])
                    let read = try index.search(query, threads: 1)
                    #expect(read.total == matches.count)
                    #expect(read.matches.map(\.id) == Array(ranked.dropFirst(3).prefix(25)),
                            "\(minimum ?? -1)–\(maximum ?? -1), \(adults) adults, from the order, \(name)")
                }
            }
        }
        #expect(TierOutcomes.shared.answered.load(ordering: .relaxed) > answered)
        #expect(TierOutcomes.shared.scannedAgain.load(ordering: .relaxed) > scannedAgain)
        #expect(TierOutcomes.shared.rankedFromEveryMatch.load(ordering: .relaxed) > rankedFromEveryMatch)
    }
}
