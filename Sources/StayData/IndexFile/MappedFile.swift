#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes in memory, read-only: the file mapped, or a copy of it in huge pages (see
/// ``IndexMemory``); released when the last column that uses it goes away.
package final class MappedFile {
    let bytes: UnsafeRawBufferPointer
    /// The mapping to release: ``bytes``, or the larger anonymous region the copy was aligned within.
    private let mapping: UnsafeMutableRawBufferPointer

    /// The size of a huge page on x86-64 and arm64 with 4 KiB pages.
    private static let hugePageSize = 2 << 20

    /// Holds the whole of the open file `descriptor` of `size` bytes (more than 0) as `memory` asks.
    init(descriptor: Int32, size: Int, path: String, memory: IndexMemory = .mapped) throws(DataError) {
        if memory == .hugePages, MappedFile.hugePagesAreAvailable, MappedFile.memoryLeavesRoom(forCopyOf: size),
           let copy = try MappedFile.copyIntoHugePages(descriptor: descriptor, size: size, path: path) {
            bytes = UnsafeRawBufferPointer(start: copy.start, count: size)
            mapping = copy.mapping
            return
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw .cannotOpen(path: path, reason: "cannot map it into memory: \(FileDescriptor.lastError)")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        mapping = UnsafeMutableRawBufferPointer(start: address, count: size)
    }

    /// Whether the kernel gives huge pages to memory that asks for them (`enabled` is `always` or
    /// `madvise`, not `never`).
    private static var hugePagesAreAvailable: Bool {
        guard let line = lines(of: "/sys/kernel/mm/transparent_hugepage/enabled").first else { return false }
        return !line.contains("[never]")
    }

    /// Whether a copy of `size` bytes leaves as much memory again free: at most half of what the machine
    /// has available (`MemAvailable`, which counts the file's own cached pages as reclaimable) and of what
    /// the process's control group may still use. A copy cannot be paged out as the file's pages can, so an
    /// index near the machine's memory is mapped instead.
    package static func memoryLeavesRoom(forCopyOf size: Int) -> Bool {
        let available = lines(of: "/proc/meminfo").first { $0.hasPrefix("MemAvailable:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }.map { $0 * 1024 }
        guard var room = available else { return false }
        // The memory control group's limit, v2 or v1, as mounted for this process (inside a container, its own).
        var groups = [("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                      ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes")]
        if let entry = lines(of: "/proc/self/cgroup").first(where: { $0.hasPrefix("0::/") && $0.count > 4 }) {
            let group = "/sys/fs/cgroup" + entry.dropFirst(3)
            groups.append((group + "/memory.max", group + "/memory.current"))
        }
        for (limitFile, usedFile) in groups {
            if let limit = lines(of: limitFile).first.flatMap({ Int($0) }), let used = lines(of: usedFile).first.flatMap({ Int($0) }) {
                room = min(room, limit - used)
            }
        }
        return size <= room / 2
    }

    /// The lines of the small text file at `path` (the first 64 KiB), or none when it cannot be read.
    private static func lines(of path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes.prefix(count), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The file read into anonymous memory aligned to huge pages and advised to use them, then made
    /// read-only; nil when that memory cannot be had.
    private static func copyIntoHugePages(descriptor: Int32, size: Int, path: String)
        throws(DataError) -> (start: UnsafeMutableRawPointer, mapping: UnsafeMutableRawBufferPointer)? {
        let length = (size + hugePageSize - 1) / hugePageSize * hugePageSize
        // One huge page more than needed, so that a start on a huge page's boundary lies within.
        let region = mmap(nil, length + hugePageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else { return nil }
        let mapping = UnsafeMutableRawBufferPointer(start: region, count: length + hugePageSize)
        let start = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: region) + hugePageSize - 1) / hugePageSize * hugePageSize)!
        _ = madvise(start, length, MADV_HUGEPAGE)
        var copied = 0
        while copied < size {
            let count = pread(descriptor, start + copied, min(size - copied, 1 << 30), off_t(copied))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let reason = count < 0 ? "cannot read it: \(FileDescriptor.lastError)"
                    : "it ended at byte \(copied) of \(size) while it was read"
                munmap(region, length + hugePageSize)
                throw .cannotOpen(path: path, reason: reason)
            }
            copied += count
        }
        // Read-only from now on, as a mapped file is: only ``makeWritable(_:prefault:)`` opens a range again.
        _ = mprotect(start, length, PROT_READ)
        return (start, mapping)
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

    deinit { munmap(mapping.baseAddress, mapping.count) }
}
