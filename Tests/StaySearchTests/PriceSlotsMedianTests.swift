import StaySearch
import StaySearchTestSupport
import Testing

/// The lower median read off the price slots' counts against sorting: stays of 1–7 nights, three bin counts,
/// totals of whole units with some past the slots' end, price ranges from nothing to past the slots.
@Suite struct PriceSlotsMedianTests {
    @Test(arguments: 0..<80)
    func theMedianFromTheCountsIsTheSortedOne(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 13_000)
        let nights = Int64.random(in: 1...7, using: &random)
        let slots = PriceSlots(nights: nights, bins: random.pick([10, 30, 64]))!
        let values: [Int64] = (0..<Int.random(in: 1...400, using: &random)).map { _ in
            let units = random.chance(0.1) ? Int64.random(in: Int64(slots.units)...Int64(slots.units) * 3, using: &random)
                : Int64.random(in: 20...400, using: &random)
            return (units * nights + Int64.random(in: 0...nights - 1, using: &random)) * 100
        }
        var counts = [Int32](repeating: 0, count: slots.count)
        values.withUnsafeBufferPointer { values in
            counts.withUnsafeMutableBufferPointer { slots.add(values.baseAddress!, count: values.count, to: $0.baseAddress!) }
        }
        let bounds = values.min()!...values.max()!
        for _ in 0..<12 {
            let lowest: Int64 = random.chance(0.6) ? 0 : Int64.random(in: 0...bounds.upperBound, using: &random)
            let highest: Int64 = random.pick([Int64.max, 5_000 * nights * 100, Int64.random(in: lowest...bounds.upperBound + 100, using: &random)])
            let inside = values.filter { $0 >= lowest && $0 <= highest }.sorted()
            guard !inside.isEmpty else { continue }
            let median = counts.withUnsafeBufferPointer {
                slots.median(matches: inside.count, from: lowest, through: highest, counts: $0.baseAddress!, bounds: bounds, wholeUnits: true)
            }
            if let median { #expect(median == inside[(inside.count - 1) / 2], "seed \(seed): \(lowest)...\(highest)") }
        }
    }

    /// A price limit past the slots' end, with dearer stays between the end and the limit, and beyond it: the
    /// counts up to the median's slot hold only stays in the range, so they tell the median.
    @Test func aLimitPastTheSlotsStillTellsTheMedian() {
        let nights: Int64 = 2
        let slots = PriceSlots(nights: nights, bins: 30)!
        let values = [Int64](repeating: 150 * nights * 100, count: 60) + [Int64](repeating: 3_000 * nights * 100, count: 10)
            + [Int64](repeating: 6_000 * nights * 100, count: 5)
        var counts = [Int32](repeating: 0, count: slots.count)
        values.withUnsafeBufferPointer { values in
            counts.withUnsafeMutableBufferPointer { slots.add(values.baseAddress!, count: values.count, to: $0.baseAddress!) }
        }
        let highest = 5_000 * nights * 100
        let median = counts.withUnsafeBufferPointer {
            slots.median(matches: 70, from: 0, through: highest, counts: $0.baseAddress!, bounds: values.min()!...values.max()!,
                         wholeUnits: true)
        }
        #expect(median == 150 * nights * 100)
    }
}
