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

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
