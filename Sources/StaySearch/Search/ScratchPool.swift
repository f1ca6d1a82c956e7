#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Large working buffers kept from one query to the next.
///
/// A scan writes a value for every match into a buffer with room for every row it may visit (80 MB at
/// ten million rows). The C allocator maps an allocation that large afresh each time and unmaps it when
/// it is freed, so every page the query then writes costs a page fault and a page of zeroes: on 10M
/// generated listings, queries without a region spent about 40 % of their time so. Buffers taken from
/// the pool are mapped already.
///
/// The pool keeps at most ``keeping`` free buffers (three for each core: a query's values, its rows and
/// its ranking slots), freeing the smallest beyond that, so what it holds is bounded by the largest
/// queries that ran at once.
package final class ScratchPool: @unchecked Sendable {
    /// The pool every search uses.
    static let shared = ScratchPool(keeping: 3 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// Below this many bytes a buffer comes from the allocator and goes back to it: its heap serves
    /// small sizes without mapping.
    package static let smallestPooledBytes = 1 << 20

    /// How many free buffers the pool keeps.
    let keeping: Int
    private let lock = ReadWriteLock()
    private var free: [UnsafeMutableRawBufferPointer] = []
    /// The whole size of each pooled buffer lent out, by its address (a borrower sees only what it asked for).
    private var lent: [UnsafeMutableRawPointer: Int] = [:]

    package init(keeping: Int) {
        self.keeping = keeping
    }

    deinit {
        for buffer in free { buffer.deallocate() }
    }

    /// A buffer of `count` elements of `type` (at least one), uninitialised; give it back with
    /// ``giveBack(_:)``.
    package func take<Element>(_ type: Element.Type, count: Int) -> UnsafeMutableBufferPointer<Element> {
        let bytes = max(1, count) * MemoryLayout<Element>.stride
        guard bytes >= ScratchPool.smallestPooledBytes else { return .allocate(capacity: max(1, count)) }
        let buffer: UnsafeMutableRawBufferPointer = lock.writing {
            // The smallest free buffer large enough, else a new one.
            var best: Int?
            for (position, buffer) in free.enumerated() where buffer.count >= bytes {
                if best == nil || buffer.count < free[best!].count { best = position }
            }
            let buffer = best.map { free.remove(at: $0) } ?? .allocate(byteCount: bytes, alignment: 64)
            lent[buffer.baseAddress!] = buffer.count
            return buffer
        }
        return UnsafeMutableBufferPointer(start: buffer.baseAddress!.bindMemory(to: Element.self, capacity: max(1, count)),
                                          count: max(1, count))
    }

    /// Returns a buffer taken by ``take(_:count:)``; its contents are left as they are.
    package func giveBack<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
        let address = UnsafeMutableRawPointer(buffer.baseAddress!)
        guard buffer.count * MemoryLayout<Element>.stride >= ScratchPool.smallestPooledBytes else {
            buffer.deallocate()
            return
        }
        let surplus: UnsafeMutableRawBufferPointer? = lock.writing {
            free.append(UnsafeMutableRawBufferPointer(start: address, count: lent.removeValue(forKey: address)!))
            guard free.count > keeping else { return nil }
            let smallest = free.indices.min { free[$0].count < free[$1].count }!
            return free.remove(at: smallest)
        }
        surplus?.deallocate()
    }

    /// How many bytes the free buffers hold.
    package var freeBytes: Int { lock.reading { free.reduce(0) { $0 + $1.count } } }
}
