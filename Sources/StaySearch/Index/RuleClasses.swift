/// Each row's stay rule as a one-byte class when one rule holds for the row's whole calendar, so that a
/// scan tells which rows allow a stay from a byte per row and a table of verdicts made once per query,
/// without reading the row's rule runs or branching on the answer.
///
/// A row whose stay rules are one run (a plain rule, or one weekly pattern: the first run starts on the
/// first day and the last lasts to the end) has the class of that run's value. The first 255 distinct
/// values get classes 0 ..< 255, in row order; a row with several runs, or whose value came after the
/// first 255, has ``checkRow`` and is read run by run. Derived from the rule columns when an index is
/// made or loaded (one pass over the rows), never stored.
package struct RuleClasses: Sendable {
    /// Per row, its class or ``checkRow``.
    package let classes: Column<UInt8>
    /// Per class, the run value it stands for: a packed ``StayRule`` or a weekly pattern reference.
    package let values: [UInt32]

    /// The class of a row whose rules must be read run by run.
    package static let checkRow: UInt8 = 255

    /// Classifies the `rows` rows of the rule runs `offsets` (`rows + 1` of them) and `runValues`.
    /// - Complexity: O(*rows*), a hash probe for a row whose value differs from the row's before it.
    init(offsets: Column<UInt32>, runValues: Column<UInt32>, rows: Int) {
        var values: [UInt32] = []
        // Open addressing over 512 slots for at most 255 values: a probe always reaches an empty slot.
        let slotCount = 512
        var keys = [UInt32](repeating: 0, count: slotCount)
        var classPlusOne = [UInt16](repeating: 0, count: slotCount)
        let offsets = offsets.base, runValues = runValues.base
        let classes = [UInt8](unsafeUninitializedCapacity: rows) { classes, initialized in
            var lastValue: UInt32 = 0
            var lastClass = RuleClasses.checkRow
            for row in 0..<rows {
                let first = Int(offsets[row])
                var found = RuleClasses.checkRow
                guard Int(offsets[row &+ 1]) &- first == 1 else {
                    classes[row] = found                   // several runs: read run by run
                    continue
                }
                let value = runValues[first]
                if lastClass != RuleClasses.checkRow, value == lastValue {
                    found = lastClass
                } else {
                    var slot = Int((value &* 0x9E37_79B1) >> 23)
                    while true {
                        if classPlusOne[slot] == 0 {
                            if values.count < Int(RuleClasses.checkRow) {
                                values.append(value)
                                keys[slot] = value
                                classPlusOne[slot] = UInt16(values.count)
                                found = UInt8(values.count - 1)
                            }
                            break
                        }
                        if keys[slot] == value {
                            found = UInt8(classPlusOne[slot] - 1)
                            break
                        }
                        slot = (slot + 1) & (slotCount - 1)
                    }
                    lastValue = value
                    lastClass = found
                }
                classes[row] = found
            }
            initialized = rows
        }
        self.classes = Column(classes)
        self.values = values
    }
}
