import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// Imports through a spill file: the real samples load into the index a load in memory gives, section
/// for section, and save to the same bytes (the dense price table written from its mapping, its pages
/// let go as they are written); and a section's checksum taken a piece at a time is the checksum of the
/// whole.
@Suite struct SpillFileTests {
    /// The real samples, and generated cities whose prices change day by day (the samples have no such
    /// listing): several calendars read on threads at once, spilling into one file.
    @Test(arguments: ["antwerp", "albany", "generated"])
    func aLoadSpillingToAFileGivesTheIndexOfALoadInMemory(source: String) throws {
        let directory = Scratch.directory("spilled-\(source)")
        let folders: [DatasetFolder]
        if source == "generated" {
            let dataset = SyntheticDataset(listingCount: 3_000, seed: 5, dayCount: 120, pricing: .dynamic)
            folders = try InsideAirbnbWriter.write(dataset, to: directory + "/csv", gzipLevel: 1).map { try DatasetFolder(argument: $0) }
        } else {
            folders = [DatasetFolder(city: source.capitalized, path: dataFolder + "/" + source)]
        }
        let (inMemory, memoryReport) = try InsideAirbnbLoader().loadIndex(from: folders)
        var loader = InsideAirbnbLoader()
        loader.spill = try SpillFile(inFolder: directory)
        loader.spillPieces = (fragmentBytes: 2_000, denseRows: 7)
        let (spilled, spilledReport) = try loader.loadIndex(from: folders)
        #expect(spilledReport == memoryReport)
        for column in IndexStorage.table {
            #expect(column.bytes(spilled.storage).withBytes { Array($0) } == column.bytes(inMemory.storage).withBytes { Array($0) },
                    "\(column.name)")
        }
        if source == "generated" {
            #expect(spilled.storage.densePrices.count > 0)
            #expect(spilled.storage.densePrices.owner is SpillFile.Mapping)
        }
        try IndexFileWriter.save(spilled, to: directory + "/spilled.ssx")
        try IndexFileWriter.save(inMemory, to: directory + "/memory.ssx")
        #expect(FileManager.default.contents(atPath: directory + "/spilled.ssx") == FileManager.default.contents(atPath: directory + "/memory.ssx"))
        // The spill file was never seen in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "csv" }.sorted() == ["memory.ssx", "spilled.ssx"])
        let loaded = try IndexFileReader.load(from: directory + "/spilled.ssx")
        #expect(loaded.storage.densePrices.array == inMemory.storage.densePrices.array)
    }

    @Test(arguments: 0..<40)
    func aChecksumTakenInPiecesIsTheChecksumOfTheWhole(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let bytes = (0..<random.pick([0, 1, 7, 31, 32, 33, 100, 1_000, 4_099])).map { _ in UInt8.random(in: 0...255, using: &random) }
        let seedValue = random.chance(0.5) ? 0 : UInt64.random(in: 0...UInt64.max, using: &random)
        var stream = Checksum.Stream(seed: seedValue)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + random.pick([1, 5, 32, 64, 333]))
            bytes[start..<end].withUnsafeBytes { stream.add($0) }
            start = end
        }
        let expected = bytes.withUnsafeBytes { Self.checksumAtOnce($0, seed: seedValue) }
        #expect(stream.checksum() == expected)
        #expect(bytes.withUnsafeBytes { Checksum.of($0, seed: seedValue) } == expected)
    }

    /// The checksum as index files have always stored it, in one pass over all the bytes: the reference.
    private static func checksumAtOnce(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F, prime3: UInt64 = 0x1656_67B1_9E37_79F9
        func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* prime2
            return ((mixed << 31) | (mixed >> 33)) &* prime1
        }
        func finish(_ value: UInt64) -> UInt64 {
            var hash = value
            hash ^= hash >> 33
            hash = hash &* prime2
            hash ^= hash >> 29
            hash = hash &* prime3
            hash ^= hash >> 32
            return hash
        }
        guard bytes.count > 0 else { return finish(seed &+ prime3) }
        var lanes = [seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1]
        var offset = 0
        while offset + 32 <= bytes.count {
            for lane in 0..<4 { lanes[lane] = round(lanes[lane], bytes.loadUnaligned(fromByteOffset: offset + 8 * lane, as: UInt64.self)) }
            offset += 32
        }
        var hash = lanes[0] ^ (lanes[1] &* prime3) ^ (lanes[2] &* prime1) ^ (lanes[3] &* prime2) ^ UInt64(bytes.count)
        while offset + 8 <= bytes.count {
            hash = round(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        while offset < bytes.count {
            hash = round(hash, UInt64(bytes[offset]) | 0x100)
            offset += 1
        }
        return finish(hash)
    }

    @Test func aSpillFileInAFolderThatIsNotThereIsAOneLineError() {
        #expect(throws: DataError.cannotWrite(path: "/nonexistent-staysearch-folder", reason: "a temporary file there: No such file or directory")) {
            try SpillFile(inFolder: "/nonexistent-staysearch-folder")
        }
    }
}
