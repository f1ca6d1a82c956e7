#if canImport(Glibc)
import Glibc
#endif

/// A read-only array of plain values whose memory is owned by someone else: a buffer the builder
/// filled, or a memory-mapped index file. Hot loops read it through a raw pointer, with no
/// reference counting or copy-on-write checks.
///
/// A column is immutable once made, so it is safe to share between threads.
package struct Column<Element: BitwiseCopyable>: @unchecked Sendable {
    /// Keeps the memory alive; never read through.
    package let owner: AnyObject
    /// The first element.
    @usableFromInline let base: UnsafePointer<Element>
    /// The number of elements.
    package let count: Int

    /// Copies `elements` into a column of its own.
    package init(_ elements: [Element]) {
        let buffer = ColumnBuffer(byteCount: max(1, elements.count) * MemoryLayout<Element>.stride,
                                  alignment: max(8, MemoryLayout<Element>.alignment))
        elements.withUnsafeBufferPointer { source in
            if let address = source.baseAddress {
                buffer.pointer.copyMemory(from: address, byteCount: source.count * MemoryLayout<Element>.stride)
            }
        }
        self.owner = buffer
        self.base = UnsafePointer(buffer.pointer.assumingMemoryBound(to: Element.self))
        self.count = elements.count
    }

    /// Takes `buffer`, already holding `count` elements, as the column's own memory (no copy).
    init(owning buffer: ColumnBuffer, count: Int) {
        self.owner = buffer
        self.base = UnsafePointer(buffer.pointer.assumingMemoryBound(to: Element.self))
        self.count = count
    }

    /// A column of no elements, sharing one owner: the placeholder of a column about to be filled.
    package static var empty: Column<Element> {
        Column(borrowing: UnsafeRawPointer(EmptyColumnOwner.shared.pointer), count: 0, owner: EmptyColumnOwner.shared)
    }

    /// Wraps memory that `owner` keeps alive for as long as the column exists, e.g. a mapped file.
    /// The caller has checked that `base` is aligned for `Element` and holds `count` elements.
    package init(borrowing base: UnsafeRawPointer, count: Int, owner: AnyObject) {
        self.owner = owner
        self.base = base.assumingMemoryBound(to: Element.self)
        self.count = count
    }

    /// The element at `index`.
    @inlinable
    package subscript(index: Int) -> Element {
        assert(index >= 0 && index < count, "Column index out of range")
        return base[index]
    }

    /// The elements as a buffer, for loops that want one; valid only inside `body`.
    package func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(owner) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// The elements' bytes, for writing them out; valid only inside `body`.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(owner) {
            try body(UnsafeRawBufferPointer(start: base, count: count * MemoryLayout<Element>.stride))
        }
    }

    /// A copy of the elements as an array.
    package var array: [Element] { withUnsafeBufferPointer { Array($0) } }
}

/// The one owner of every empty column: 64 aligned bytes that are never read.
final class EmptyColumnOwner: Sendable {
    static let shared = EmptyColumnOwner()
    nonisolated(unsafe) let pointer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
}

/// Heap memory owned by columns built in this process.
///
/// A buffer of 2 MiB or more is aligned to 2 MiB and asks the system for huge pages (`madvise`, honoured where
/// transparent huge pages are `madvise` or `always`), as a mapped index file does: a scan over every listing
/// or a calendar's scattered reads then meet one TLB entry per 2 MiB instead of per 4 KiB.
final class ColumnBuffer {
    let pointer: UnsafeMutableRawPointer

    /// The size of a huge page on x86-64 and the smallest buffer given them.
    static let hugePage = 1 << 21

    init(byteCount: Int, alignment: Int) {
        let huge = byteCount >= ColumnBuffer.hugePage
        pointer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: huge ? max(alignment, ColumnBuffer.hugePage) : alignment)
        #if canImport(Glibc)
        if huge { _ = madvise(pointer, byteCount & ~(ColumnBuffer.hugePage - 1), MADV_HUGEPAGE) }
        #endif
    }

    deinit { pointer.deallocate() }

    /// Room for `count` elements, written through the pointer returned, then made a column with
    /// ``Column/init(owning:count:)``: no array beside the column, and no copy.
    static func room<Element>(for count: Int, of _: Element.Type) -> (buffer: ColumnBuffer, elements: UnsafeMutablePointer<Element>) {
        let buffer = ColumnBuffer(byteCount: max(1, count) * MemoryLayout<Element>.stride, alignment: max(8, MemoryLayout<Element>.alignment))
        return (buffer, buffer.pointer.bindMemory(to: Element.self, capacity: max(1, count)))
    }
}
