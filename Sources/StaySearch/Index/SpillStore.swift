/// Room outside memory for what an ``IndexBuilder`` holds only until it builds: the sealed calendar
/// nights, and the table of day-by-day prices while it is laid out. A builder given one keeps at most a
/// few MiB of each in memory, which is what lets ten million listings with dynamic prices be imported
/// in less memory than their index takes (the caller gives a temporary file: see `SpillFile` in
/// StayData).
///
/// Offsets are the store's own. Every method may be called from several threads at once: the parts
/// of a calendar file read on threads of their own spill into one store.
public protocol SpillStore: AnyObject, Sendable {
    /// Sets aside `byteCount` bytes at an offset that is a multiple of `alignment` (a power of two, at
    /// most the page size) and returns the offset; nothing is written yet.
    func reserve(byteCount: Int, alignment: Int) throws -> Int
    /// Writes `bytes` at `offset`, inside space reserved before.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws
    /// Reads `buffer.count` bytes written before at `offset`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws
    /// Says that the `byteCount` bytes at `offset` will not be read again: the store may give their room
    /// back (a file, its disk blocks and cached pages).
    func discard(offset: Int, byteCount: Int)
    /// The `byteCount` bytes at `offset` (written before, `offset` reserved with page alignment), mapped
    /// read-only for as long as the returned owner lives: the memory of a column made there.
    func map(offset: Int, byteCount: Int) throws -> (base: UnsafeRawPointer, owner: AnyObject)
}

extension SpillStore {
    /// Writes `bytes` after everything reserved so far and returns their offset.
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        let offset = try reserve(byteCount: bytes.count, alignment: 1)
        try write(bytes, at: offset)
        return offset
    }
}
