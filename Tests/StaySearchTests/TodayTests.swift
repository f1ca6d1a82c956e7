import StaySearch
import StaySearchTestSupport
import Testing

/// A query's today: an exact check-in before it is refused, check-ins of a window or of flexible dates
/// before it are left out; the engine against the brute-force reference with today anywhere in the data's
/// first weeks.
@Suite struct TodayTests {
    @Test(arguments: 0..<40)
    func engineAgreesWithReferenceWhateverToday(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 5_000)
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed) &* 104_729)
        var refusedAsPast = 0, leftOut = 0
        for queryNumber in 0..<60 {
            var query = data.randomQuery(using: &random)
            query.today = TestDataset.calendarStart.advanced(by: Int.random(in: 0...30, using: &random))
            let expected: Result<ReferenceAnswer, QueryError> = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data) }
            let actual: Result<ReferenceAnswer, QueryError> = Result { () throws(QueryError) in ReferenceAnswer(try index.search(query)) }
            switch (expected, actual) {
            case let (.success(want), .success(got)):
                #expect(got == want, "seed \(seed) query \(queryNumber): \(query)")
                #expect(got.checkIns.allSatisfy { $0 == nil || $0! >= query.today! })
                var without = query
                without.today = nil
                if query.isFlexible, without.candidateCheckIns.count > query.candidateCheckIns.count { leftOut += 1 }
            case let (.failure(want), .failure(got)):
                #expect(want == got || { if case .unknownRegion = want { return true }; if case .unknownAmenity = want { return true }
                    if case .unknownPropertyType = want { return true }; if case .unknownRoomType = want { return true }; return false }(),
                        "seed \(seed) query \(queryNumber): \(want) vs \(got)")
                if case .checkInBeforeToday = got { refusedAsPast += 1 }
            default:
                Issue.record("seed \(seed) query \(queryNumber): \(query)\n got \(actual)\nwant \(expected)")
            }
        }
        // Each seed's queries cross today both ways often enough to mean something.
        #expect(refusedAsPast + leftOut > 0, "seed \(seed): no query met today")
    }

    @Test func pastCheckInsAreRefusedOrLeftOut() throws {
        let today = try #require(Day(iso: "2024-07-10"))
        var exact = SearchQuery(checkIn: Day(iso: "2024-07-09"), checkOut: Day(iso: "2024-07-12"))
        exact.today = today
        #expect(throws: QueryError.checkInBeforeToday(checkIn: Day(iso: "2024-07-09")!, today: today)) { try exact.validate() }
        #expect(QueryError.checkInBeforeToday(checkIn: Day(iso: "2024-07-09")!, today: today).description
                == "check-in 2024-07-09 is before today (2024-07-10): a stay starts today or later")
        var flexible = SearchQuery(checkIn: today, checkOut: Day(iso: "2024-07-13"))
        flexible.flexibleDays = 2
        flexible.today = today
        #expect(flexible.candidateCheckIns.map(\.description) == ["2024-07-10", "2024-07-11", "2024-07-12"])
        var window = SearchQuery()
        (window.checkInFrom, window.checkInTo, window.windowNights, window.today) = (Day(iso: "2024-07-01"), Day(iso: "2024-07-12"), 2, today)
        #expect(window.candidateCheckIns.map(\.description) == ["2024-07-10", "2024-07-11", "2024-07-12"])
        window.checkInTo = Day(iso: "2024-07-09")
        #expect(throws: QueryError.self) { try window.validate() }
    }
}
