import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

private func temporaryPath(_ name: String) -> String {
    Scratch.directory("index") + "/" + name
}

/// Every answer of `loaded` equals `original`'s for `queries`.
private func expectSameAnswers(_ original: ListingIndex, _ loaded: ListingIndex, _ queries: [SearchQuery]) {
    for query in queries {
        let want = Result { () throws(QueryError) in try original.search(query) }
        let got = Result { () throws(QueryError) in try loaded.search(query) }
        #expect(got == want, "\(query)")
    }
}

@Suite struct IndexFileTests {
    @Test(arguments: 0..<20)
    func randomIndexesRoundTrip(seed: Int) throws {
        // Every fourth seed with wide prices (up to 1,000,000,000.00 a night), kept in the file's own section.
        let drawn = TestDataset.random(seed: UInt64(seed) + 300)
        let data = seed % 4 == 1 ? drawn.withWidePrices(seed: UInt64(seed)) : drawn
        let index = data.makeIndex().index
        let path = temporaryPath("random.ssx")
        try IndexFileWriter.save(index, to: path)
        let loaded = try IndexFileReader.load(from: path)
        #expect(loaded.count == index.count)
        #expect(loaded.regions.nodes == index.regions.nodes)
        #expect(loaded.roomTypeNames == index.roomTypeNames)
        var random = SeededGenerator(seed: UInt64(seed))
        expectSameAnswers(index, loaded, (0..<40).map { _ in data.randomQuery(using: &random) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["random.ssx"])
    }

    /// An index made from a database records the change-log position of its snapshot (0 included); others none.
    @Test func aSnapshotsPositionIsKeptInTheHeader() throws {
        let index = TestDataset.random(seed: 5).makeIndex().index
        let path = temporaryPath("snapshot.ssx")
        for position: UInt64? in [nil, 0, 1, 123_456_789_012] {
            try IndexFileWriter.save(index, to: path, changeLogPosition: position)
            #expect(try IndexFileReader.changeLogPosition(ofIndexAt: path) == position)
            #expect(try IndexFileReader.load(from: path).count == index.count)
        }
    }

    /// An index held in huge pages answers as the mapped file does, and as the index it was saved from.
    @Test(arguments: 0..<6)
    func anIndexInHugePagesAnswersAsTheMappedOne(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 700)
        let index = data.makeIndex().index
        let path = temporaryPath("huge.ssx")
        try IndexFileWriter.save(index, to: path)
        let mapped = try IndexFileReader.load(from: path, memory: .mapped)
        let copied = try IndexFileReader.load(from: path, memory: .hugePages)
        var random = SeededGenerator(seed: UInt64(seed))
        let queries = (0..<40).map { _ in data.randomQuery(using: &random) }
        expectSameAnswers(index, mapped, queries)
        expectSameAnswers(index, copied, queries)
        #expect(try IndexFileReader.load(from: path, memory: .hugePages).count == index.count)
    }

    @Test(arguments: ["antwerp", "albany"])
    func realSamplesGiveTheSameAnswersFromAnIndex(city: String) throws {
        let folder = city == "antwerp" ? shipped : albany
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: city, path: folder)])
        let path = temporaryPath("\(city).ssx")
        try IndexFileWriter.save(index, to: path)
        let loaded = try IndexFileReader.load(from: path, memory: city == "albany" ? .hugePages : .mapped)
        var random = SeededGenerator(seed: 7)
        let names = index.regions.nodes.map(\.name)
        let queries = (0..<200).map { _ -> SearchQuery in
            var query = SearchQuery(region: random.chance(0.8) ? random.pick(names) : nil)
            if random.chance(0.8) {
                query.checkIn = index.firstDay.advanced(by: Int.random(in: 0..<index.dayCount, using: &random))
                query.checkOut = query.checkIn!.advanced(by: random.pick([1, 2, 3, 7, 14]))
            }
            query.adults = random.pick([1, 2, 4])
            query.sort = random.pick([SortOrder.price, .priceDescending, .rating, .reviews])
            if random.chance(0.5) { query.maximumPrice = Money(major: random.pick([60, 100, 200])) }
            return query
        }
        expectSameAnswers(index, loaded, queries)
    }
}

@Suite struct DamagedIndexTests {
    /// A small but complete saved index, and its bytes.
    private static let saved: (path: String, bytes: [UInt8], index: ListingIndex) = {
        let data = TestDataset.random(seed: 42)
        let index = data.makeIndex().index
        let path = temporaryPath("good.ssx")
        try! IndexFileWriter.save(index, to: path)
        return (path, Array(try! Data(contentsOf: URL(fileURLWithPath: path))), index)
    }()

    private func write(_ bytes: [UInt8], name: String = "damaged.ssx") -> String {
        let path = temporaryPath(name)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// The file at `path` is refused with `message` however its bytes are held.
    private func expectRefused(_ path: String, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for memory in IndexMemory.allCases {
            do {
                _ = try IndexFileReader.load(from: path, memory: memory)
                Issue.record("loaded a damaged index (\(memory))", sourceLocation: sourceLocation)
            } catch {
                #expect(error.description.contains(message), "\(memory): \(error.description)", sourceLocation: sourceLocation)
                #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            }
        }
    }

    @Test func truncatedFilesAreRefused() {
        let bytes = Self.saved.bytes
        for length in [1, 7, 8, 40, 63, 64, 100, bytes.count / 2, bytes.count - 1] {
            expectRefused(write(Array(bytes.prefix(length))), saying: length < 8 ? "signature" : "truncated")
        }
    }

    @Test func wrongSignatureOrVersionIsRefused() {
        var bytes = Self.saved.bytes
        bytes[0] = UInt8(ascii: "X")
        expectRefused(write(bytes), saying: "does not start with the staysearch index signature")
        bytes = Self.saved.bytes
        bytes[8] = 13     // format version 13
        expectRefused(write(bytes), saying: "written in format 13 by a newer staysearch; this one reads format 12")
        bytes[8] = 4      // format version 4: day-by-day prices as codes, not running sums
        expectRefused(write(bytes), saying: "written in format 4 by an older staysearch; this one reads format 12: make it again with 'staysearch import'")
    }

    /// A file of format 5, saved before listings had fees, loads as the same index without them.
    @Test func anIndexOfTheFormatBeforeFeesLoadsWithoutThem() throws {
        let data = TestDataset.random(seed: 7).withRandomFees(seed: 7).inWholeUnits()
        let index = data.makeIndex().index
        #expect(index.hasFees)
        let path = temporaryPath("format5.ssx")
        try IndexFileWriter.save(index, to: path, format: 5)
        let loaded = try IndexFileReader.load(from: path)
        #expect(!loaded.hasFees)
        #expect((0..<loaded.count).allSatisfy { loaded.fees(ofRow: $0) == nil })
        var withoutFees = data
        for position in withoutFees.listings.indices { withoutFees.listings[position].fees = nil }
        let plain = withoutFees.makeIndex().index
        let query = SearchQuery(checkIn: TestDataset.calendarStart, checkOut: TestDataset.calendarStart.advanced(by: 7), limit: 50)
        #expect(try loaded.search(query) == plain.search(query))
        // Saved again, it is a file of the current format, still without fees.
        try IndexFileWriter.save(loaded, to: path)
        #expect(try !IndexFileReader.load(from: path).hasFees)
    }

    /// A file of format 6, which kept each listing's fees in one piece, loads with the same fees and answers.
    @Test func anIndexOfFormatSixLoadsWithItsFees() throws {
        let data = TestDataset.random(seed: 8).withRandomFees(seed: 8).inWholeUnits()
        let index = data.makeIndex().index
        let path = temporaryPath("format6.ssx")
        try IndexFileWriter.save(index, to: path, format: 6)
        let loaded = try IndexFileReader.load(from: path)
        #expect(loaded.hasFees)
        #expect((0..<loaded.count).allSatisfy { loaded.fees(ofRow: $0) == index.fees(ofRow: $0) })
        for nights in [2, 7, 30] {
            let query = SearchQuery(checkIn: TestDataset.calendarStart, checkOut: TestDataset.calendarStart.advanced(by: nights), adults: 3,
                                    limit: 50)
            #expect(try loaded.search(query) == index.search(query))
        }
    }

    /// A file of format 8, from before each day-by-day row kept its cheapest night, loads with the same
    /// answers: long stays on dear rows are then summed night by night.
    @Test func anIndexOfFormatEightLoadsWithTheSameAnswers() throws {
        // 60 listings priced every night, dear ones (a night of 5,000–5,600 units) and cheap ones.
        var random = SeededGenerator(seed: 9)
        var listings: [ListingRecord] = [], nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...60 {
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Antwerp", neighbourhood: "Centrum"),
                                          roomType: "Entire home/apt", accommodates: 4, price: Money(major: 90),
                                          ratingHundredths: nil, reviewCount: 0))
            let dear = id % 2 == 0
            for offset in 0..<40 {
                let units = dear ? Int64.random(in: 5_000...5_600, using: &random) : Int64.random(in: 20...400, using: &random)
                nights.append((id, CalendarNight(day: TestDataset.calendarStart.advanced(by: offset), isAvailable: true,
                                                 price: Money(minorUnits: units * 100), minimumNights: nil, maximumNights: nil)))
            }
        }
        let index = TestDataset(listings: listings, nights: nights).makeIndex().index
        #expect(index.nightPrices.denseRows == 60 && index.nightPrices.denseMinima.array.contains { $0 >= 5_000 })
        let path = temporaryPath("format8.ssx")
        try IndexFileWriter.save(index, to: path, format: 8)
        let loaded = try IndexFileReader.load(from: path)
        #expect(loaded.nightPrices.denseMinima.array.allSatisfy { $0 == 0 })
        for nights in [1, 7, 14, 30] {
            let query = SearchQuery(checkIn: TestDataset.calendarStart, checkOut: TestDataset.calendarStart.advanced(by: nights), adults: 2,
                                    limit: 50)
            let answer = try index.search(query)
            #expect(answer.total == 60)
            #expect(try loaded.search(query) == answer)
        }
    }

    /// A file of format 9, from before rows of a wide spread kept their carries, loads with the same answers:
    /// their long stays are then summed in stretches.
    @Test func anIndexOfFormatNineLoadsWithTheSameAnswers() throws {
        // 60 listings priced every night in won to the ₩100, half of them of a wide spread (₩20,000–₩950,000).
        var random = SeededGenerator(seed: 10)
        var listings: [ListingRecord] = [], nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...60 {
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Seoul", neighbourhood: "Jongno"),
                                          roomType: "Entire home/apt", accommodates: 4, price: Money(major: 90_000),
                                          ratingHundredths: nil, reviewCount: 0))
            let wide = id % 2 == 0
            for offset in 0..<40 {
                let codes = wide ? Int64.random(in: 200...9_500, using: &random) : Int64.random(in: 700...1_200, using: &random)
                nights.append((id, CalendarNight(day: TestDataset.calendarStart.advanced(by: offset), isAvailable: true,
                                                 price: Money(minorUnits: codes * 10_000), minimumNights: nil, maximumNights: nil)))
            }
        }
        let index = TestDataset(listings: listings, nights: nights).makeIndex().index
        #expect(index.nightPrices.denseRows == 60 && index.nightPrices.carriedRows == 30)
        let path = temporaryPath("format9.ssx")
        try IndexFileWriter.save(index, to: path, format: 9)
        let loaded = try IndexFileReader.load(from: path)
        #expect(loaded.nightPrices.carriedRows == 0)
        let current = temporaryPath("format10.ssx")
        try IndexFileWriter.save(index, to: current)
        let reloaded = try IndexFileReader.load(from: current)
        #expect(reloaded.nightPrices.carriedRows == 30)
        for nights in [1, 7, 14, 30, 39] {
            let query = SearchQuery(checkIn: TestDataset.calendarStart, checkOut: TestDataset.calendarStart.advanced(by: nights), adults: 2,
                                    limit: 60)
            let answer = try index.search(query)
            #expect(answer.total == 60)
            #expect(try loaded.search(query) == answer)
            #expect(try reloaded.search(query) == answer)
            let start = index.firstDay.distance(to: TestDataset.calendarStart)
            for row in 0..<60 {
                let expected = (start..<start + nights).reduce(Int64(0)) { $0 + Int64(index.nightPrices.value(row: row, dayOffset: $1)) }
                #expect(index.nightPrices.sum(row: row, from: start, to: start + nights) == expected)
                #expect(loaded.nightPrices.sum(row: row, from: start, to: start + nights) == expected)
            }
        }
    }

    /// Villas priced day by day past 65,535 units of their own a night (₫40–₫90 million to the ₫1,000) are dense,
    /// counted from a base; a saved index keeps the bases, and its stays' totals are the nights' sums.
    @Test func villasCountedFromABaseAreSavedAndLoaded() throws {
        var random = SeededGenerator(seed: 12)
        var listings: [ListingRecord] = [], nights: [(listingID: Int64, night: CalendarNight)] = [], prices: [Int64: [Int64]] = [:]
        for id in Int64(1)...60 {
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Hanoi", neighbourhood: "Hoan Kiem"),
                                          roomType: "Entire home/apt", accommodates: 4, price: Money(major: 2_000_000),
                                          ratingHundredths: nil, reviewCount: 0))
            let villa = id % 3 == 0
            for offset in 0..<40 {
                let thousands = villa ? Int64.random(in: 40_000...90_000, using: &random) : Int64.random(in: 500...3_000, using: &random)
                prices[id, default: []].append(thousands * 100_000)
                nights.append((id, CalendarNight(day: TestDataset.calendarStart.advanced(by: offset), isAvailable: true,
                                                 price: Money(minorUnits: thousands * 100_000), minimumNights: nil, maximumNights: nil)))
            }
        }
        let index = TestDataset(listings: listings, nights: nights).makeIndex().index
        #expect(index.nightPrices.denseRows == 60 && index.nightPrices.denseBases.array.filter { $0 >= 40_000 }.count == 20)
        let path = temporaryPath("villas.ssx")
        try IndexFileWriter.save(index, to: path)
        let loaded = try IndexFileReader.load(from: path)
        #expect(loaded.nightPrices.denseBases.array == index.nightPrices.denseBases.array)
        let start = index.firstDay.distance(to: TestDataset.calendarStart)
        for nights in [1, 7, 14, 30, 39] {
            let query = SearchQuery(checkIn: TestDataset.calendarStart, checkOut: TestDataset.calendarStart.advanced(by: nights), adults: 2,
                                    limit: 60)
            let answer = try index.search(query)
            #expect(answer.total == 60)
            #expect(try loaded.search(query) == answer)
            for row in 0..<60 {
                let expected = prices[loaded.listing(atRow: row).id]![0..<nights].reduce(0, +)
                #expect(loaded.nightPrices.sum(row: row, from: start, to: start + nights) == expected)
                #expect(index.nightPrices.sum(row: row, from: start, to: start + nights) == expected)
            }
        }
    }

    @Test func filesThatAreNotIndexesAreRefused() {
        expectRefused(write([]), saying: "the file is empty (0 bytes)")
        expectRefused(write(Array("id,name\n1,x\n".utf8)), saying: "signature")
        expectRefused(shipped + "/listings.csv.gz", saying: "signature")
        expectRefused(NSTemporaryDirectory(), saying: "it is a directory")
        expectRefused("/nonexistent/index.ssx", saying: "No such file or directory")
    }

    /// A flipped bit anywhere is refused, except in the zero padding between sections, which no
    /// answer depends on.
    @Test func flippedBytesAreRefusedOrHarmless() throws {
        let bytes = Self.saved.bytes
        var random = SeededGenerator(seed: 1)
        var refused = 0
        for trial in 0..<300 {
            var damaged = bytes
            let position = trial < 64 ? trial : Int.random(in: 0..<bytes.count, using: &random)
            damaged[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            do {
                let loaded = try IndexFileReader.load(from: write(damaged))
                // Only padding can change unnoticed: every column must be as saved.
                #expect(loaded.storage.ids.array == Self.saved.index.storage.ids.array && loaded.storage.bookable.array == Self.saved.index.storage.bookable.array)
                #expect(loaded.nightPrices.runs.values.array == Self.saved.index.nightPrices.runs.values.array && loaded.storage.densePrices.array == Self.saved.index.storage.densePrices.array)
            } catch {
                refused += 1
                #expect(error.description.contains("not a usable index"))
            }
        }
        #expect(refused > 250)
    }

    /// As root (how CI runs) this thread's file-system user becomes nobody for the read, so that permission
    /// bits apply to it as they do to any other user.
    @Test func aFileWithoutReadPermissionIsRefused() throws {
        let path = write(Self.saved.bytes, name: "secret.ssx")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        try Self.withoutRootsFileAccess { expectRefused(path, saying: "Permission denied") }
    }

    /// Runs `body` with this thread's file-system user id set to nobody's when it runs as root (Linux's
    /// setfsuid, which is per thread and drops root's file capabilities with it), then back.
    static func withoutRootsFileAccess(_ body: () throws -> Void) throws {
        guard getuid() == 0 else { return try body() }
        typealias SetFileSystemUser = @convention(c) (UInt32) -> Int32
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid"), "setfsuid is not in this C library")
        let setfsuid = unsafeBitCast(symbol, to: SetFileSystemUser.self)
        let nobody: UInt32 = 65_534
        _ = setfsuid(nobody)
        defer { _ = setfsuid(0) }
        try #require(setfsuid(UInt32.max) == Int32(nobody), "the file-system user could not be set to nobody")
        try body()
    }

    @Test func aFailedSaveLeavesTheEarlierFileIntact() throws {
        let path = write(Self.saved.bytes, name: "kept.ssx")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // A folder where the temporary file cannot be created.
        #expect(throws: DataError.self) { try IndexFileWriter.save(Self.saved.index, to: "/nonexistent-folder/kept.ssx") }
        // Saving over a directory fails at the rename; the directory and the folder stay as they were.
        let directory = temporaryPath("adirectory")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(throws: DataError.self) { try IndexFileWriter.save(Self.saved.index, to: directory) }
        let parent = (directory as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["adirectory"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
