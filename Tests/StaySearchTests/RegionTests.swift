import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct RegionTests {
    let index: ListingIndex = {
        func listing(_ id: Int64, _ city: String, _ group: String, _ neighbourhood: String) -> ListingRecord {
            ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: city, neighbourhoodGroup: group, neighbourhood: neighbourhood),
                          roomType: "Private room", accommodates: 2, price: Money(major: 50))
        }
        let data = TestDataset(listings: [
            listing(1, "Zürich", "Kreis 1", "Altstadt"), listing(2, "Zürich", "Kreis 1", "Lindenhof"),
            listing(3, "Zürich", "Kreis 2", "Enge"), listing(4, "Antwerp", "", "Centrum"),
            listing(5, "Amsterdam", "", "Centrum"), listing(6, "Antwerp", "", "Zuid"), listing(7, "Antwerp", "", ""),
        ], nights: [])
        return data.makeIndex().index
    }()

    private func ids(_ region: String) throws -> [Int64] {
        try index.search(SearchQuery(region: region, limit: 100)).matches.map(\.id).sorted()
    }

    @Test func matchesIgnoringCaseAndDiacritics() throws {
        #expect(try ids("zurich") == [1, 2, 3])
        #expect(try ids("KREIS 1") == [1, 2])
        #expect(try ids("ENGE") == [3])
        #expect(try ids("antwerp") == [4, 6, 7])
    }

    @Test func pathsNarrowSharedNames() throws {
        #expect(try ids("Centrum") == [4, 5])
        #expect(try ids("Antwerp/Centrum") == [4])
        #expect(try ids("zurich/altstadt") == [1])          // the group between is skipped
        #expect(try ids("Zürich/Kreis 1/Lindenhof") == [2])
        #expect(throws: QueryError.self) { try ids("Amsterdam/Zuid") }
    }

    @Test func everyNodeCoversItsRows() {
        for (position, node) in index.regions.nodes.enumerated() {
            for row in node.rows {
                var current = Int(index.storage.regionNodes[row])
                var found = false
                while current >= 0 {
                    if current == position { found = true }
                    current = Int(index.regions.nodes[current].parent)
                }
                #expect(found, "row \(row) is in \(node.name)'s range but not under it")
            }
        }
        #expect(index.regions.nodes.filter { $0.level == .city }.map(\.listingCount).reduce(0, +) == index.count)
    }

    @Test func unknownNamesSuggestTheClosest() {
        #expect(throws: QueryError.unknownRegion("Altstad", suggestions: ["Altstadt"])) {
            try index.search(SearchQuery(region: "Altstad"))
        }
        let error = #expect(throws: QueryError.self) { try index.search(SearchQuery(region: "Lindenhoff")) }
        #expect(error?.description.contains("did you mean 'Lindenhof'") == true)
        #expect(index.regions.nodes(withNamesStartingWith: "KREIS").map { index.regions.nodes[$0].name } == ["Kreis 1", "Kreis 2"])
    }
}

@Suite struct ExtremeValueTests {
    /// Found by fuzzing: coordinates far outside the globe overflowed their conversion.
    @Test func absurdCoordinatesDoNotTrap() throws {
        var listing = ListingRecord(id: 1, name: "L", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                                    accommodates: 2, price: Money(major: 10))
        listing.latitude = 1e300
        listing.longitude = -.infinity
        let index = TestDataset(listings: [listing], nights: []).makeIndex().index
        #expect(index.latitude(ofRow: 0) == 200 && index.longitude(ofRow: 0) == 0)
    }

    /// Found by fuzzing: the largest rating an index holds overflowed the rating sort key.
    @Test func extremeRatingsAndCountsSort() throws {
        func listing(_ id: Int64, rating: Int32?, reviews: Int32) -> ListingRecord {
            ListingRecord(id: id, name: "L", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                          accommodates: 2, price: Money(major: 10), ratingHundredths: rating, reviewCount: reviews)
        }
        let data = TestDataset(listings: [
            listing(1, rating: 999_999_999, reviews: Int32.max), listing(2, rating: nil, reviews: 0),
            listing(3, rating: 500, reviews: 3), listing(4, rating: 0, reviews: Int32.max),
        ], nights: [])
        let index = data.makeIndex().index
        #expect(try index.search(SearchQuery(sort: .rating)).matches.map(\.id) == [1, 3, 4, 2])
        #expect(try index.search(SearchQuery(sort: .reviews)).matches.map(\.id) == [1, 4, 3, 2])
    }
}
