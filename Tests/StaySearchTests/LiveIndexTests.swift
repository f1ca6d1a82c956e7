import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

/// Live changes against the reference: the same random change streams applied to both, queries between.
@Suite struct LiveIndexTests {
    @Test(arguments: 0..<40)
    func changesAndQueriesAgreeWithTheReference(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 900)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let end = frozen.firstDay.advanced(by: frozen.dayCount)
        var random = SeededGenerator(seed: UInt64(seed) &* 31 + 7)
        var accepted = 0
        var acceptedChanges: [CalendarChange] = []
        for round in 0..<12 {
            let changes = (0..<15).map { _ in data.randomChange(using: &random) }
            // Half the rounds one by one, half as a group: the same outcomes either way.
            let outcomes: [ChangeError?] = round % 2 == 0
                ? changes.map { change in Result { () throws(ChangeError) in try live.apply(change) }.failure }
                : live.apply(changes)
            for (change, outcome) in zip(changes, outcomes) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want, "seed \(seed) round \(round): \(change) → \(String(describing: outcome))")
                if want { accepted += 1 }
                if outcome == nil { acceptedChanges.append(change) }
            }
            for _ in 0..<6 {
                let query = data.randomQuery(using: &random)
                let expected = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data) }
                let actual = Result { () throws(QueryError) in ReferenceAnswer(try live.search(query)) }
                switch (expected, actual) {
                case let (.success(want), .success(got)): #expect(got == want, "seed \(seed) round \(round): \(query)")
                case (.failure, .failure): break
                default: Issue.record("seed \(seed) round \(round): \(query): \(actual) vs \(expected)")
                }
            }
        }
        #expect(accepted > 5)
        // Replaying the accepted changes (as a load replays a journal) gives the same calendars.
        let replayed = LiveIndex(frozen)
        #expect(replayed.replay(acceptedChanges) == 0)
        let days = frozen.dayCount
        let same = live.withIndex { a in
            replayed.withIndex { b in
                (0..<a.count).allSatisfy { row in
                    a.nights(ofRow: row, from: a.firstDay, to: a.firstDay.advanced(by: days))
                        == b.nights(ofRow: row, from: b.firstDay, to: b.firstDay.advanced(by: days))
                }
            }
        }
        #expect(same)
        // The frozen index it started from is untouched.
        #expect(ReferenceAnswer(try frozen.search(SearchQuery(limit: 50))) == ReferenceAnswer(try frozen.search(SearchQuery(limit: 50))))
    }

    @Test func rejectedChangesSayWhy() throws {
        let data = TestDataset.random(seed: 3)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let id = data.listings[0].id
        let first = frozen.firstDay
        #expect(throws: ChangeError.unknownListing(42)) { try live.apply(.cancel(id: 42, checkIn: first, checkOut: first.advanced(by: 1))) }
        #expect(throws: ChangeError.noNights(from: first, to: first)) { try live.apply(.cancel(id: id, checkIn: first, checkOut: first)) }
        do {
            try live.apply(.availability(id: id, from: first.advanced(by: -1), to: first.advanced(by: 2), available: false))
            Issue.record("nights before the calendar were accepted")
        } catch {
            #expect(error.description.hasPrefix("the nights from \(first.advanced(by: -1)) to \(first.advanced(by: 2)) leave the index's calendar"))
        }
    }
}

extension Result {
    /// The error, when there is one.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
