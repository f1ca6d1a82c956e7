/// Something that hands out the bytes of a file, decoded if need be, in order.
public protocol ByteSource: AnyObject {
    /// Fills the front of `buffer` with the next bytes.
    /// - Returns: how many bytes were written; 0 at the end.
    /// - Throws: ``DataError`` when the bytes cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int

    /// How many bytes of the underlying file have been consumed so far (for progress).
    var bytesConsumed: Int { get }
}

/// Opens a file as a byte source, decompressing it when its name ends in `.gz`.
public func openByteSource(path: String) throws(DataError) -> any ByteSource {
    let file = try FileByteSource(path: path)
    return path.hasSuffix(".gz") ? GzipByteSource(file: file) : file
}
