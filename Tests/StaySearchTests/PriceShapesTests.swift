import StayData
import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct PriceShapesTests {
    static let start = Day(iso: "2025-06-02")!     // a Monday

    static func listing(_ id: Int64) -> ListingRecord {
        ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                      accommodates: 2, price: Money(major: 100))
    }

    /// `days` free nights of listing `id` priced `price(dayOffset)` whole units.
    static func nights(_ id: Int64, days: Int, price: (Int) -> Int64) -> [(listingID: Int64, night: CalendarNight)] {
        (0..<days).map { offset in
            (id, CalendarNight(day: start.advanced(by: offset), isAvailable: true, price: Money(major: price(offset))))
        }
    }

    /// Whether day offset `offset` is a Friday or Saturday night.
    static func isWeekend(_ offset: Int) -> Bool { offset % 7 == 4 || offset % 7 == 5 }

    /// Every stay of 1–9 nights from every check-in, and a few long ones, against the reference.
    static func expectEveryStayAgrees(_ index: ListingIndex, _ data: TestDataset, days: Int) throws {
        for checkIn in 0..<(days - 1) {
            for length in [1, 2, 3, 5, 9, 30, days - checkIn] where checkIn + length <= days {
                var query = SearchQuery(checkIn: start.advanced(by: checkIn), checkOut: start.advanced(by: checkIn + length))
                query.limit = 1_000
                #expect(ReferenceAnswer(try index.search(query)) == (try ReferenceSearch.search(query, in: data)), "\(query)")
            }
        }
    }

    /// Rows whose prices change on the same days share a shape whatever their prices; a weekend pattern
    /// over the same seasons is another shape; a price that changes most days is read row by row. Stays
    /// inside a season, across a season's edge and across the whole calendar are priced as the reference
    /// prices them.
    @Test func rowsWhosePricesChangeOnTheSameDaysShareAShape() throws {
        let days = 84
        var nights = Self.nights(1, days: days) { _ in 100 }
        nights += Self.nights(2, days: days) { $0 < 30 ? 100 : $0 < 60 ? 140 : 110 }
        nights += Self.nights(3, days: days) { $0 < 30 ? 80 : $0 < 60 ? 95 : 70 }
        nights += Self.nights(4, days: days) { offset in
            let base: Int64 = offset < 30 ? 100 : offset < 60 ? 140 : 110
            return Self.isWeekend(offset) ? base * 6 / 5 : base
        }
        nights += Self.nights(5, days: days) { 100 + Int64(($0 * 37) % 23) }
        nights += Self.nights(6, days: days) { _ in 55 }
        let data = TestDataset(listings: (1...6).map(Self.listing), nights: nights)
        let index = data.makeIndex().index
        let shapes = Dictionary(uniqueKeysWithValues: (0..<index.count).map { (index.listing(atRow: $0).id, index.priceShapes.shapes[$0]) })
        #expect(shapes[1] == 0 && shapes[6] == 0)
        #expect(shapes[2] == shapes[3] && shapes[2] != 0 && shapes[2] != PriceShapes.readRow)
        #expect(shapes[4] != shapes[2] && shapes[4] != 0 && shapes[4] != PriceShapes.readRow)
        #expect(shapes[5] == PriceShapes.readRow)
        #expect(index.priceShapes.count == 3)
        try Self.expectEveryStayAgrees(index, data, days: days)
    }

    /// Past 254 shapes besides one price all year, the rarest rows are read run by run, and so are the rows
    /// of shapes whose segments a long stay would take past the plans' room; every row's stays still agree
    /// with the reference, in one part and in several.
    @Test func rowsPastTheShapeTableAgreeWithTheReference() throws {
        let days = 60, count: Int64 = 600
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in 1...count {
            // Listing id changes its price on days 1 + id % 29 and 30 + (id / 29) % 29, and every 6 days:
            // more shapes than the table holds, of about 12 runs each; one in three has a weekend uplift
            // from the second change on.
            let first = 1 + Int(id % 29), second = 30 + Int((id / 29) % 29)
            nights += Self.nights(id, days: days) { offset in
                let step = Int64(offset / 6) * 3
                if offset < first { return 90 + id % 7 + step }
                if offset < second { return 120 + step }
                return (id % 3 == 0 && Self.isWeekend(offset) ? 170 : 130) + step
            }
        }
        let data = TestDataset(listings: (1...count).map(Self.listing), nights: nights)
        let index = data.makeIndex().index
        #expect(index.priceShapes.count == 255)
        let unshaped = (0..<index.count).filter { index.priceShapes.shapes[$0] == PriceShapes.readRow }.count
        #expect(unshaped > 0)
        var random = SeededGenerator(seed: 11)
        for round in 0..<200 {
            // The first stays cross most of the calendar: more segments than the plans hold.
            let checkIn = round < 6 ? round : Int.random(in: 0..<(days - 1), using: &random)
            let length = round < 6 ? days - checkIn : Int.random(in: 1...min(25, days - checkIn), using: &random)
            var query = SearchQuery(checkIn: Self.start.advanced(by: checkIn), checkOut: Self.start.advanced(by: checkIn + length))
            query.limit = 10
            query.sort = random.pick([SortOrder.price, .priceDescending, .rating])
            let reference = try ReferenceSearch.search(query, in: data)
            #expect(ReferenceAnswer(try index.search(query)) == reference, "\(query)")
            #expect(ReferenceAnswer(try index.search(query, threads: 3, minimumRowsPerPart: 64)) == reference, "\(query)")
        }
    }

    /// The generator's seasons and weekend prices are a handful of shapes: every listing of a calibrated
    /// city has one, and its stays agree with the reference.
    @Test func generatedSeasonsAreAFewShapes() throws {
        let synthetic = SyntheticDataset(listingCount: 300, seed: 3, dayCount: 365, pricing: .calibrated)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = data.makeIndex().index
        #expect(index.priceShapes.count < 20)
        #expect((0..<index.count).allSatisfy { index.priceShapes.shapes[$0] != PriceShapes.readRow })
        var random = SeededGenerator(seed: 5)
        for _ in 0..<60 {
            // Stays around the summer's and the holidays' edges, and anywhere.
            let around = random.pick([30, 92, 202, 214, Int.random(in: 0..<350, using: &random)])
            let checkIn = max(0, around - Int.random(in: 0...6, using: &random))
            let length = Int.random(in: 1...12, using: &random)
            var query = SearchQuery(checkIn: synthetic.firstDay.advanced(by: checkIn), checkOut: synthetic.firstDay.advanced(by: checkIn + length))
            query.limit = 50
            #expect(ReferenceAnswer(try index.search(query)) == (try ReferenceSearch.search(query, in: data)), "\(query)")
        }
    }
}
