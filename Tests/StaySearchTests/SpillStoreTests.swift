import StaySearch
import StayData
import StaySearchTestSupport
import Testing

/// A builder that keeps its nights and dense price table in a spill file builds, byte for byte, the index
/// it builds in memory: nights spilled in chunks of a few bytes to 4 KiB (so that a listing's nights
/// straddle chunks, come in several fragments, repeat dates), dense rows spilled one to a few at a time
/// and laid out day-major in groups; and a store that fails makes the build fail with its words.
@Suite struct SpillStoreTests {
    /// Every section of `spilled` has the bytes of the same section of `inMemory`.
    private func expectSameSections(_ spilled: ListingIndex, _ inMemory: ListingIndex, _ context: String) {
        for column in IndexStorage.table {
            let left = column.bytes(spilled.storage).withBytes { Array($0) }
            let right = column.bytes(inMemory.storage).withBytes { Array($0) }
            #expect(left == right, "\(column.name) differs (\(context))")
        }
        #expect(spilled.count == inMemory.count && spilled.firstDay == inMemory.firstDay && spilled.dayCount == inMemory.dayCount)
    }

    @Test(arguments: 0..<16)
    func aBuilderSpillingToAFileBuildsTheIndexItBuildsInMemory(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 7_000, maximumListings: 160)
        var random = SeededGenerator(seed: UInt64(seed))
        let chunkSize = random.pick([40, 300, 4_096])
        let rowsPerChunk = random.pick([1, 2, 3, 5])
        let store = try SpillFile(inFolder: Scratch.directory("spill"))
        var builder = IndexBuilder(spillingTo: store, fragmentChunkSize: chunkSize, denseRowsPerChunk: rowsPerChunk)
        for listing in data.listings { _ = try builder.addListing(listing) }
        for (position, entry) in data.nights.enumerated() {
            builder.addNight(entry.night, to: builder.handle(forListingID: entry.listingID)!, origin: RecordOrigin(file: 0, line: position))
        }
        let spilled = try builder.buildUsingStore()
        let inMemory = data.makeIndex()
        expectSameSections(spilled.index, inMemory.index, "seed \(seed), chunks of \(chunkSize) bytes, \(rowsPerChunk) dense rows")
        #expect(spilled.duplicateNights == inMemory.duplicateNights)
        #expect(store.failure == nil)
        if chunkSize < 4_096, !data.nights.isEmpty { #expect(store.byteCount > 0) }
        // The dense table is mapped from the file, and answers as the one in memory does.
        if spilled.index.storage.densePrices.count > 0 { #expect(spilled.index.storage.densePrices.owner is SpillFile.Mapping) }
        for _ in 0..<20 {
            let query = data.randomQuery(using: &random)
            #expect(Result { () throws(QueryError) in ReferenceAnswer(try spilled.index.search(query)) }
                    == Result { () throws(QueryError) in ReferenceAnswer(try inMemory.index.search(query)) })
        }
    }

    @Test(arguments: 0..<24)
    func denseRowsLaidOutInAFileEqualThoseLaidOutInMemory(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 40)
        let dayCount = Int.random(in: 1...40, using: &random)
        let rowCount = random.pick([0, 1, 7, 8, 9, 63, 150])
        let rowsPerChunk = Int.random(in: 1...7, using: &random)
        let chunksPerGroup = Int.random(in: 1...4, using: &random)
        var inMemory = DenseRowsWriter<UInt16>(valuesPerRow: dayCount, rowsPerChunk: rowsPerChunk)
        var inFile = DenseRowsWriter<UInt16>(valuesPerRow: dayCount, store: try SpillFile(inFolder: Scratch.directory("dense")),
                                     rowsPerChunk: rowsPerChunk, chunksPerGroup: chunksPerGroup)
        var expected = [UInt16](repeating: 0, count: rowCount * dayCount)
        for row in 0..<rowCount {
            let codes = (0..<dayCount).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
            for day in 0..<dayCount { expected[day * rowCount + row] = codes[day] }
            inMemory.append(codes)
            inFile.append(codes)
        }
        #expect(inMemory.finish().array == expected)
        #expect(try inFile.finishInStore().array == expected, "\(rowCount) rows of \(dayCount) days, \(rowsPerChunk) a chunk, \(chunksPerGroup) chunks a group")
    }

    /// A store whose disk fills up after `room` bytes.
    private final class FullDisk: SpillStore, @unchecked Sendable {
        let file: SpillFile
        let room: Int
        init(room: Int) throws {
            file = try SpillFile(inFolder: Scratch.directory("full"))
            self.room = room
        }
        struct NoSpace: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        func reserve(byteCount: Int, alignment: Int) throws -> Int { try file.reserve(byteCount: byteCount, alignment: alignment) }
        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
            guard offset + bytes.count <= room else { throw NoSpace() }
            try file.write(bytes, at: offset)
        }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws { try file.read(into: buffer, at: offset) }
        func discard(offset: Int, byteCount: Int) { file.discard(offset: offset, byteCount: byteCount) }
        func map(offset: Int, byteCount: Int) throws -> (base: UnsafeRawPointer, owner: AnyObject) { try file.map(offset: offset, byteCount: byteCount) }
    }

    @Test(arguments: [0, 2_000, 25_000])
    func aStoreThatFailsFailsTheBuildWithItsWords(room: Int) throws {
        let data = TestDataset.random(seed: 7_003, maximumListings: 160)
        var builder = IndexBuilder(spillingTo: try FullDisk(room: room), fragmentChunkSize: 40, denseRowsPerChunk: 1)
        for listing in data.listings { _ = try builder.addListing(listing) }
        for (position, entry) in data.nights.enumerated() {
            builder.addNight(entry.night, to: builder.handle(forListingID: entry.listingID)!, origin: RecordOrigin(file: 0, line: position))
        }
        #expect(throws: IndexBuilderError.storeFailed("No space left on device")) { try builder.buildUsingStore() }
    }
}
