/// Listing id → row, an open-addressing hash table over the index's id column: one `Int32` a slot, twice
/// as many slots as rows, so a lookup is a hash and a probe or two. Built in one pass (a dictionary of a
/// million entries costs several times as much to build, which a load with a journal pays).
struct ListingIDTable: Sendable {
    private let slots: [Int32]
    private let mask: Int

    init(ids: Column<Int64>) {
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        let mask = self.mask
        slots = [Int32](unsafeUninitializedCapacity: capacity) { slots, initialized in
            slots.initialize(repeating: -1)
            ids.withUnsafeBufferPointer { ids in
                for row in ids.indices {
                    var slot = ListingIDTable.hash(ids[row]) & mask
                    while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
                    slots[slot] = Int32(truncatingIfNeeded: row)
                }
            }
            initialized = capacity
        }
    }

    /// The first row with listing id `id`, if any.
    func row(of id: Int64, in ids: Column<Int64>) -> Int? {
        var slot = ListingIDTable.hash(id) & mask
        while true {
            let row = Int(slots[slot])
            if row < 0 { return nil }
            if ids[row] == id { return row }
            slot = (slot + 1) & mask
        }
    }

    /// The hash of a listing id that its slots start from (``SelectedIDRows`` uses it too).
    static func hash(_ id: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 17)
    }
}
