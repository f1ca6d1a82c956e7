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

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                bytesConsumed += count
                return count
            }
            if errno == EINTR { continue }
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
