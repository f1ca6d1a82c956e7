import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Loading a saved index: map the file, check every byte against its checksums and every column
/// against the others, then use the mapped columns as they are. A file that fails any check is
/// refused with a message that says what is wrong; nothing in it is trusted before it is checked.
public enum IndexFileReader {
    /// Loads the index saved at `path`.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` when the file cannot be opened (missing, a
    ///   directory, not readable) and ``DataError/badIndex(path:reason:)`` when it is not a sound index.
    /// - Complexity: O(*n*) in the file's size.
    public static func load(from path: String) throws(DataError) -> ListingIndex {
        guard IndexFileFormat.isLittleEndianHost else {
            throw .badIndex(path: path, reason: "index files are little-endian and this machine is not")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .cannotOpen(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory, not an index file" : "it is not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw .badIndex(path: path, reason: "the file is empty (0 bytes)") }
        let file = try MappedFile(descriptor: descriptor, size: size, path: path)
        var reader = Reader(file: file, path: path)
        return try reader.read()
    }
}

/// One load: the checks in order, then the index.
private struct Reader {
    typealias Section = IndexFileFormat.Section

    let file: MappedFile
    let path: String
    var sections: [Section: (offset: Int, count: Int)] = [:]

    init(file: MappedFile, path: String) {
        self.file = file
        self.path = path
    }

    func fail(_ reason: String) -> DataError { .badIndex(path: path, reason: reason) }

    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: file.bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func read() throws(DataError) -> ListingIndex {
        let bytes = file.bytes
        guard bytes.count >= 8, Array(bytes[0..<8]) == IndexFileFormat.magic else {
            throw fail("it does not start with the staysearch index signature (is it an index made by 'staysearch import'?)")
        }
        guard bytes.count >= IndexFileFormat.headerSize else {
            throw fail("the file is truncated: \(bytes.count) bytes, shorter than the \(IndexFileFormat.headerSize)-byte header")
        }
        let version = load(UInt32.self, at: 8)
        guard version <= IndexFileFormat.version else {
            throw fail("it was written in format \(version) by a newer staysearch; this one reads format \(IndexFileFormat.version)")
        }
        guard version == IndexFileFormat.version, load(UInt32.self, at: 12) == UInt32(IndexFileFormat.headerSize) else {
            throw fail("unknown format \(version)")
        }
        let fileSize = load(UInt64.self, at: 16)
        guard fileSize == UInt64(bytes.count) else {
            throw fail(fileSize > UInt64(bytes.count)
                ? "the file is truncated: \(bytes.count) of \(fileSize) bytes"
                : "the file is \(bytes.count) bytes but its header says \(fileSize)")
        }
        let rowCount = load(UInt64.self, at: 24)
        let firstDay = load(Int32.self, at: 32)
        let dayCount = load(Int32.self, at: 36)
        let sectionCount = Int(load(UInt32.self, at: 40))
        let tableEnd = IndexFileFormat.headerSize + sectionCount * IndexFileFormat.sectionEntrySize
        guard sectionCount <= 1_000, tableEnd <= bytes.count else { throw fail("the section table is damaged") }
        let header = Array(bytes[0..<IndexFileFormat.headerSize])
        let table = Array(bytes[IndexFileFormat.headerSize..<tableEnd])
        guard IndexFileFormat.headerChecksum(header: header, table: table) == load(UInt64.self, at: 56) else {
            throw fail("the header checksum does not match (the file is damaged)")
        }
        guard rowCount <= UInt64(Int32.max), dayCount >= 0, dayCount <= 1_000_000 else {
            throw fail("implausible sizes: \(rowCount) listings, \(dayCount) days")
        }

        for entry in 0..<sectionCount {
            let base = IndexFileFormat.headerSize + entry * IndexFileFormat.sectionEntrySize
            let rawKind = load(UInt32.self, at: base)
            guard let kind = Section(rawValue: rawKind) else { throw fail("unknown section kind \(rawKind)") }
            guard sections[kind] == nil else { throw fail("section \(kind) appears twice") }
            guard load(UInt32.self, at: base + 4) == UInt32(kind.elementSize) else { throw fail("section \(kind) has the wrong element size") }
            let offset = load(UInt64.self, at: base + 8)
            let count = load(UInt64.self, at: base + 16)
            guard offset % UInt64(IndexFileFormat.alignment) == 0, offset >= UInt64(tableEnd), offset <= UInt64(bytes.count),
                  count <= (UInt64(bytes.count) - offset) / UInt64(kind.elementSize) else {
                throw fail("section \(kind) lies outside the file")
            }
            let range = Int(offset)..<(Int(offset) + Int(count) * kind.elementSize)
            guard Checksum.of(UnsafeRawBufferPointer(rebasing: bytes[range])) == load(UInt64.self, at: base + 24) else {
                throw fail("the checksum of section \(kind) does not match (the file is damaged)")
            }
            sections[kind] = (Int(offset), Int(count))
        }
        for kind in Section.allCases where sections[kind] == nil { throw fail("section \(kind) is missing") }

        return try assemble(rows: Int(rowCount), firstDay: Day(daysSinceEpoch: firstDay), dayCount: Int(dayCount))
    }

    func column<T: BitwiseCopyable>(_ kind: Section, _ type: T.Type = T.self) -> Column<T> {
        let (offset, count) = sections[kind]!
        return Column(borrowing: file.bytes.baseAddress! + offset, count: count, owner: file)
    }

    func expect(_ kind: Section, count expected: Int) throws(DataError) {
        guard sections[kind]!.count == expected else {
            throw fail("section \(kind) has \(sections[kind]!.count) elements, expected \(expected)")
        }
    }

    /// Checks that `offsets` has `count + 1` rising values from 0 to `total`.
    func checkOffsets(_ offsets: Column<UInt32>, count: Int, total: Int, what: String, atLeastOne: Bool = false) throws(DataError) {
        guard offsets.count == count + 1, offsets[0] == 0, Int(offsets[count]) == total else {
            throw fail("the \(what) offsets do not add up")
        }
        let rising = offsets.withUnsafeBufferPointer { buffer in
            for index in 0..<count where atLeastOne ? buffer[index] >= buffer[index + 1] : buffer[index] > buffer[index + 1] {
                return false
            }
            return true
        }
        guard rising else { throw fail("the \(what) offsets are out of order") }
    }

    func checkRuns<Value>(_ runs: DayRuns<Value>, rows: Int, dayCount: Int, what: String) throws(DataError) {
        try checkOffsets(runs.offsets, count: rows, total: runs.starts.count, what: what, atLeastOne: true)
        guard runs.values.count == runs.starts.count, runs.patterns.count % 7 == 0 else { throw fail("the \(what) runs do not add up") }
        let patternCount = runs.patterns.count / 7
        let referencesSound = runs.values.withUnsafeBufferPointer { values in
            values.allSatisfy { value in value.patternIndex.map { $0 < patternCount } ?? true }
        }
        guard referencesSound else { throw fail("a \(what) run refers to a weekly pattern that is not there") }
        let sound = runs.starts.withUnsafeBufferPointer { starts in
            runs.offsets.withUnsafeBufferPointer { offsets in
                for row in 0..<rows {
                    let first = Int(offsets[row]), end = Int(offsets[row + 1])
                    guard starts[first] == 0 else { return false }
                    var previous: Int32 = 0
                    for run in (first + 1)..<max(first + 1, end) {
                        guard starts[run] > previous, Int(starts[run]) < dayCount else { return false }
                        previous = starts[run]
                    }
                }
                return true
            }
        }
        guard sound else { throw fail("the \(what) runs are out of order") }
    }

    func assemble(rows: Int, firstDay: Day, dayCount: Int) throws(DataError) -> ListingIndex {
        let wordsPerDay = (rows + 63) / 64
        for kind: Section in [.ids, .regionNodes, .roomTypes, .accommodates, .basePrices, .listingPrices, .listingMinimumNights,
                              .listingMaximumNights, .ratings, .reviewCounts, .latitudes, .longitudes] {
            try expect(kind, count: rows)
        }
        try expect(.bookable, count: dayCount * wordsPerDay)
        try expect(.pricedWithoutDates, count: wordsPerDay)

        let names = StringColumn(bytes: column(.nameBytes), offsets: column(.nameOffsets))
        try checkOffsets(names.offsets, count: rows, total: names.bytes.count, what: "listing name")
        let roomTypeNames = StringColumn(bytes: column(.roomTypeNameBytes), offsets: column(.roomTypeNameOffsets))
        guard roomTypeNames.offsets.count >= 1, roomTypeNames.offsets.count <= 256 else { throw fail("the room type table is damaged") }
        try checkOffsets(roomTypeNames.offsets, count: roomTypeNames.count, total: roomTypeNames.bytes.count, what: "room type")
        let nodeNames = StringColumn(bytes: column(.nodeNameBytes), offsets: column(.nodeNameOffsets))
        guard nodeNames.offsets.count >= 1 else { throw fail("the region table is damaged") }
        let nodeCount = nodeNames.count
        try checkOffsets(nodeNames.offsets, count: nodeCount, total: nodeNames.bytes.count, what: "region name")
        for kind: Section in [.nodeLevels, .nodeParents, .nodeRowStarts, .nodeRowEnds] { try expect(kind, count: nodeCount) }

        // Region nodes: parents come first, levels go down, ranges nest inside their parent's.
        let levels: Column<UInt8> = column(.nodeLevels)
        let parents: Column<Int32> = column(.nodeParents)
        let starts: Column<Int64> = column(.nodeRowStarts)
        let ends: Column<Int64> = column(.nodeRowEnds)
        var nodes: [RegionNode] = []
        nodes.reserveCapacity(nodeCount)
        for node in 0..<nodeCount {
            guard let level = RegionNode.Level(rawValue: levels[node]) else { throw fail("region \(node) has an unknown level") }
            let parent = Int(parents[node])
            let start = starts[node], end = ends[node]
            guard start >= 0, start <= end, end <= Int64(rows) else { throw fail("region \(node) covers rows outside the index") }
            if parent < 0 {
                guard parent == -1, level == .city else { throw fail("region \(node) has no parent but is not a city") }
            } else {
                guard parent < node, level.rawValue > nodes[parent].level.rawValue,
                      nodes[parent].rows.lowerBound <= Int(start), Int(end) <= nodes[parent].rows.upperBound else {
                    throw fail("region \(node) does not sit inside its parent")
                }
            }
            let name = nodeNames[node]
            nodes.append(RegionNode(name: name, foldedName: TextFolding.fold(name), level: level, parent: Int32(parent),
                                    rows: Int(start)..<Int(end)))
        }

        // Per-row codes point into their tables, and each row lies inside its region's range.
        let regionNodes: Column<Int32> = column(.regionNodes)
        let roomTypes: Column<UInt8> = column(.roomTypes)
        let roomTypeCount = roomTypeNames.count
        let rowsSound = regionNodes.withUnsafeBufferPointer { regionNodes in
            roomTypes.withUnsafeBufferPointer { roomTypes in
                for row in 0..<rows {
                    let node = Int(regionNodes[row])
                    guard node >= 0, node < nodeCount, nodes[node].rows.contains(row), Int(roomTypes[row]) < roomTypeCount else { return false }
                }
                return true
            }
        }
        guard rowsSound else { throw fail("a listing points outside the region or room type tables") }

        let firstWeekday = firstDay.weekdayFromMonday
        let nightPrices = DayRuns<Int32>(offsets: column(.priceRunOffsets), starts: column(.priceRunStarts),
                                         values: column(.priceRunValues), patterns: column(.pricePatterns), firstWeekday: firstWeekday)
        try checkRuns(nightPrices, rows: rows, dayCount: dayCount, what: "price")
        let stayRules = DayRuns<UInt32>(offsets: column(.ruleRunOffsets), starts: column(.ruleRunStarts),
                                        values: column(.ruleRunValues), patterns: column(.rulePatterns), firstWeekday: firstWeekday)
        try checkRuns(stayRules, rows: rows, dayCount: dayCount, what: "stay rule")

        return ListingIndex(
            ids: column(.ids), names: names, regionNodes: regionNodes, roomTypes: roomTypes,
            accommodates: column(.accommodates), basePrices: column(.basePrices), listingPrices: column(.listingPrices),
            listingMinimumNights: column(.listingMinimumNights), listingMaximumNights: column(.listingMaximumNights),
            ratings: column(.ratings), reviewCounts: column(.reviewCounts), latitudes: column(.latitudes),
            longitudes: column(.longitudes), firstDay: firstDay, dayCount: dayCount, bookable: column(.bookable),
            pricedWithoutDates: column(.pricedWithoutDates), nightPrices: nightPrices, stayRules: stayRules,
            roomTypeNames: (0..<roomTypeCount).map { roomTypeNames[$0] }, regions: RegionTree(nodes: nodes))
    }
}
