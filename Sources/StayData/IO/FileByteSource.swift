/// The bytes of a file on disk, read with `read(2)`.
public final class FileByteSource: ByteSource {
    /// The path it reads.
    public let path: String
    /// The file's size in bytes when opened.
    public let size: Int
    private let file: FileDescriptor
    public private(set) var bytesConsumed = 0
    public var fileSize: Int? { size }
    /// Bytes left to read in the range this source reads; `Int.max` for the whole file.
    private var remaining = Int.max

    /// Opens `path` for reading.
    /// - Throws: ``DataError/cannotOpen(path:reason:)`` when it is missing, a directory or unreadable.
    public init(path: String) throws(DataError) {
        self.path = path
        (file, size) = try FileDescriptor.openForReading(path)
    }

    /// Opens the file to read only the bytes in `range` (clamped to the file); `bytesConsumed`
    /// counts from the range's start.
    /// - Throws: as ``init(path:)``, and ``DataError/cannotRead(path:reason:)`` when it cannot seek.
    public convenience init(path: String, range: Range<Int>) throws(DataError) {
        try self.init(path: path)
        let start = min(max(0, range.lowerBound), size)
        try file.seek(to: start)
        remaining = max(0, min(range.upperBound, size) - start)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(min(buffer.count, remaining))))
        bytesConsumed += count
        if remaining != Int.max { remaining -= count }
        return count
    }
}
