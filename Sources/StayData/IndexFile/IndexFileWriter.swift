import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Saving a ``ListingIndex`` as an index file (see ``IndexFileFormat``).
public enum IndexFileWriter {
    /// Writes `index` to `path`: to a temporary file in the same folder first, flushed to disk, then
    /// renamed into place, so a crash or kill during the save leaves any earlier file intact.
    /// - Parameter changeLogPosition: the position of a system of record's change log that the index is
    ///   a snapshot at (`import --from`), read back by ``IndexFileReader/changeLogPosition(ofIndexAt:)``; nil
    ///   for an index made otherwise.
    /// - Parameter today: with a position, the database's today at it (its log's last `today` entry), read
    ///   back by ``IndexFileReader/systemOfRecordToday(ofIndexAt:)``.
    /// - Returns: the size of the file in bytes.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    @discardableResult
    public static func save(_ index: ListingIndex, to path: String, changeLogPosition: UInt64? = nil,
                            today: Day? = nil) throws(DataError) -> Int {
        try save(index, to: path, changeLogPosition: changeLogPosition, today: today, format: IndexFileFormat.version)
    }

    /// ``save(_:to:changeLogPosition:today:)`` in file format `format`, at least ``IndexFileFormat/oldestReadable``:
    /// the sections added after it left out (how the tests make a file of an earlier build).
    @discardableResult
    package static func save(_ index: ListingIndex, to path: String, changeLogPosition: UInt64? = nil,
                             today: Day? = nil, format: UInt32) throws(DataError) -> Int {
        precondition((IndexFileFormat.oldestReadable...IndexFileFormat.version).contains(format))
        var storage = index.storage
        // Before format 8 every dense row counted whole units: a row of a coarser unit is written in whole
        // units; one of a finer unit, or too dear for whole units, cannot be written so.
        if format < 8, !storage.expressDenseRowsInWholeUnits() {
            preconditionFailure("an index with dense rows in units finer than whole units needs format 8")
        }
        // Before format 12 no dense row counted from a base of its own.
        if format < 12, storage.denseBases.count > 0 {
            preconditionFailure("an index with dense rows counted from a base needs format 12")
        }
        if format == 6 { storage.arrangeFeeEntries(inPlanes: false) }   // format 6 kept a listing's fees together
        let sections = IndexStorage.table.filter { $0.since <= format }.map { column in (column: column, bytes: column.bytes(storage)) }
        var offsets: [Int] = []
        var offset = IndexFileFormat.aligned(IndexFileFormat.headerSize + IndexFileFormat.sectionEntrySize * sections.count)
        var fileSize = offset
        for section in sections {
            offsets.append(offset)
            fileSize = offset + section.bytes.count * section.column.elementSize
            offset = IndexFileFormat.aligned(fileSize)
        }

        try AtomicFile.replace(path) { file throws(DataError) in
            // The sections first, each checksummed as it is written, a slice at a time; then the header
            // and section table, which hold the checksums, over the zeros left for them.
            var position = 0
            var checksums: [UInt64] = []
            for (section, sectionOffset) in zip(sections, offsets) {
                if sectionOffset > position {
                    try file.writeAll([UInt8](repeating: 0, count: sectionOffset - position))
                    position = sectionOffset
                }
                let mapping = section.bytes.owner as? SpillFile.Mapping
                let result: Result<UInt64, DataError> = section.bytes.withBytes { bytes in
                    var stream = Checksum.Stream()
                    var start = 0
                    repeat {
                        let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + sliceSize, bytes.count)])
                        stream.add(slice)
                        do throws(DataError) { try file.writeAll(slice) } catch { return .failure(error) }
                        // A section mapped from a spill file is read once: its pages go back to the file
                        // cache as soon as they are written, not held until the whole save is done.
                        mapping?.dropPages(slice)
                        start += slice.count
                    } while start < bytes.count
                    return .success(stream.checksum())
                }
                checksums.append(try result.get())
                position += section.bytes.count * section.column.elementSize
            }

            var head = ByteWriter()
            head.append(IndexFileFormat.magic)
            head.append(format)
            head.append(UInt32(IndexFileFormat.headerSize))
            head.append(UInt64(fileSize))
            head.append(UInt64(index.count))
            head.append(index.firstDay.daysSinceEpoch)
            head.append(Int32(index.dayCount))
            head.append(UInt32(sections.count))
            // The system of record's today at the position (days since 1970 + 1; 0: none).
            head.append(today.map { UInt32(bitPattern: $0.daysSinceEpoch &+ 1) } ?? 0)
            // The top bit says there is a position (the first snapshot of a database is at position 0).
            head.append(changeLogPosition.map { $0 | 1 << 63 } ?? 0)
            var table = ByteWriter()
            for ((section, sectionOffset), checksum) in zip(zip(sections, offsets), checksums) {
                table.append(section.column.id)
                table.append(UInt32(section.column.elementSize))
                table.append(UInt64(sectionOffset))
                table.append(UInt64(section.bytes.count))
                table.append(checksum)
            }
            head.append(IndexFileFormat.headerChecksum(header: head.bytes, table: table.bytes))
            head.append(table.bytes)
            try file.writeAll(head.bytes, at: 0)
        }
        return fileSize
    }

    /// The bytes of a section checksummed and written at a time (whole 32-byte blocks).
    static let sliceSize = 64 << 20
}

extension IndexFileFormat {
    /// The checksum that guards the header (all but its last 8 bytes) and the section table.
    static func headerChecksum(header: [UInt8], table: [UInt8]) -> UInt64 {
        let headerPart = header.prefix(headerSize - 8)
        let first = Array(headerPart).withUnsafeBytes { Checksum.of($0) }
        return table.withUnsafeBytes { Checksum.of($0, seed: first) }
    }
}

/// Little-endian bytes of a header.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
