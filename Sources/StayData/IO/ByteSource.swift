/// Something that hands out the bytes of a file, decoded if need be, in order.
public protocol ByteSource: AnyObject {
    /// Fills the front of `buffer` with the next bytes.
    /// - Returns: how many bytes were written; 0 at the end.
    /// - Throws: ``DataError`` when the bytes cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int

    /// How many bytes of the underlying file have been consumed so far (for progress).
    var bytesConsumed: Int { get }

    /// The size of the underlying file in bytes, when known (for progress and estimates).
    var fileSize: Int? { get }
}

extension ByteSource {
    /// Unknown unless the source says.
    public var fileSize: Int? { nil }
}

/// Opens a file as a byte source, decompressing it when its name ends in `.gz` (inflated ahead on a
/// thread of its own, so that inflating and parsing run on two cores).
public func openByteSource(path: String) throws(DataError) -> any ByteSource {
    let file = try FileByteSource(path: path)
    return path.hasSuffix(".gz") ? ReadAheadByteSource(GzipByteSource(file: file)) : file
}
