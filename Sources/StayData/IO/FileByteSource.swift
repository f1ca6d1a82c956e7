#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file on disk, read with `read(2)`. Owns the file descriptor.
public final class FileByteSource: ByteSource {
    /// The path it reads.
    public let path: String
    /// The file's size in bytes when opened.
    public let size: Int
    private let descriptor: Int32
    public private(set) var bytesConsumed = 0
    /// Bytes left to read in the range this source reads; `Int.max` for the whole file.
    private var remaining = Int.max

    /// Opens `path` for reading.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` when it is missing, a directory or unreadable.
    public init(path: String) throws(DataError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .cannotOpen(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "it is not a regular file")
        }
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    /// Opens the file to read only the bytes in `range` (clamped to the file); `bytesConsumed`
    /// counts from the range's start.
    /// - Throws: as ``init(path:)``, and ``DataError/cannotRead(path:reason:)`` when it cannot seek.
    public convenience init(path: String, range: Range<Int>) throws(DataError) {
        try self.init(path: path)
        let start = min(max(0, range.lowerBound), size)
        guard lseek(descriptor, off_t(start), SEEK_SET) >= 0 else {
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        remaining = max(0, min(range.upperBound, size) - start)
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, min(buffer.count, remaining))
            if count >= 0 {
                bytesConsumed += count
                if remaining != Int.max { remaining -= count }
                return count
            }
            if errno == EINTR { continue }
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
