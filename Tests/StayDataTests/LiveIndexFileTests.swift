import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// A live index over a loaded index file writes into a private copy-on-write mapping, or into its copy in
/// huge pages.
@Suite struct LiveIndexFileTests {
    @Test(arguments: 0..<4, IndexMemory.allCases)
    func changesInPlaceMatchChangesToACopyAndLeaveTheFileAlone(seed: Int, memory: IndexMemory) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 300)
        let path = Scratch.path("live.ssx")
        try IndexFileWriter.save(data.makeIndex().index, to: path)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        let (mapped, isWritable) = try IndexFileReader.loadForChanges(from: path, prefault: seed % 2 == 1, memory: memory)
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

    /// `LiveIndexFile` replays the journal (past the threshold where the availability pages are copied at
    /// once, too), opens it for more changes, and never writes the journal of an index that fails to load.
    @Test func loadsWithTheJournalAndADamagedIndexNeverCostsItsJournal() throws {
        let data = TestDataset.random(seed: 77)
        let path = Scratch.path("journalled.ssx")
        try IndexFileWriter.save(data.makeIndex().index, to: path)
        let identity = try IndexFileReader.identity(ofIndexAt: path)
        let (journal, _) = try ChangeJournal.open(path: ChangeJournal.path(forIndex: path), identity: identity)
        let expected = LiveIndex(try IndexFileReader.load(from: path))
        var random = SeededGenerator(seed: 5)
        var accepted = 0
        while accepted <= LiveIndexFile.prefaultAbove {
            let change = data.randomChange(using: &random)
            if (try? expected.apply(change)) != nil {
                _ = journal.append(change)
                accepted += 1
            }
        }
        try journal.commit()
        journal.close()

        let loaded = try LiveIndexFile.load(from: path)
        #expect(loaded.contents.changes.count == accepted && loaded.skipped == 0 && loaded.contents.warnings.isEmpty)
        for _ in 0..<20 {
            let query = data.randomQuery(using: &random)
            let a = Result { () throws(QueryError) in ReferenceAnswer(try loaded.live.search(query)) }
            let b = Result { () throws(QueryError) in ReferenceAnswer(try expected.search(query)) }
            #expect(a == b, "\(query)")
        }
        let opened = try LiveIndexFile.open(from: path)
        #expect(opened.journal.lastSequence == UInt64(accepted))
        opened.journal.close()

        // The header's checksum damaged: the index is refused, and its journal is left exactly as it was
        // (it now looks like another index's journal, which opening would start afresh).
        let journalBytes = try Data(contentsOf: URL(fileURLWithPath: ChangeJournal.path(forIndex: path)))
        var index = try Data(contentsOf: URL(fileURLWithPath: path))
        index[56] ^= 0xFF
        try index.write(to: URL(fileURLWithPath: path))
        #expect(throws: DataError.self) { try LiveIndexFile.open(from: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: ChangeJournal.path(forIndex: path))) == journalBytes)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
