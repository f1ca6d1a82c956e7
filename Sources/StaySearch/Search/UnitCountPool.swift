/// Tables of counts by whole unit (``UnitCountPool/units`` of them, one per stay total of 0 ..< 65,536
/// units), lent zeroed and given back zeroed, so that a scan counting its day-by-day stays by unit neither
/// allocates nor clears 256 KiB a query: it clears only the counts it wrote, as it moves them into price
/// slots.
final class UnitCountPool: @unchecked Sendable {
    /// The pool every scan uses.
    static let shared = UnitCountPool()

    /// Counts a table holds: one per total of 0 ..< 2^16 units, what a difference of 16-bit running sums
    /// can be.
    static let units = 1 << 16

    private let lock = ReadWriteLock()
    private var free: [UnsafeMutablePointer<UInt32>] = []

    deinit {
        for table in free { table.deallocate() }
    }

    /// A table of ``units`` zero counts; give it back with ``giveBack(_:)`` once every count is zero again.
    func take() -> UnsafeMutablePointer<UInt32> {
        if let table = lock.writing({ free.popLast() }) { return table }
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: UnitCountPool.units)
        table.initialize(repeating: 0, count: UnitCountPool.units)
        return table
    }

    /// Returns `table`, every count of which is zero.
    func giveBack(_ table: UnsafeMutablePointer<UInt32>) {
        lock.writing { free.append(table) }
    }
}
