/// Where a scan writes, beside each value it keeps for the histogram, that value's row and (flexible
/// dates) check-in: the `recommended` order ranks the matches from them once the scan is over.
struct ValueRowSlots: @unchecked Sendable {
    let rows: UnsafeMutablePointer<Int32>
    let checkIns: UnsafeMutablePointer<Int32>?
    /// How many slots were allocated (from the start of the allocation).
    var capacity = 0

    /// The slots from element `offset` on (a part's stretch).
    func advanced(by offset: Int) -> ValueRowSlots {
        ValueRowSlots(rows: rows + offset, checkIns: checkIns.map { $0 + offset }, capacity: capacity - offset)
    }

    /// Moves `count` slots from `source` to `target` (a part's stretch to the front), adding `rowShift` to
    /// each row.
    func move(from source: Int, to target: Int, count: Int, rowShift: Int32) {
        if source != target, count > 0 {
            (rows + target).update(from: rows + source, count: count)
            if let checkIns { (checkIns + target).update(from: checkIns + source, count: count) }
        }
        if rowShift != 0 { for slot in target..<(target + count) { rows[slot] += rowShift } }
    }

    /// Slots for `capacity` values, with check-ins when `withCheckIns`, from the scratch pool; given back
    /// by ``deallocate()``.
    static func allocate(capacity: Int, withCheckIns: Bool) -> ValueRowSlots {
        ValueRowSlots(rows: ScratchPool.shared.take(Int32.self, count: capacity).baseAddress!,
                      checkIns: withCheckIns ? ScratchPool.shared.take(Int32.self, count: capacity).baseAddress! : nil,
                      capacity: max(1, capacity))
    }

    /// Gives the slots back to the pool they came from.
    func deallocate() {
        ScratchPool.shared.giveBack(UnsafeMutableBufferPointer(start: rows, count: capacity))
        checkIns.map { ScratchPool.shared.giveBack(UnsafeMutableBufferPointer(start: $0, count: capacity)) }
    }
}
