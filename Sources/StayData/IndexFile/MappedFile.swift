#if canImport(Glibc)
import Glibc
#endif

/// A file mapped read-only into memory; unmapped when the last column that uses it goes away.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps the whole of the open file `descriptor` of `size` bytes (more than 0).
    init(descriptor: Int32, size: Int, path: String) throws(DataError) {
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw .cannotOpen(path: path, reason: "cannot map it into memory: \(FileDescriptor.lastError)")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    /// Makes the pages holding `range` (inside the mapping) writable; writes go to private copies of those
    /// pages, never to the file.
    /// - Returns: whether it could (false for an empty range or one outside the mapping).
    func makeWritable(_ range: UnsafeRawBufferPointer, prefault: Bool) -> Bool {
        guard let start = range.baseAddress, range.count > 0, let base = bytes.baseAddress,
              start >= base, start + range.count <= base + bytes.count else { return false }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = Int(bitPattern: start) / page * page
        let end = (Int(bitPattern: start) + range.count + page - 1) / page * page
        let pages = UnsafeMutableRawPointer(bitPattern: first)
        guard mprotect(pages, end - first, PROT_READ | PROT_WRITE) == 0 else { return false }
        // Copy every page now, in one call, rather than one fault at a time later (MADV_POPULATE_WRITE,
        // Linux 5.14; older kernels refuse it and the pages are copied as they are written).
        if prefault { _ = madvise(pages, end - first, 23) }
        return true
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
