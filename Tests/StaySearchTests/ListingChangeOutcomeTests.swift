import StaySearch
import StaySearchTestSupport
import Testing

/// A system of record that holds each listing whole and decides each change on it alone
/// (``ListingChangeOutcome``) against a live index applying the same changes: the same verdicts, and an
/// index built from the held listings answers every query as the live index does.
@Suite struct ListingChangeOutcomeTests {
    @Test(arguments: 0..<30)
    func decidingOnOneListingAgreesWithTheLiveIndex(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 4_100)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        var held: [Int64: EditableListing] = [:]
        for row in 0..<frozen.count { held[frozen.listingID(ofRow: row)] = EditableListing(row: row, of: frozen) }
        var random = SeededGenerator(seed: UInt64(seed) &* 17 + 3)
        var accepted = 0
        for step in 0..<150 {
            let change = data.randomChange(using: &random, listingChanges: 0.4)
            let verdict = Result { () throws(ChangeError) in try live.apply(change) }
            switch ListingChangeOutcome.applying(change, to: held[change.id], firstDay: frozen.firstDay, dayCount: frozen.dayCount) {
            case .success(let listing):
                #expect(verdict.failure == nil, "seed \(seed) step \(step): \(change) accepted alone, refused live: \(String(describing: verdict.failure))")
                held[change.id] = listing
                accepted += 1
            case .failure(let error):
                #expect(verdict.failure == error, "seed \(seed) step \(step): \(change) refused alone (\(error)), live: \(String(describing: verdict.failure))")
            }
        }
        #expect(accepted > 10)
        let listings = held.values.sorted { $0.record.id < $1.record.id }
        let rebuilt = IndexBuilder.build(listings: listings.map(\.record), firstDay: frozen.firstDay, dayCount: frozen.dayCount,
                                         listingAt: { listings[$0] })
        for _ in 0..<40 {
            var query = data.randomQuery(using: &random)
            // Facets name a value by one of its spellings that fold alike ("Cabaña", "Cabana"), the first in
            // row order; the two indexes order their rows differently. Their counts are checked by the
            // live index's own tests.
            query.facets = []
            let want = Result { () throws(QueryError) in ReferenceAnswer(try live.search(query)) }
            let got = Result { () throws(QueryError) in ReferenceAnswer(try rebuilt.search(query)) }
            #expect(got == want, "seed \(seed): \(query)")
        }
    }
}
