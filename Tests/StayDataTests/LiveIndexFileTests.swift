import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// A live index over a loaded index file writes into a private copy-on-write mapping.
@Suite struct LiveIndexFileTests {
    @Test(arguments: 0..<4)
    func changesInPlaceMatchChangesToACopyAndLeaveTheFileAlone(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 300)
        let path = Scratch.path("live.ssx")
        try IndexFileWriter.save(data.makeIndex().index, to: path)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        let (mapped, isWritable) = try IndexFileReader.loadForChanges(from: path)
        #expect(isWritable)
        let inPlace = LiveIndex(adoptingWritableAvailabilityOf: mapped)
        let copied = LiveIndex(try IndexFileReader.load(from: path))
        var random = SeededGenerator(seed: UInt64(seed))
        var accepted = 0
        for _ in 0..<200 {
            let change = data.randomChange(using: &random)
            let a = Result { () throws(ChangeError) in try inPlace.apply(change) }
            let b = Result { () throws(ChangeError) in try copied.apply(change) }
            #expect(a.failure == b.failure, "\(change)")
            if a.failure == nil { accepted += 1 }
        }
        #expect(accepted > 10)
        for _ in 0..<30 {
            let query = data.randomQuery(using: &random)
            let a = Result { () throws(QueryError) in ReferenceAnswer(try inPlace.search(query)) }
            let b = Result { () throws(QueryError) in ReferenceAnswer(try copied.search(query)) }
            #expect(a == b, "\(query)")
        }
        // The file, and another load of it, are as saved.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == saved)
        let fresh = try IndexFileReader.load(from: path)
        let frozen = data.makeIndex().index
        let query = SearchQuery(checkIn: frozen.firstDay.advanced(by: 3), checkOut: frozen.firstDay.advanced(by: 5), limit: 50)
        #expect(ReferenceAnswer(try fresh.search(query)) == ReferenceAnswer(try frozen.search(query)))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
