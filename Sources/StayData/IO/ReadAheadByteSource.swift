#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads another byte source ahead on a thread of its own, a few chunks at a time, so that decoding it
/// (inflating gzip) runs on one core while the caller parses on another.
///
/// The bytes, their order and any error are those of the source; an error comes after the bytes read
/// before it. Releasing the reader early stops the thread.
public final class ReadAheadByteSource: ByteSource {
    private let pipe: ReadAheadPipe
    private var current: ReadAheadPipe.Chunk?
    private var position = 0
    private var consumed = 0
    /// The size of the source's file, when known.
    public let fileSize: Int?

    /// Starts reading `source` ahead in chunks of `chunkSize` bytes, at most `depth` of them waiting.
    /// - Parameter source: read only by the reading thread from now on.
    public init(_ source: any ByteSource, chunkSize: Int = 1 << 20, depth: Int = 4) {
        fileSize = source.fileSize
        pipe = ReadAheadPipe(source: source, chunkSize: chunkSize, depth: depth)
        pipe.start()
    }

    deinit {
        if let current { pipe.recycle(current.buffer) }
        pipe.cancel()
    }

    public var bytesConsumed: Int { consumed }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        while true {
            if let chunk = current {
                if position < chunk.count {
                    let count = min(buffer.count, chunk.count - position)
                    buffer.baseAddress!.copyMemory(from: chunk.buffer.baseAddress! + position, byteCount: count)
                    position += count
                    return count
                }
                pipe.recycle(chunk.buffer)
                current = nil
            }
            guard buffer.count > 0, let next = try pipe.take() else { return 0 }
            current = next
            consumed = next.consumedAfter
            position = 0
        }
    }
}

/// The chunks between the reading thread and the caller, behind one lock.
final class ReadAheadPipe: @unchecked Sendable {
    /// A chunk read: its buffer, how many bytes it holds, and the source's progress after it.
    struct Chunk {
        let buffer: UnsafeMutableRawBufferPointer
        let count: Int
        let consumedAfter: Int
    }

    private let source: any ByteSource
    private let buffers: [UnsafeMutableRawBufferPointer]
    private var free: [UnsafeMutableRawBufferPointer]
    private var filled: [Chunk] = []
    private var isFinished = false
    private var isCancelled = false
    private var failure: DataError?
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()

    init(source: any ByteSource, chunkSize: Int, depth: Int) {
        self.source = source
        buffers = (0..<max(2, depth)).map { _ in .allocate(byteCount: max(1, chunkSize), alignment: 64) }
        free = buffers
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
        for buffer in buffers { buffer.deallocate() }
    }

    /// Starts the reading thread, which keeps the pipe alive until it stops.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let pipe = Unmanaged<ReadAheadPipe>.fromOpaque(context!).takeRetainedValue()
            pipe.produce()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had: read in the caller's thread instead, all at once, chunk by chunk.
            Unmanaged<ReadAheadPipe>.fromOpaque(context).release()
            inlineReading = true
        }
    }

    /// When no thread could be started, `take()` reads the source itself.
    private var inlineReading = false

    /// The reading thread: fills free buffers until the source ends, fails, or the reader goes away.
    private func produce() {
        while true {
            pthread_mutex_lock(&mutex)
            while free.isEmpty && !isCancelled { pthread_cond_wait(&changed, &mutex) }
            if isCancelled {
                pthread_mutex_unlock(&mutex)
                return
            }
            let buffer = free.removeLast()
            pthread_mutex_unlock(&mutex)
            let outcome = Result { () throws(DataError) in try source.read(into: buffer) }
            pthread_mutex_lock(&mutex)
            switch outcome {
            case .success(let count) where count > 0:
                filled.append(Chunk(buffer: buffer, count: count, consumedAfter: source.bytesConsumed))
            case .success:
                free.append(buffer)
                isFinished = true
            case .failure(let error):
                free.append(buffer)
                failure = error
                isFinished = true
            }
            let done = isFinished
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            if done { return }
        }
    }

    /// The next chunk, waiting for it; nil at the end.
    /// - Throws: the source's error, once the chunks read before it are taken.
    func take() throws(DataError) -> Chunk? {
        if inlineReading {
            guard let buffer = free.popLast() else { return nil }
            let count = try source.read(into: buffer)
            guard count > 0 else {
                free.append(buffer)
                return nil
            }
            return Chunk(buffer: buffer, count: count, consumedAfter: source.bytesConsumed)
        }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while filled.isEmpty && !isFinished { pthread_cond_wait(&changed, &mutex) }
        if !filled.isEmpty { return filled.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Gives a taken chunk's buffer back for reading into.
    func recycle(_ buffer: UnsafeMutableRawBufferPointer) {
        pthread_mutex_lock(&mutex)
        free.append(buffer)
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Stops the reading thread at its next chunk.
    func cancel() {
        pthread_mutex_lock(&mutex)
        isCancelled = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
