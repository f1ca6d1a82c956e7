import StaySearch
import StaySearchTestSupport
import Testing

/// The lower median by leading bits against sorting: random values of every spread (one value, a few
/// units, cents, outliers to 2^40), with and without a price range, whole units counted by unit or not,
/// the count and bounds given or worked out.
@Suite struct RadixSelectionTests {
    @Test(arguments: 0..<40)
    func theLowerMedianIsTheSortedOne(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 900)
        let count = [1, 2, 3, 17, 1_000, 9_000, 40_000][seed % 7]
        let wholeUnits = seed % 2 == 0
        let spread: Int64 = [1, 300, 99_999, 5_000_000, 1 << 40][seed % 5]
        let values: [Int64] = (0..<count).map { _ in
            let value = Int64.random(in: 0...spread, using: &random) + (random.chance(0.01) ? Int64.random(in: 0...(1 << 40), using: &random) : 0)
            return wholeUnits ? value * 100 : value
        }
        let sorted = values.sorted()
        let ranges: [(Int64, Int64)] = [(0, Int64.max), (sorted[count / 4], sorted[3 * count / 4]), (sorted[count / 2] + 1, Int64.max),
                                        (sorted.last! + 1, Int64.max)]
        for (lowest, highest) in ranges {
            let inside = sorted.filter { $0 >= lowest && $0 <= highest }
            let expected = inside.isEmpty ? nil : inside[(inside.count - 1) / 2]
            values.withUnsafeBufferPointer { buffer in
                #expect(RadixSelection.lowerMedian(of: buffer, from: lowest, through: highest, wholeUnits: wholeUnits) == expected,
                        "seed \(seed), \(lowest)...\(highest)")
                #expect(RadixSelection.lowerMedian(of: buffer, from: lowest, through: highest, count: inside.count,
                                                   bounds: sorted.first!...sorted.last!, wholeUnits: wholeUnits) == expected
                        || inside.isEmpty, "seed \(seed), \(lowest)...\(highest), bounds given")
            }
        }
    }
}
