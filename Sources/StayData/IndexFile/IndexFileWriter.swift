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
    /// - Returns: the size of the file in bytes.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    @discardableResult
    public static func save(_ index: ListingIndex, to path: String, changeLogPosition: UInt64? = nil) throws(DataError) -> Int {
        let sections = IndexStorage.table.map { column in (column: column, bytes: column.bytes(index.storage)) }
        var layout: [(offset: Int, checksum: UInt64)] = []
        var offset = IndexFileFormat.aligned(IndexFileFormat.headerSize + IndexFileFormat.sectionEntrySize * sections.count)
        var fileSize = offset
        for section in sections {
            layout.append((offset, section.bytes.withBytes { Checksum.of($0) }))
            fileSize = offset + section.bytes.count * section.column.elementSize
            offset = IndexFileFormat.aligned(fileSize)
        }

        var head = ByteWriter()
        head.append(IndexFileFormat.magic)
        head.append(IndexFileFormat.version)
        head.append(UInt32(IndexFileFormat.headerSize))
        head.append(UInt64(fileSize))
        head.append(UInt64(index.count))
        head.append(index.firstDay.daysSinceEpoch)
        head.append(Int32(index.dayCount))
        head.append(UInt32(layout.count))
        head.append(UInt32(0))
        // The top bit says there is a position (the first snapshot of a database is at position 0).
        head.append(changeLogPosition.map { $0 | 1 << 63 } ?? 0)
        var table = ByteWriter()
        for (section, placement) in zip(sections, layout) {
            table.append(section.column.id)
            table.append(UInt32(section.column.elementSize))
            table.append(UInt64(placement.offset))
            table.append(UInt64(section.bytes.count))
            table.append(placement.checksum)
        }
        head.append(IndexFileFormat.headerChecksum(header: head.bytes, table: table.bytes))
        head.append(table.bytes)

        try AtomicFile.replace(path) { file throws(DataError) in
            try file.writeAll(head.bytes)
            var position = head.bytes.count
            for (section, placement) in zip(sections, layout) {
                if placement.offset > position {
                    try file.writeAll([UInt8](repeating: 0, count: placement.offset - position))
                    position = placement.offset
                }
                let failure: DataError? = section.bytes.withBytes { bytes in
                    do throws(DataError) { try file.writeAll(bytes) } catch { return error }
                    return nil
                }
                if let failure { throw failure }
                position += section.bytes.count * section.column.elementSize
            }
        }
        return fileSize
    }
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
