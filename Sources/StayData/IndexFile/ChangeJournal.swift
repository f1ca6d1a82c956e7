import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// The append-only log of accepted live changes beside an index file (`INDEX.journal`): what makes a
/// change durable before it is acknowledged, and what a load replays.
///
/// Layout (little-endian): a 32-byte header — `SSJRNL01`, the identity of the index it belongs to
/// (``IndexFileReader/identity(ofIndexAt:)``), the sequence number of its first record, and a checksum of
/// those 24 bytes — then records: payload length (`UInt32`), sequence number (`UInt64`), the payload (a
/// ``ChangeRecord``: 25 bytes, more for a `listing` change), and a checksum of all that (`UInt64`). Records
/// are numbered one after another.
///
/// A crash can leave only the last record torn (written in part): a load drops it with a warning and
/// the next append writes over it. A record that fails its checksum with records after it is damage, not a
/// torn write, and the journal is refused. A journal of another index (left by a compaction that stopped
/// before it could replace the journal) is ignored with a warning.
public final class ChangeJournal {
    /// The journal's path.
    public let path: String
    /// The sequence number of the last record written (or replayed); 0 before the first.
    public private(set) var lastSequence: UInt64
    private let file: FileDescriptor
    private var pending: [UInt8] = []

    static let magic = Array("SSJRNL01".utf8)
    static let headerSize = 32
    /// Length, sequence number and checksum around each payload.
    static let recordOverhead = 20

    /// What a journal held: its changes in order, the sequence number of the last, where its sound part
    /// ends, and what was dropped or ignored.
    public struct Contents: Sendable {
        public var changes: [CalendarChange] = []
        /// The sequence number of the first change, and of the last (first − 1 when there are none).
        public var firstSequence: UInt64 = 1
        public var lastSequence: UInt64 = 0
        /// Bytes of header and sound records: where the next record goes.
        public var soundLength = 0
        /// Warnings for a person: a torn last record dropped, a journal of another index ignored.
        public var warnings: [String] = []
        /// The change-log position of a system of record that the changes bring the index up to, when the
        /// journal follows one (``ChangeJournal/appendPosition(_:)``); nil otherwise.
        public var followedPosition: UInt64?
        /// The followed log's today at ``followedPosition`` (its last `today` entry), when it had announced one.
        public var followedToday: Day?
        /// Where a window that rolls added days (``ChangeJournal/appendExtension(until:)``): after how many of
        /// ``changes``, and the day the calendars then end before; in order.
        public var extensions: [(afterChanges: Int, until: Day)] = []
        /// Whether the file must be rewritten from scratch before appending (missing, torn header, other index).
        var needsNewHeader = true
    }

    /// The journal path of the index at `indexPath`.
    public static func path(forIndex indexPath: String) -> String { indexPath + ".journal" }

    /// Reads the journal at `path` (none there: empty) for the index whose identity is `identity`,
    /// without changing the file.
    /// - Throws: ``DataError/malformedFile(path:reason:)`` for a damaged journal, ``DataError/cannotRead(path:reason:)``.
    public static func read(path: String, identity: UInt64) throws(DataError) -> Contents {
        let bytes: [UInt8]
        do throws(DataError) {
            let (file, size) = try FileDescriptor.openForReading(path)
            // Read straight into the array's storage: no zeroing, no copy (the journal of 100,000 changes is 4.5 MB).
            var failure: DataError?
            bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                while initialized < size {
                    do throws(DataError) {
                        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[initialized...]))
                        if count == 0 { break }
                        initialized += count
                    } catch {
                        failure = error
                        break
                    }
                }
            }
            if let failure { throw failure }
        } catch {
            if case .cannotOpen = error, access(path, F_OK) != 0 { return Contents() }
            throw error
        }
        return try parse(bytes, path: path, identity: identity)
    }

    /// Opens the journal at `path` for appending, reading what it holds first: a torn last record is cut
    /// off, a missing journal (or one of another index) is started afresh.
    /// - Returns: the journal, and what it held (to replay).
    public static func open(path: String, identity: UInt64) throws(DataError) -> (ChangeJournal, Contents) {
        let contents = try read(path: path, identity: identity)
        return (try open(path: path, identity: identity, holding: contents), contents)
    }

    /// Opens the journal at `path` for appending, given what ``read(path:identity:)`` found in it just before.
    static func open(path: String, identity: UInt64, holding contents: Contents) throws(DataError) -> ChangeJournal {
        let file = try FileDescriptor.openForUpdating(path)
        if contents.needsNewHeader {
            try file.truncate(to: 0)
            try file.writeAll(header(identity: identity, firstSequence: contents.lastSequence + 1))
            try file.sync()
            FileDescriptor.syncFolder(folder(of: path))
        } else {
            try file.truncate(to: contents.soundLength)
            try file.sync()
        }
        return ChangeJournal(path: path, file: file, lastSequence: contents.lastSequence)
    }

    /// Replaces the journal at `path` with an empty one for the index `identity` whose records will start at
    /// `firstSequence` (after a compaction): written beside it, synced, renamed over it.
    public static func reset(path: String, identity: UInt64, firstSequence: UInt64) throws(DataError) {
        try AtomicFile.write(header(identity: identity, firstSequence: firstSequence), to: path)
    }

    private init(path: String, file: FileDescriptor, lastSequence: UInt64) {
        self.path = path
        self.file = file
        self.lastSequence = lastSequence
    }

    /// Adds `change` to the records to write; it is durable only after ``commit()``.
    /// - Returns: its sequence number.
    @discardableResult
    public func append(_ change: CalendarChange) -> UInt64 {
        appendRecord(ChangeRecord.encode(change))
    }

    /// Records that the changes appended so far bring the index up to `position` of the change log it
    /// follows: written with them by the next ``commit()``. A load replays changes only up to the last such
    /// record (those after it were not followed whole, and are read from the log again), so that a
    /// replica's restart neither loses nor repeats a change. `today` is the log's today at that position (its
    /// last `today` entry), nil before it announced one.
    public func appendPosition(_ position: UInt64, today: Day? = nil) {
        appendRecord(ChangeRecord.encodePosition(position, today: today))
    }

    /// Records that the calendars now run until `until` (exclusive): a window that rolled added days, which
    /// the changes after it may touch; a load adds them at this point of the replay. Written with the
    /// changes by the next ``commit()``.
    public func appendExtension(until: Day) {
        appendRecord(ChangeRecord.encodeExtension(until: until))
    }

    /// Adds one record with the next sequence number around `payload`; returns that number.
    @discardableResult
    private func appendRecord(_ payload: [UInt8]) -> UInt64 {
        lastSequence += 1
        let start = pending.count
        pending.append(contentsOf: littleEndianBytes(UInt32(payload.count)))
        pending.append(contentsOf: littleEndianBytes(lastSequence))
        pending.append(contentsOf: payload)
        let checksum = pending[start...].withUnsafeBytes { Checksum.of($0) }
        pending.append(contentsOf: littleEndianBytes(checksum))
        return lastSequence
    }

    /// Writes the appended records and waits until the disk has them (`fsync`): one sync for however many
    /// changes were appended since the last commit (group commit).
    /// - Throws: ``DataError/cannotWrite(path:reason:)``; then the changes must not be acknowledged.
    public func commit() throws(DataError) {
        guard !pending.isEmpty else { return }
        try file.writeAll(pending)
        pending.removeAll(keepingCapacity: true)
        try file.sync()
    }

    /// Closes the file; records appended but not committed are not written.
    public func close() { file.close() }

    // MARK: Reading

    static func parse(_ bytes: [UInt8], path: String, identity: UInt64) throws(DataError) -> Contents {
        var contents = Contents()
        guard !bytes.isEmpty else { return contents }
        func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard bytes.count >= headerSize else {
            if magic.starts(with: bytes.prefix(magic.count)) {
                contents.warnings.append("\(path): the journal's header is torn (\(bytes.count) of \(headerSize) bytes, no record); started afresh")
                return contents
            }
            throw .malformedFile(path: path, reason: "not a staysearch change journal (it does not start with SSJRNL01)")
        }
        guard Array(bytes[0..<8]) == magic else {
            throw .malformedFile(path: path, reason: "not a staysearch change journal (it does not start with SSJRNL01)")
        }
        let headerChecksum = bytes.withUnsafeBytes { Checksum.of(UnsafeRawBufferPointer(rebasing: $0[0..<24])) }
        guard load(UInt64.self, at: 24) == headerChecksum else {
            throw .malformedFile(path: path, reason: "the journal's header is damaged (checksum mismatch); its changes cannot be trusted")
        }
        let firstSequence = load(UInt64.self, at: 16)
        guard load(UInt64.self, at: 8) == identity else {
            contents.warnings.append("\(path): the journal belongs to another index (left by an interrupted compaction?); ignored")
            return contents
        }
        contents.firstSequence = firstSequence
        contents.lastSequence = firstSequence - 1
        contents.needsNewHeader = false
        var offset = headerSize
        contents.soundLength = offset
        contents.changes.reserveCapacity((bytes.count - headerSize) / (ChangeRecord.size + recordOverhead))
        // Where the last position record ends: a followed journal keeps nothing after it.
        var marked: (changes: Int, sequence: UInt64, length: Int)?
        while offset < bytes.count {
            let remaining = bytes.count - offset
            if remaining < ChangeRecord.smallestSize + recordOverhead {
                contents.warnings.append("\(path): dropped a torn last record (\(remaining) bytes at byte \(offset)), as a crash leaves it")
                break
            }
            let length = Int(load(UInt32.self, at: offset))
            let kind: UInt8? = remaining > 12 ? bytes[offset + 12] : nil
            guard ChangeRecord.isPlausible(length: length, kind: kind) else {
                throw .malformedFile(path: path, reason: "the journal is damaged at byte \(offset) (record \(contents.lastSequence + 1): "
                    + "a length of \(length) bytes); refusing to load changes that cannot be trusted")
            }
            let size = length + recordOverhead
            if remaining < size {
                // Only a record's own beginning can be written without its end: its sequence number must follow.
                guard load(UInt64.self, at: offset + 4) == contents.lastSequence + 1 else {
                    throw .malformedFile(path: path, reason: "the journal is damaged at byte \(offset) (record \(contents.lastSequence + 1): "
                        + "a length of \(length) bytes past the end, out of sequence); refusing to load changes that cannot be trusted")
                }
                contents.warnings.append("\(path): dropped a torn last record (\(remaining) of \(size) bytes at byte \(offset)), as a crash leaves it")
                break
            }
            let checksum = bytes.withUnsafeBytes { Checksum.of(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + 12 + length)])) }
            let sequence = load(UInt64.self, at: offset + 4)
            let sound = checksum == load(UInt64.self, at: offset + 12 + length)
            let payload = bytes[(offset + 12)..<(offset + 12 + length)]
            if sound, sequence == contents.lastSequence + 1, let (position, today) = ChangeRecord.decodePosition(payload) {
                contents.followedPosition = position
                contents.followedToday = today
                contents.lastSequence = sequence
                offset += size
                contents.soundLength = offset
                marked = (contents.changes.count, sequence, offset)
                continue
            }
            if sound, sequence == contents.lastSequence + 1, let until = ChangeRecord.decodeExtension(payload) {
                contents.extensions.append((contents.changes.count, until))
                contents.lastSequence = sequence
                offset += size
                contents.soundLength = offset
                continue
            }
            let change = sound ? ChangeRecord.decode(payload) : nil
            guard sound, let change, sequence == contents.lastSequence + 1 else {
                if offset + size == bytes.count, !sound {
                    contents.warnings.append("\(path): dropped a torn last record (checksum mismatch at byte \(offset)), as a crash leaves it")
                    break
                }
                throw .malformedFile(path: path, reason: "the journal is damaged at byte \(offset) (record \(contents.lastSequence + 1): "
                    + "\(sound ? (change == nil ? "unreadable change" : "out of sequence") : "checksum mismatch") with records after it); "
                    + "refusing to load changes that cannot be trusted")
            }
            contents.changes.append(change)
            contents.lastSequence = sequence
            offset += size
            contents.soundLength = offset
        }
        if let marked, contents.changes.count > marked.changes {
            contents.warnings.append("\(path): dropped \(contents.changes.count - marked.changes) changes after the last followed "
                + "position \(contents.followedPosition!) (a stop mid-batch); they are read from the change log again")
            contents.changes.removeLast(contents.changes.count - marked.changes)
            contents.extensions.removeAll { $0.afterChanges > marked.changes }
            contents.lastSequence = marked.sequence
            contents.soundLength = marked.length
        }
        return contents
    }

    static func header(identity: UInt64, firstSequence: UInt64) -> [UInt8] {
        var bytes = magic + littleEndianBytes(identity) + littleEndianBytes(firstSequence)
        let checksum = bytes.withUnsafeBytes { Checksum.of($0) }
        bytes += littleEndianBytes(checksum)
        return bytes
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// The little-endian bytes of `value`.
func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}
