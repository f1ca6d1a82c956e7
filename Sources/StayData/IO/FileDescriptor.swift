#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file: the one place that opens, reads, writes all of a buffer, syncs and closes files, and
/// turns `errno` into words. Closes the file when released (unless it was borrowed).
public final class FileDescriptor {
    /// The path, for messages.
    public let path: String
    /// The descriptor number.
    public let rawValue: Int32
    private let isOwned: Bool
    private var isClosed = false

    private init(rawValue: Int32, path: String, isOwned: Bool) {
        self.rawValue = rawValue
        self.path = path
        self.isOwned = isOwned
    }

    /// Wraps a descriptor someone else owns (standard output, say); it is never closed here.
    public init(borrowing rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
        isOwned = false
    }

    deinit { close() }

    /// What the last failed system call said, in words: `No such file or directory`.
    public static var lastError: String { String(cString: strerror(errno)) }

    /// Opens a regular file for reading.
    /// - Parameter directoryReason: what to say when `path` is a directory.
    /// - Returns: the file and its size in bytes.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` when it is missing, unreadable, a directory or not a regular file.
    public static func openForReading(_ path: String, directoryReason: String = "it is a directory") throws(DataError)
        -> (file: FileDescriptor, size: Int) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: lastError) }
        let file = FileDescriptor(rawValue: descriptor, path: path, isOwned: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(path: path, reason: lastError) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .cannotOpen(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? directoryReason : "it is not a regular file")
        }
        return (file, Int(info.st_size))
    }

    /// Creates a file for writing, emptying it when it exists.
    /// - Parameters:
    ///   - exclusive: fail when the file exists instead (for temporary files).
    ///   - name: the path messages name, when it is not `path` (a temporary file that becomes `name`).
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public static func create(_ path: String, exclusive: Bool = false, reportingAs name: String? = nil) throws(DataError)
        -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC)
        let descriptor = Glibc.open(path, flags, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: name ?? path, reason: lastError) }
        return FileDescriptor(rawValue: descriptor, path: name ?? path, isOwned: true)
    }

    /// Opens a file for reading and writing, creating it (empty) when missing; nothing in it is lost.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public static func openForUpdating(_ path: String) throws(DataError) -> FileDescriptor {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: lastError) }
        return FileDescriptor(rawValue: descriptor, path: path, isOwned: true)
    }

    /// Cuts the file to `size` bytes and moves the position to its end.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public func truncate(to size: Int) throws(DataError) {
        guard ftruncate(rawValue, off_t(size)) == 0, lseek(rawValue, off_t(size), SEEK_SET) >= 0 else {
            throw .cannotWrite(path: path, reason: Self.lastError)
        }
    }

    /// Makes a folder unless it exists.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public static func makeFolder(_ path: String) throws(DataError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw .cannotWrite(path: path, reason: lastError) }
    }

    /// Reads up to `buffer.count` bytes at the current position; 0 at the end of the file.
    /// - Throws: ``DataError/cannotRead(path:reason:)``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        while true {
            let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .cannotRead(path: path, reason: Self.lastError)
        }
    }

    /// Moves the read position to `offset` bytes from the start.
    /// - Throws: ``DataError/cannotRead(path:reason:)``.
    public func seek(to offset: Int) throws(DataError) {
        guard lseek(rawValue, off_t(offset), SEEK_SET) >= 0 else { throw .cannotRead(path: path, reason: Self.lastError) }
    }

    /// Writes every byte of `bytes`, however many calls it takes.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(DataError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(rawValue, bytes.baseAddress! + offset, min(bytes.count - offset, 1 << 30))
            if written < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: path, reason: Self.lastError)
            }
            offset += written
        }
    }

    /// Writes every byte of `bytes` at `offset`, leaving the position where it was.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(DataError) {
        let failure: DataError? = bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if written < 0 {
                    if errno == EINTR { continue }
                    return .cannotWrite(path: path, reason: Self.lastError)
                }
                done += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `bytes`.
    public func writeAll(_ bytes: [UInt8]) throws(DataError) {
        let failure: DataError? = bytes.withUnsafeBytes { buffer in
            do throws(DataError) { try writeAll(buffer) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Flushes what was written to the disk.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public func sync() throws(DataError) {
        guard fsync(rawValue) == 0 else { throw .cannotWrite(path: path, reason: Self.lastError) }
    }

    /// Closes the file (once; a borrowed descriptor stays open).
    public func close() {
        guard isOwned, !isClosed else { return }
        isClosed = true
        _ = Glibc.close(rawValue)
    }

    /// Renames `source` to `destination`, replacing it atomically.
    /// - Throws: ``DataError/cannotWrite(path:reason:)`` naming `destination`.
    public static func rename(_ source: String, to destination: String) throws(DataError) {
        guard Glibc.rename(source, destination) == 0 else { throw .cannotWrite(path: destination, reason: lastError) }
    }

    /// Flushes a folder's entries (after a rename into it), where the system allows it.
    public static func syncFolder(_ path: String) {
        let folder = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        _ = Glibc.close(folder)
    }
}
