import CFileSpace
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// A temporary file for what an ``IndexBuilder`` holds until it builds (see ``SpillStore``): created in
/// a folder and removed from it at once, so that it goes away with the process however the process
/// ends. Its pages live in the system's file cache, which gives them back under pressure, not in the
/// process's memory.
public final class SpillFile: SpillStore, @unchecked Sendable {
    /// The open file.
    private let descriptor: Int32
    /// The folder it is in, for messages.
    private let folder: String
    /// The end of everything reserved, and the first error met; guarded by `lock`.
    private var end = 0
    private var firstFailure: DataError?
    private let lock = ProgressLock()

    /// Creates the file in `folder` (the folder of the index being written: the same disk, where its
    /// writer expects room).
    /// - Throws: ``DataError/cannotWrite(path:reason:)`` when it cannot be created there.
    public init(inFolder folder: String) throws(DataError) {
        let path = "\(folder)/.staysearch-spill-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: folder, reason: "a temporary file there: \(FileDescriptor.lastError)") }
        unlink(path)
        self.descriptor = descriptor
        self.folder = folder
    }

    /// Creates the file in the folder of `path` (see ``init(inFolder:)``).
    public convenience init(besides path: String) throws(DataError) {
        try self.init(inFolder: AtomicFile.folder(of: path))
    }

    /// The first error the file gave, in the words of a ``DataError`` (a builder reports it only as text).
    public var failure: DataError? {
        var value: DataError?
        lock.run { value = firstFailure }
        return value
    }

    /// Remembers `error` if it is the first, and returns it.
    private func failed(_ error: DataError) -> DataError {
        lock.run { if firstFailure == nil { firstFailure = error } }
        return error
    }

    deinit { _ = Glibc.close(descriptor) }

    /// The bytes reserved so far: the file's size once written.
    public var byteCount: Int {
        var value = 0
        lock.run { value = end }
        return value
    }

    public func reserve(byteCount: Int, alignment: Int) throws -> Int {
        precondition(byteCount >= 0 && alignment > 0 && alignment & (alignment - 1) == 0, "a power-of-two alignment")
        var offset = 0
        lock.run {
            offset = (end + alignment - 1) & ~(alignment - 1)
            end = offset + byteCount
        }
        return offset
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0 {
                if errno == EINTR { continue }
                throw failed(.cannotWrite(path: folder, reason: "a temporary file there: \(FileDescriptor.lastError)"))
            }
            done += written
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw failed(.cannotRead(path: folder, reason: "a temporary file there: \(FileDescriptor.lastError)"))
            }
            guard count > 0 else {
                throw failed(.cannotRead(path: folder, reason: "a temporary file there ends before byte \(offset + buffer.count)"))
            }
            done += count
        }
    }

    public func discard(offset: Int, byteCount: Int) {
        // A file system that cannot punch holes keeps the blocks until the file goes; nothing is lost.
        _ = staysearch_punch_hole(descriptor, Int64(offset), Int64(byteCount))
    }

    public func map(offset: Int, byteCount: Int) throws -> (base: UnsafeRawPointer, owner: AnyObject) {
        do throws(DataError) {
            let mapping = try Mapping(descriptor: descriptor, offset: offset, byteCount: byteCount, folder: folder)
            return (mapping.bytes.baseAddress!, mapping)
        } catch {
            throw failed(error)
        }
    }

    /// A read-only stretch of the file in memory, mapped shared: its pages are the file cache's, and may
    /// be dropped from the process (``dropPages(_:)``) once read, to be read again from the cache if
    /// they are needed.
    package final class Mapping {
        /// The bytes asked for.
        let bytes: UnsafeRawBufferPointer
        /// The whole mapping: from the page the bytes start in.
        private let mapped: UnsafeMutableRawBufferPointer

        /// Maps `byteCount` bytes at `offset` of the open file `descriptor` (the mapping keeps the file
        /// open by itself, after the descriptor is closed).
        init(descriptor: Int32, offset: Int, byteCount: Int, folder: String) throws(DataError) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let start = offset / page * page
            let length = offset - start + max(byteCount, 1)
            let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, off_t(start))
            guard let address, address != MAP_FAILED else {
                throw .cannotRead(path: folder, reason: "cannot map a temporary file there: \(FileDescriptor.lastError)")
            }
            mapped = UnsafeMutableRawBufferPointer(start: address, count: length)
            bytes = UnsafeRawBufferPointer(start: address + (offset - start), count: byteCount)
        }

        /// Takes the whole pages inside `range` out of the process's memory (they stay in the file cache).
        func dropPages(_ range: UnsafeRawBufferPointer) {
            guard let start = range.baseAddress, let base = bytes.baseAddress, start >= base,
                  start + range.count <= base + bytes.count else { return }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let first = (Int(bitPattern: start) + page - 1) / page * page
            let last = (Int(bitPattern: start) + range.count) / page * page
            guard last > first else { return }
            _ = madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, MADV_DONTNEED)
        }

        deinit { munmap(mapped.baseAddress, mapped.count) }
    }
}
