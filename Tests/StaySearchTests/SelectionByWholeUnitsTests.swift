import StaySearch
import StaySearchTestSupport
import Testing

/// Ranks counted by whole unit against sorting: random counts and spreads, values off a whole unit
/// (refused), spreads past the counts' reach or too wide for the values (refused), and the selections that
/// use it (the histogram's high end, with the recommended order's median) against sorting too.
@Suite struct SelectionByWholeUnitsTests {
    @Test(arguments: 0..<60)
    func ranksCountedByUnitAreTheSortedOnes(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 4_100)
        let count = [1, 2, 3, 17, 250, 1_000, 4_096][seed % 7]
        let spreadUnits = [0, 1, 63, 64, 65, 900, 16_383, 16_384, 40_000][seed % 9]
        let base = Int64.random(in: 0...5_000, using: &random) * 100 + (seed % 5 == 4 ? 37 : 0)
        var values: [Int64] = (0..<count).map { _ in base + Int64.random(in: 0...Int64(spreadUnits), using: &random) * 100 }
        // Sometimes a value off a whole unit above the smallest.
        let offUnit = seed % 11 == 3 && count > 1
        if offUnit { values[count / 2] += 50 }
        let sorted = values.sorted()
        let ranks = (Int.random(in: 0..<count, using: &random), 0, count - 1, (count - 1) / 2)
        let found = values.withUnsafeBufferPointer {
            Selection.byWholeUnits($0, bounds: sorted.first!...sorted.last!, ranks: ranks)
        }
        let spread = (sorted.last! - sorted.first!) / 100
        let counted = !offUnit && spread < Int64(min(Selection.countedUnits, 16 * count))
        if counted {
            #expect(found?.0 == sorted[ranks.0] && found?.1 == sorted[ranks.1] && found?.2 == sorted[ranks.2] && found?.3 == sorted[ranks.3],
                    "seed \(seed): \(String(describing: found))")
        } else {
            #expect(found == nil, "seed \(seed)")
        }
    }

    /// Bounds that do not hold every value are refused, not counted out of the table.
    @Test func valuesOutsideTheBoundsAreRefused() {
        let values: [Int64] = [500, 700, 900, 100_000]
        #expect(values.withUnsafeBufferPointer { Selection.byWholeUnits($0, bounds: 500...900, ranks: (0, 1, 2, 3)) } == nil)
        #expect(values.withUnsafeBufferPointer { Selection.byWholeUnits($0, bounds: 600...100_000, ranks: (0, 1, 2, 3)) } == nil)
    }

    /// The histogram's default high end and a rank beside it, as the recommended order asks them, equal
    /// those of sorted values whether counted by unit or selected.
    @Test(arguments: 0..<30)
    func theHighEndAndTheMedianAgreeWithSorting(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 7_300)
        let count = [5, 40, 600, 3_000, 4_096][seed % 5]
        let nights = Int64([1, 3, 7][seed % 3])
        let outliers = seed % 2 == 0
        let values: [Int64] = (0..<count).map { _ in
            let night = Int64.random(in: 30...400, using: &random) + (outliers && random.chance(0.03) ? 5_000 : 0)
            return night * nights * 100
        }
        let sorted = values.sorted()
        let bounds = sorted.first!...sorted.last!
        func rank(_ percentile: Int) -> Int { PriceHistogram.rank(ofPercentile: percentile, count: count) }
        let q1 = sorted[rank(25)], q3 = sorted[rank(75)], p95 = sorted[rank(PriceHistogram.defaultHighPercentile)]
        let unit = nights * 100
        let expectedUnits = (min(p95, q3 + PriceHistogram.outlierFenceWidth * (q3 - q1)) + unit - 1) / unit
        let median = (count - 1) / 2
        let (units, atRank) = values.withUnsafeBufferPointer {
            PriceHistogram.defaultHighUnits($0, bounds: bounds, unit: unit, valueAtRank: median, wholeUnits: true)
        }
        #expect(units == expectedUnits && atRank == sorted[median], "seed \(seed)")
        var copy = values
        let selected = copy.withUnsafeMutableBufferPointer { PriceHistogram.defaultHighUnits($0, bounds: bounds, unit: unit) }
        #expect(selected == expectedUnits, "seed \(seed)")
    }
}
