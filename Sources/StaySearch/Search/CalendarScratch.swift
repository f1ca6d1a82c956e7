import StaySearchKernels

/// The working memory of one thread's price calendar pass over its rows (see
/// ``ListingIndex/tallyStays(_:plan:from:days:nights:threads:sampleEvery:into:)``): plain memory, so that the
/// loop over words writes it without copy-on-write checks. Deallocated by its owner.
struct CalendarScratch {
    /// Per distinct weekday rule table: 32 bytes, bit `class mod 8` of byte `class ÷ 8` for each class allowed.
    let tables: UnsafeMutablePointer<UInt8>
    /// Per table: the word's rows whose class it allows.
    let rulesAllow: UnsafeMutablePointer<UInt64>
    /// Per check-in: its weekday's table.
    let tableOfCheckIn: UnsafeMutablePointer<Int>
    /// Per check-in: the word's bookable candidates, those totalled word by word, and those in the bracket.
    let stays: UnsafeMutablePointer<UInt64>
    /// Per night of the span: the word's candidates bookable that night, then (ANDed in place by doubling)
    /// those bookable for a run of nights from it.
    let nightBits: UnsafeMutablePointer<UInt64>
    let valid: UnsafeMutablePointer<UInt64>
    let inBracket: UnsafeMutablePointer<UInt64>
    /// Per check-in: stays found, those below the bracket, the least whole-unit total.
    let counts: UnsafeMutablePointer<UInt32>
    let below: UnsafeMutablePointer<UInt32>
    let least: UnsafeMutablePointer<Int32>
    /// Per check-in: the bracket (whole units).
    let bracketLow: UnsafeMutablePointer<Int32>
    let bracketHigh: UnsafeMutablePointer<Int32>
    /// Per check-in: the totals in its bracket (minor units), in a buffer grown by doubling.
    let insideBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Int64>>
    let insideCounts: UnsafeMutablePointer<Int>
    let insideCapacities: UnsafeMutablePointer<Int>
    /// Per check-in: its bracket's counts by whole unit (see ``CalendarTally/slots``), or nil when its totals
    /// are kept one by one.
    let slots: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>?>
    /// Copied nights (`span × 64`, night-major) and the word's totals (`checkIns × 64`).
    let matrix: UnsafeMutablePointer<Int32>
    let wordTotals: UnsafeMutablePointer<Int32>
    /// The lanes to total held across words (see ``staysearch_calendar_batch``).
    let batch: UnsafeMutablePointer<staysearch_calendar_batch>
    /// What a pass totalled row by row reads (see ``staysearch_calendar_rows_plan``).
    let rowsPlan: UnsafeMutablePointer<staysearch_calendar_rows_plan>

    /// Scratch for `checkIns` check-ins over `span` nights, with the rule tables `tables` copied in, and
    /// `slotWidths[p]` zeroed counts for check-in *p* (none when 0).
    init(checkIns: Int, span: Int, tables: [[UInt8]], slotWidths: [Int]) {
        func zeroed<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
            pointer.initialize(repeating: value, count: max(1, count))
            return pointer
        }
        self.tables = zeroed(tables.count * 32, 0)
        for (index, table) in tables.enumerated() {
            for (byte, value) in table.enumerated() { self.tables[index * 32 + byte] = value }
        }
        rulesAllow = zeroed(tables.count, 0)
        tableOfCheckIn = zeroed(checkIns, 0)
        stays = zeroed(checkIns, 0)
        nightBits = zeroed(span, 0)
        valid = zeroed(checkIns, 0)
        inBracket = zeroed(checkIns, 0)
        // At least the 32 of staysearch_calendar_rows.
        let perCheckIn = max(checkIns, Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS))
        counts = zeroed(perCheckIn, 0)
        below = zeroed(perCheckIn, 0)
        least = zeroed(perCheckIn, .max)
        bracketLow = zeroed(checkIns, 0)
        bracketHigh = zeroed(checkIns, 0)
        insideBuffers = .allocate(capacity: max(1, checkIns))
        for position in 0..<checkIns { insideBuffers[position] = .allocate(capacity: 256) }
        insideCounts = zeroed(checkIns, 0)
        insideCapacities = zeroed(checkIns, 256)
        self.checkIns = checkIns
        slots = .allocate(capacity: max(1, checkIns))
        for position in 0..<checkIns {
            slots[position] = slotWidths[position] > 0 ? zeroed(slotWidths[position], 0) : nil
        }
        matrix = zeroed(span * 64, 0)
        wordTotals = zeroed(checkIns * 64, 0)
        batch = .allocate(capacity: 1)
        staysearch_calendar_batch_reset(batch)
        rowsPlan = .allocate(capacity: 1)
        rowsPlan.initialize(to: staysearch_calendar_rows_plan())
    }

    private let checkIns: Int

    /// Adds total `total` (minor units) inside check-in `position`'s bracket, whose first unit is `bracketLow`
    /// (units of `unit` minor units): counted on its slot (of 2^`slotShift` units) when the bracket is counted
    /// by slot and the total is a whole number of units, or a slot holds more than a unit (a sample's tally
    /// knows a rank's total to its slot only, and a total of cents lies in its whole units' slot); else kept.
    @inline(__always)
    func addInside(_ total: Int64, at position: Int, bracketLow: Int32, unit: Int64, slotShift: Int) {
        if let slots = slots[position], slotShift > 0 || total % unit == 0 {
            slots[Int((total / unit &- Int64(bracketLow)) >> Int64(slotShift))] &+= 1
        } else {
            keepInside(total, at: position)
        }
    }

    /// Keeps total `total` (minor units) of check-in `position`'s bracket.
    @inline(__always)
    func keepInside(_ total: Int64, at position: Int) {
        let count = insideCounts[position]
        if count == insideCapacities[position] { grow(position) }
        insideBuffers[position][count] = total
        insideCounts[position] = count &+ 1
    }

    private func grow(_ position: Int) {
        let capacity = insideCapacities[position] * 2
        let bigger = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
        bigger.update(from: insideBuffers[position], count: insideCounts[position])
        insideBuffers[position].deallocate()
        insideBuffers[position] = bigger
        insideCapacities[position] = capacity
    }

    /// The totals kept in check-in `position`'s bracket.
    func inside(at position: Int) -> UnsafeBufferPointer<Int64> {
        UnsafeBufferPointer(start: insideBuffers[position], count: insideCounts[position])
    }

    /// Check-in `position`'s counts by whole unit, `width` of them.
    func slots(at position: Int, width: Int) -> UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: slots[position], count: slots[position] == nil ? 0 : width)
    }

    func deallocate() {
        for position in 0..<checkIns {
            insideBuffers[position].deallocate()
            slots[position]?.deallocate()
        }
        slots.deallocate()
        batch.deallocate()
        rowsPlan.deallocate()
        for pointer in [UnsafeMutableRawPointer(insideBuffers), UnsafeMutableRawPointer(insideCounts),
                        UnsafeMutableRawPointer(insideCapacities)] {
            pointer.deallocate()
        }
        for pointer in [UnsafeMutableRawPointer(tables), UnsafeMutableRawPointer(rulesAllow), UnsafeMutableRawPointer(tableOfCheckIn),
                        UnsafeMutableRawPointer(stays), UnsafeMutableRawPointer(nightBits), UnsafeMutableRawPointer(valid), UnsafeMutableRawPointer(inBracket),
                        UnsafeMutableRawPointer(counts), UnsafeMutableRawPointer(below),
                        UnsafeMutableRawPointer(least), UnsafeMutableRawPointer(bracketLow), UnsafeMutableRawPointer(bracketHigh),
                        UnsafeMutableRawPointer(matrix), UnsafeMutableRawPointer(wordTotals)] {
            pointer.deallocate()
        }
    }
}
