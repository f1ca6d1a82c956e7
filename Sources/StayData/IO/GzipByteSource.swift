import CZlib

/// The decompressed bytes of a gzip file (one or more members), inflated with zlib.
public final class GzipByteSource: ByteSource {
    private let file: FileByteSource
    private var stream = z_stream()
    private let input: UnsafeMutableRawBufferPointer
    private var isInitialized = false
    private var isFinished = false

    /// Decompresses the bytes of `file`.
    public init(file: FileByteSource) {
        self.file = file
        self.input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    }

    deinit {
        if isInitialized { inflateEnd(&stream) }
        input.deallocate()
    }

    public var bytesConsumed: Int { file.bytesConsumed - Int(stream.avail_in) }

    /// The size of the compressed file.
    public var fileSize: Int? { file.size }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        if !isInitialized {
            guard staysearch_inflate_init_gzip(&stream) == Z_OK else {
                throw .cannotRead(path: file.path, reason: "zlib could not start")
            }
            isInitialized = true
        }
        guard !isFinished, buffer.count > 0 else { return 0 }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.avail_out > 0 {
            if stream.avail_in == 0 {
                let count = try file.read(into: input)
                if count == 0 {
                    guard isBetweenMembers else {
                        throw .cannotRead(path: file.path, reason: "the gzip data ends early (truncated file)")
                    }
                    isFinished = true
                    break
                }
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = UInt32(count)
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                isBetweenMembers = false
            case Z_STREAM_END:
                isBetweenMembers = true
                finishedMembers += 1
                inflateReset(&stream)
            case Z_DATA_ERROR where isBetweenMembers && finishedMembers > 0:
                // Trailing bytes after the last member (some tools pad with zeros): the data is complete.
                isFinished = true
                return buffer.count - Int(stream.avail_out)
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .cannotRead(path: file.path, reason: "not valid gzip data (\(message))")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    /// True before the first member starts and after a member ends.
    private var isBetweenMembers = true
    /// How many gzip members have ended.
    private var finishedMembers = 0
}
