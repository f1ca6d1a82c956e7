import StaySearch
import StaySearchTestSupport
import Testing

/// The recommended order on more matches than one thread ranks alone (parts of 65,536 values): the page is
/// the same whatever the threads, and it is the order of the documented score.
@Suite struct RecommendedOrderTests {
    /// 150,000 listings in three cities, ratings, reviews and prices spread so that scores differ and tie.
    static let listings: [ListingRecord] = {
        var random = SeededGenerator(seed: 29)
        let cities = ["Seoul", "Busan", "Incheon"]
        var listings: [ListingRecord] = []
        for id in 1...150_000 {
            var listing = ListingRecord(
                id: Int64(id), name: "L\(id)", region: RegionPath(city: cities[id % 3], neighbourhood: "N\(id % 40)"),
                roomType: "Entire home/apt", accommodates: Int.random(in: 1...6, using: &random),
                price: Money(minorUnits: Int64.random(in: 20...400, using: &random) * 100),
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
        let one = try Self.index.search(query, threads: 1)
        let two = try Self.index.search(query, threads: 2)
        #expect(one.total == 150_000)   // two parts of at least 65,536 values each
        #expect(one.matches.map(\.id) == two.matches.map(\.id) && one.matches.count == 30)
        // The page is in the order of the score as the reference computes it from the listings.
        let matches = Self.listings.filter { $0.accommodates >= 1 }.map { (listing: $0, value: $0.price!.minorUnits) }
        let scores = ReferenceSearch.recommendedScores(matches, query: query, data: TestDataset(listings: Self.listings, nights: []))
        let ranked = matches.map(\.listing.id).sorted { (-scores[$0]!, $0) < (-scores[$1]!, $1) }
        #expect(Array(ranked.dropFirst(5).prefix(30)) == one.matches.map(\.id))
    }
}
