import StayData
import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct RuleClassesTests {
    static let start = Day(iso: "2025-06-02")!     // a Monday

    static func listing(_ id: Int64) -> ListingRecord {
        ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "C", neighbourhood: "N"), roomType: "Private room",
                      accommodates: 2, price: Money(major: 100))
    }

    /// `days` nights of listing `id`, all free at 100, with the stay rule `rule(dayOffset)`.
    static func nights(_ id: Int64, days: Int, rule: (Int) -> (Int32, Int32?)) -> [(listingID: Int64, night: CalendarNight)] {
        (0..<days).map { offset in
            let (minimum, maximum) = rule(offset)
            return (id, CalendarNight(day: start.advanced(by: offset), isAvailable: true, price: Money(major: 100),
                                      minimumNights: minimum, maximumNights: maximum))
        }
    }

    /// One rule all year and one weekly pattern all year have classes; rules that change with the season
    /// are read run by run.
    @Test func rowsWithOneRuleAllYearHaveAClass() throws {
        let days = 70
        var nights = Self.nights(1, days: days) { _ in (2, nil) }
        nights += Self.nights(2, days: days) { offset in (offset % 7 >= 4 && offset % 7 <= 5 ? 2 : 1, nil) }
        nights += Self.nights(3, days: days) { offset in (offset < 35 ? 1 : 3, nil) }
        nights += Self.nights(4, days: days) { _ in (2, nil) }
        let data = TestDataset(listings: (1...4).map(Self.listing), nights: nights)
        let index = data.makeIndex().index
        let classes = index.ruleClasses
        #expect(classes.values.count == 2)
        let byID = Dictionary(uniqueKeysWithValues: (0..<index.count).map { (index.listing(atRow: $0).id, classes.classes[$0]) })
        #expect(byID[1] == byID[4] && byID[1] != RuleClasses.checkRow)
        #expect(byID[2] != RuleClasses.checkRow && byID[2] != byID[1])
        #expect(byID[3] == RuleClasses.checkRow)
        // Friday check-in, one night: the weekend pattern refuses it, the plain two-night rule too.
        let friday = SearchQuery(checkIn: Self.start.advanced(by: 4), checkOut: Self.start.advanced(by: 5))
        #expect(ReferenceAnswer(try index.search(friday)) == (try ReferenceSearch.search(friday, in: data)))
        #expect(try index.search(friday).total == 1)        // listing 3 (one night allowed before day 35)
    }

    /// Past 255 distinct rules a row is read run by run; answers do not change.
    @Test func rowsPastTheClassTableAgreeWithTheReference() throws {
        let days = 40, count: Int64 = 420
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in 1...count {
            // 20 × 21 distinct (minimum, maximum) pairs, and a few listings whose rules change mid-calendar.
            let minimum = Int32(1 + id % 20), maximum = Int32(1 + (id / 20) % 21) + minimum
            nights += Self.nights(id, days: days) { offset in
                id % 37 == 0 && offset >= 20 ? (1, nil) : (minimum, maximum)
            }
        }
        let data = TestDataset(listings: (1...count).map(Self.listing), nights: nights)
        let index = data.makeIndex().index
        #expect(index.ruleClasses.values.count == 255)
        let unclassed = (0..<index.count).filter { index.ruleClasses.classes[$0] == RuleClasses.checkRow }.count
        #expect(unclassed > 100)
        var random = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let checkIn = Int.random(in: 0..<(days - 1), using: &random)
            let length = Int.random(in: 1...min(30, days - checkIn), using: &random)
            var query = SearchQuery(checkIn: Self.start.advanced(by: checkIn), checkOut: Self.start.advanced(by: checkIn + length))
            query.limit = 5
            query.sort = random.pick([SortOrder.price, .rating])
            #expect(ReferenceAnswer(try index.search(query)) == (try ReferenceSearch.search(query, in: data)), "\(query)")
            #expect(ReferenceAnswer(try index.search(query, threads: 2, minimumRowsPerPart: 64)) == (try ReferenceSearch.search(query, in: data)))
        }
    }
}
