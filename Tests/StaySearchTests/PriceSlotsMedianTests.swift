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

    /// Slots by granule (₩100 to ₫1,000) with totals between granules kept aside (none, a few, one in five) and
    /// some past the slots' end: the median walked from the counts and the kept totals is the sorted one, told
    /// whenever the range starts at a value and ends at one or past them; without the kept totals, never told.
    @Test(arguments: 0..<40)
    func theMedianFromGranulesAndTheTotalsBetweenIsTheSortedOne(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 13_500)
        let nights = Int64(random.pick([1, 3, 7, 14]))
        let slots = try #require(PriceSlots(nights: nights, bins: 20, granuleScale: random.pick([4, 5])))
        let granule = slots.unit, off = random.pick([0, 0.01, 0.2])
        let values: [Int64] = (0..<Int.random(in: 1...3_000, using: &random)).map { _ in
            let granules = random.chance(0.05) ? Int64.random(in: Int64(slots.units)...Int64(slots.units) * 2, using: &random)
                : Int64.random(in: 1...Int64(slots.units) / 4, using: &random)
            return granules * granule + (random.chance(off) ? Int64.random(in: 1..<granule, using: &random) : 0)
        }
        var counts = [Int32](repeating: 0, count: slots.count)
        let room = UnsafeMutableBufferPointer<Int64>.allocate(capacity: values.count)
        defer { room.deallocate() }
        values.withUnsafeBufferPointer { values in
            counts.withUnsafeMutableBufferPointer { slots.add(values.baseAddress!, count: values.count, to: $0.baseAddress!, between: room) }
        }
        let between = Array(room.prefix(Int(counts[slots.betweenSlot!]))).sorted()
        #expect(between == values.filter { $0 < slots.end && $0 % granule != 0 }.sorted(), "seed \(seed)")
        let bounds = values.min()!...values.max()!, sorted = values.sorted()
        var told = 0
        for _ in 0..<12 {
            let lowest = random.chance(0.5) ? 0 : random.pick(sorted)
            let highest = random.chance(0.5) ? Int64.max : random.pick(sorted.filter { $0 >= lowest })
            let inside = sorted.filter { $0 >= lowest && $0 <= highest }
            let median = counts.withUnsafeBufferPointer {
                slots.median(matches: inside.count, from: lowest, through: highest, counts: $0.baseAddress!, between: between,
                             bounds: bounds, wholeUnits: false)
            }
            if let median {
                told += 1
                #expect(median == inside[(inside.count - 1) / 2], "seed \(seed): \(lowest)...\(highest)")
            }
            if !between.isEmpty {
                let untold = counts.withUnsafeBufferPointer {
                    slots.median(matches: inside.count, from: lowest, through: highest, counts: $0.baseAddress!, bounds: bounds,
                                 wholeUnits: false)
                }
                #expect(untold == nil, "seed \(seed): a median told without the totals between granules")
            }
        }
        // Untold only when the median lies past the slots.
        #expect(told >= 6 || sorted[(sorted.count - 1) / 2] >= slots.end, "seed \(seed): told \(told) of 12")
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
