import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Loading a saved index: map the file, check every byte against its checksums and every column
/// against the others, then use the mapped columns as they are. A file that fails any check is
/// refused with a message that says what is wrong; nothing in it is trusted before it is checked.
public enum IndexFileReader {
    /// Loads the index saved at `path`, its bytes held as `memory` says.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` when the file cannot be opened (missing, a
    ///   directory, not readable) and ``DataError/badIndex(path:reason:)`` when it is not a sound index.
    /// - Complexity: O(*n*) in the file's size.
    public static func load(from path: String, memory: IndexMemory = .mapped) throws(DataError) -> ListingIndex {
        try load(from: path, forChanges: false, prefault: false, memory: memory).index
    }

    /// Loads the index saved at `path` for a ``LiveIndex`` to change: its availability bit sets are made
    /// writable in place, privately (the mapping is copy-on-write: the file never changes, and only the
    /// pages a change touches are copied, instead of the whole 45 MB at 1M listings).
    /// - Returns: the index, and whether its availability memory was made writable (it is unless the index
    ///   has no rows); only then may it be given to ``LiveIndex/init(adoptingWritableAvailabilityOf:)``.
    /// - Parameter prefault: copy every availability page at once (for a long journal whose changes will
    ///   touch most of them), instead of each on its first write.
    /// - Parameter memory: how the file's bytes are held (see ``IndexMemory``).
    public static func loadForChanges(from path: String, prefault: Bool = false, memory: IndexMemory = .mapped)
        throws(DataError) -> (index: ListingIndex, isWritable: Bool) {
        try load(from: path, forChanges: true, prefault: prefault, memory: memory)
    }

    private static func load(from path: String, forChanges: Bool, prefault: Bool, memory: IndexMemory)
        throws(DataError) -> (index: ListingIndex, isWritable: Bool) {
        guard IndexFileFormat.isLittleEndianHost else {
            throw .badIndex(path: path, reason: "index files are little-endian and this machine is not")
        }
        let (descriptor, size) = try FileDescriptor.openForReading(path, directoryReason: "it is a directory, not an index file")
        guard size > 0 else { throw .badIndex(path: path, reason: "the file is empty (0 bytes)") }
        let file = try MappedFile(descriptor: descriptor.rawValue, size: size, path: path, memory: memory)
        let index = try Reader(file: file, path: path).read()
        guard forChanges else { return (index, false) }
        let isWritable = index.storage.bookable.withUnsafeBytes { file.makeWritable($0, prefault: prefault) }
        return (index, isWritable)
    }

    /// What identifies the saved index at `path`: its header checksum, which covers every section's
    /// checksum. A change journal names the index it belongs to with it.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` or ``DataError/badIndex(path:reason:)``.
    public static func identity(ofIndexAt path: String) throws(DataError) -> UInt64 {
        try header(ofIndexAt: path).withUnsafeBytes { $0.loadUnaligned(fromByteOffset: IndexFileFormat.headerSize - 8, as: UInt64.self) }
    }

    /// The change-log position the saved index at `path` is a snapshot at (`import --from`); nil when it
    /// was not made from a system of record.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` or ``DataError/badIndex(path:reason:)``.
    public static func changeLogPosition(ofIndexAt path: String) throws(DataError) -> UInt64? {
        let stored = try header(ofIndexAt: path).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 48, as: UInt64.self)) }
        return stored >> 63 == 1 ? stored & ~(1 << 63) : nil
    }

    /// The today of the system of record at ``changeLogPosition(ofIndexAt:)``, when the index was made by
    /// `import --from` from a database whose log had announced one.
    /// - Throws: ``DataError`` when the file cannot be read or is shorter than its header.
    public static func systemOfRecordToday(ofIndexAt path: String) throws(DataError) -> Day? {
        let stored = try header(ofIndexAt: path).withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 44, as: UInt32.self)) }
        return stored == 0 ? nil : Day(daysSinceEpoch: Int32(bitPattern: stored) &- 1)
    }

    /// The header's bytes of the saved index at `path`.
    private static func header(ofIndexAt path: String) throws(DataError) -> [UInt8] {
        let (file, size) = try FileDescriptor.openForReading(path)
        guard size >= IndexFileFormat.headerSize else { throw .badIndex(path: path, reason: "the file is shorter than its header") }
        var header = [UInt8](repeating: 0, count: IndexFileFormat.headerSize)
        var filled = 0
        while filled < header.count {
            let result: Result<Int, DataError> = header.withUnsafeMutableBytes { buffer in
                Result { () throws(DataError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            }
            let count = try result.get()
            guard count > 0 else { throw .badIndex(path: path, reason: "the file is shorter than its header") }
            filled += count
        }
        return header
    }
}

/// One load: the header and section checks in order, then the engine checks the columns.
private struct Reader {
    let file: MappedFile
    let path: String

    func fail(_ reason: String) -> DataError { .badIndex(path: path, reason: reason) }

    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: file.bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    func read() throws(DataError) -> ListingIndex {
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
        guard version == 0 || version >= IndexFileFormat.oldestReadable else {
            throw fail("it was written in format \(version) by an older staysearch; this one reads format \(IndexFileFormat.version): "
                + "make it again with 'staysearch import' (or 'generate')")
        }
        guard version >= IndexFileFormat.oldestReadable, load(UInt32.self, at: 12) == UInt32(IndexFileFormat.headerSize) else {
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

        // Every section the engine's column table names, checked against its checksum, then handed over.
        var storage = IndexStorage()
        var found = Set<UInt32>()
        for entry in 0..<sectionCount {
            let base = IndexFileFormat.headerSize + entry * IndexFileFormat.sectionEntrySize
            let id = load(UInt32.self, at: base)
            guard let column = IndexStorage.table.first(where: { $0.id == id }) else { throw fail("unknown section kind \(id)") }
            guard found.insert(id).inserted else { throw fail("section \(column.name) appears twice") }
            guard load(UInt32.self, at: base + 4) == UInt32(column.elementSize) else {
                throw fail("section \(column.name) has the wrong element size")
            }
            let offset = load(UInt64.self, at: base + 8)
            let count = load(UInt64.self, at: base + 16)
            guard offset % UInt64(IndexFileFormat.alignment) == 0, offset >= UInt64(tableEnd), offset <= UInt64(bytes.count),
                  count <= (UInt64(bytes.count) - offset) / UInt64(column.elementSize) else {
                throw fail("section \(column.name) lies outside the file")
            }
            let range = Int(offset)..<(Int(offset) + Int(count) * column.elementSize)
            guard Checksum.of(UnsafeRawBufferPointer(rebasing: bytes[range])) == load(UInt64.self, at: base + 24) else {
                throw fail("the checksum of section \(column.name) does not match (the file is damaged)")
            }
            column.assign(&storage, bytes.baseAddress! + Int(offset), Int(count), file)
        }
        // A file of an earlier format lacks the sections added since: they stay empty (no fees before format 6).
        for column in IndexStorage.table where !found.contains(column.id) && column.since <= version {
            throw fail("section \(column.name) is missing")
        }

        // Format 6 kept a listing's fees together; the engine reads them in planes.
        if version == 6 { storage.arrangeFeeEntries(inPlanes: true) }
        let shape = IndexShape(rows: Int(rowCount), firstDay: Day(daysSinceEpoch: firstDay), dayCount: Int(dayCount))
        do throws(IndexCorruption) {
            return try ListingIndex(validating: storage, shape: shape)
        } catch {
            throw fail(error.reason)
        }
    }
}
