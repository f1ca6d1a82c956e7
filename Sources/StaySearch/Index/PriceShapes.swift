/// Each row's price runs as a one-byte shape: where its runs start and which of them hold a weekly
/// pattern, their prices left out. Rows of one shape take a stay's total from the same runs, so a
/// query works out once per shape which run holds the whole stay (``PricePlans``) and a scan prices
/// such a row with one load and one multiplication, without searching its runs or branching on how
/// many it has.
///
/// Shape 0 is one plain price all year. Shapes 1 ..< 255 are the 254 most common others among up to
/// 262,144 rows evenly spaced (ties: the first seen). A row with a dense price row or a wide price, or of a
/// shape not among them, has ``readRow`` and is priced run by run. Derived from the price run columns when an
/// index is made or loaded (two passes over the rows), never stored.
package struct PriceShapes: Sendable {
    /// Per row, its shape or ``readRow``.
    package let shapes: Column<UInt8>
    /// Per shape, where its runs start in ``runStarts``: shape *s*'s runs are `runOffsets[s] ..< runOffsets[s + 1]`.
    package let runOffsets: [Int]
    /// Each shape's runs' starting day offsets, the first 0.
    package let runStarts: [Int32]
    /// Whether each shape's run holds a weekly pattern (else one plain price).
    package let runIsPattern: [Bool]

    /// The shape of a row priced run by run.
    package static let readRow: UInt8 = 255
    /// The most rows sampled to choose the shapes.
    static let sampledRows = 262_144

    /// The number of shapes (at most 255).
    package var count: Int { runOffsets.count - 1 }

    /// Gives a shape to each of the `rows` rows of the price runs `offsets` (`rows + 1` of them), `starts`
    /// and `values`.
    /// - Complexity: O(*rows* + *runs*).
    init(offsets: Column<UInt32>, starts: Column<Int32>, values: Column<Int32>, rows: Int) {
        let offsets = offsets.base, starts = starts.base, values = values.base
        // The shapes chosen from the sample, by hash of their runs; shape 0 is one plain price.
        var counts: [UInt64: (count: Int, first: Int)] = [:]
        let step = max(1, rows / PriceShapes.sampledRows)
        for row in stride(from: 0, to: rows, by: step) {
            let runs = Int(offsets[row])..<Int(offsets[row &+ 1])
            guard !PriceShapes.isOnePrice(runs, values: values),
                  let hash = PriceShapes.hash(runs, starts: starts, values: values) else { continue }
            if let known = counts[hash] { counts[hash] = (known.count + 1, known.first) } else { counts[hash] = (1, row) }
        }
        let chosen = counts.sorted { ($0.value.count, -$0.value.first) > ($1.value.count, -$1.value.first) }
            .prefix(Int(PriceShapes.readRow) - 1)
        var runOffsets = [0, 1], runStarts: [Int32] = [0], runIsPattern = [false]
        // Open addressing over 1,024 slots for at most 254 hashes: a probe always reaches an empty slot.
        let slotCount = 1_024
        var keys = [UInt64](repeating: 0, count: slotCount)
        var shapePlusOne = [UInt8](repeating: 0, count: slotCount)
        for entry in chosen {
            let runs = Int(offsets[entry.value.first])..<Int(offsets[entry.value.first &+ 1])
            for run in runs {
                runStarts.append(starts[run])
                runIsPattern.append(values[run].patternIndex != nil)
            }
            runOffsets.append(runStarts.count)
            var slot = Int(truncatingIfNeeded: entry.key >> 54)
            while shapePlusOne[slot] != 0 { slot = (slot &+ 1) & (slotCount &- 1) }
            keys[slot] = entry.key
            shapePlusOne[slot] = UInt8(runOffsets.count - 2 + 1)
        }
        var shapes = [UInt8](repeating: 0, count: rows)
        shapes.withUnsafeMutableBufferPointer { shapes in
            for row in 0..<rows {
                let runs = Int(offsets[row])..<Int(offsets[row &+ 1])
                guard !PriceShapes.isOnePrice(runs, values: values) else { continue }      // shape 0
                var found = PriceShapes.readRow
                if let hash = PriceShapes.hash(runs, starts: starts, values: values) {
                    var slot = Int(truncatingIfNeeded: hash >> 54)
                    while shapePlusOne[slot] != 0 {
                        if keys[slot] == hash {
                            // Hashes may collide: the runs must be the shape's.
                            let shape = Int(shapePlusOne[slot]) &- 1
                            let own = runOffsets[shape]
                            if runOffsets[shape &+ 1] &- own == runs.count {
                                var same = true
                                for k in 0..<runs.count {
                                    let run = runs.lowerBound &+ k
                                    same = same && runStarts[own &+ k] == starts[run]
                                        && runIsPattern[own &+ k] == (values[run].patternIndex != nil)
                                }
                                if same { found = UInt8(shape) }
                            }
                            break
                        }
                        slot = (slot &+ 1) & (slotCount &- 1)
                    }
                }
                shapes[row] = found
            }
        }
        self.shapes = Column(shapes)
        self.runOffsets = runOffsets
        self.runStarts = runStarts
        self.runIsPattern = runIsPattern
    }

    /// Whether `runs` are one run of a plain value (a price, or a sentinel), not a pattern, dense row or wide price.
    @inline(__always)
    private static func isOnePrice(_ runs: Range<Int>, values: UnsafePointer<Int32>) -> Bool {
        runs.count == 1 && values[runs.lowerBound] >= -2 && values[runs.lowerBound] < WidePrices.firstReference
    }

    /// A hash of where `runs` start and which hold a pattern; nil when a run refers to a dense row or a wide price
    /// (such a row is priced run by run, ``WidePrices``).
    private static func hash(_ runs: Range<Int>, starts: UnsafePointer<Int32>, values: UnsafePointer<Int32>) -> UInt64? {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(runs.count)
        for run in runs {
            let value = values[run]
            if value.denseIndex != nil || value >= WidePrices.firstReference { return nil }
            let key = UInt64(UInt32(bitPattern: starts[run])) << 1 | (value.patternIndex != nil ? 1 : 0)
            hash = (hash ^ key) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        return hash
    }
}
