import CZlib
import Dispatch

/// Writes a gzip file, compressing on a thread of its own: the caller hands over filled buffers and goes
/// on filling the next while the last ones are deflated and written.
final class GzipFileWriter: @unchecked Sendable {
    private let path: String
    private let file: FileDescriptor
    /// Only touched on `queue` (and after it has finished, in ``close()``).
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableBufferPointer<UInt8>
    private var failure: DataError?
    private let queue = DispatchQueue(label: "staysearch.gzip")
    /// Buffers handed over and not yet compressed: the caller waits beyond this many.
    private let pending = DispatchSemaphore(value: 3)

    /// Creates (or replaces) the file at `path`.
    /// - Parameter level: zlib's level, 1 (fastest) to 9 (smallest).
    init(path: String, level: Int32) throws(DataError) {
        self.path = path
        file = try FileDescriptor.create(path)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(capacity: 1 << 20)
        guard staysearch_deflate_init_gzip(stream, level) == Z_OK else {
            file.close()
            throw .cannotWrite(path: path, reason: "zlib could not start")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses and writes `bytes` after what was written before, on the compressing thread.
    /// - Throws: the first error of an earlier write.
    func write(_ bytes: [UInt8]) throws(DataError) {
        pending.wait()
        if let failure = queue.sync(execute: { self.failure }) { throw failure }
        queue.async {
            self.deflate(bytes, flush: Z_NO_FLUSH)
            self.pending.signal()
        }
    }

    /// Finishes the gzip stream, flushes it to disk and closes the file.
    func close() throws(DataError) {
        queue.sync { deflate([], flush: Z_FINISH) }
        defer { file.close() }
        if let failure { throw failure }
        try file.sync()
    }

    private func deflate(_ bytes: [UInt8], flush: Int32) {
        guard failure == nil else { return }
        bytes.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            repeat {
                stream.pointee.next_out = output.baseAddress
                stream.pointee.avail_out = UInt32(output.count)
                let status = CZlib.deflate(stream, flush)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    failure = .cannotWrite(path: path, reason: "zlib failed (\(status))")
                    return
                }
                let produced = output.count - Int(stream.pointee.avail_out)
                do throws(DataError) {
                    try file.writeAll(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[0..<produced]))
                } catch {
                    failure = error
                    return
                }
            } while stream.pointee.avail_out == 0
        }
    }
}
