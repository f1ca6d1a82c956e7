import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar's word-at-a-time totals (`staysearch_calendar_word`), AVX2 and portable, against
/// totals summed night by night here: random words of rows of one price, dense and copied nights, narrow
/// brackets (so that rows of one price settle and the rest are packed together), price ranges, and
/// brackets whose totals are counted by whole unit or by slots of 2–8 units (a sample's).
@Suite struct CalendarWordTests {
    struct Outcome: Equatable {
        var counts: [UInt32]
        var below: [UInt32]
        var least: [Int32]
        var inside: [[Int32]]
    }

    @Test(arguments: 0..<300)
    func bothVersionsTotalEveryLaneAsSummedNightByNight(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 7_919 + 13)
        let nights = Int.random(in: 1...14, using: &random)
        let checkIns = Int.random(in: 1...62, using: &random)
        let span = checkIns + nights - 1
        let constantShare = [0.0, 0.5, 0.9, 0.98, 1.0][seed % 5]
        let useDense = seed % 3 == 0
        var constant = [Int32](repeating: 0, count: 64)
        var nightly = [[Int32]](repeating: [], count: 64)      // each lane's price per night
        for lane in 0..<64 {
            if Double.random(in: 0..<1, using: &random) < constantShare {
                let price = Int32.random(in: 0...2_000, using: &random)
                constant[lane] = price
                nightly[lane] = Array(repeating: price, count: span)
            } else {
                constant[lane] = useDense ? -2 : [-2, -4, -9][lane % 3]
                let base = Int32.random(in: 10...2_000, using: &random)
                nightly[lane] = (0..<span).map { _ in base + Int32.random(in: -9...9, using: &random) }
            }
        }
        let denseStride = 64 + 7
        var dense = [UInt16](repeating: 65_500, count: (span + 1) * denseStride)
        var matrix = [Int32](repeating: 0, count: span * 64)
        for lane in 0..<64 where constant[lane] < 0 {
            for night in 0..<span {
                dense[(night + 1) * denseStride + lane] = dense[night * denseStride + lane] &+ UInt16(nightly[lane][night])
                matrix[night * 64 + lane] = nightly[lane][night]
            }
        }
        // Bounds of each lane's nights: exact, looser, or unknown.
        let lows = (0..<64).map { lane -> Int32 in
            seed % 11 == 3 ? -1 : nightly[lane].min()! - (seed % 2 == 0 ? 0 : Int32.random(in: 0...3, using: &random))
        }
        let highs = (0..<64).map { lane -> Int32 in lows[lane] < 0 ? -1 : nightly[lane].max()! + (seed % 2 == 0 ? 0 : 2) }
        let valid = (0..<checkIns).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) & UInt64.random(in: 0...UInt64.max, using: &random) }
        let typical = Int32(nights) * 1_000
        let (lowest, highest): (Int32, Int32) = seed % 4 == 1 ? (typical / 2, typical * 3 / 2) : (0, Int32.max)
        let bracketLow = (0..<checkIns).map { _ in seed % 7 == 0 ? 0 : typical + Int32.random(in: -300...300, using: &random) * Int32(nights) }
        let bracketHigh = bracketLow.map { seed % 7 == 0 ? Int32.max : $0 + Int32.random(in: 0...40, using: &random) * Int32(nights) }
        let cheapest = [Int32.max, typical / 4, 0][seed % 3]

        // Summed here, night by night.
        var expected = Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                               least: Array(repeating: .max, count: checkIns), inside: Array(repeating: [], count: checkIns))
        // Some check-ins count their bracket's totals by slot (one in two, where the bracket is narrow): of a unit,
        // or every fifth seed of 2–8 units (a total is then known by its slot's first unit).
        let slotShift = seed % 5 == 3 ? 1 + seed % 3 : 0
        let countedBySlot = (0..<checkIns).map { p in (p + seed) % 2 == 0 && Int(bracketHigh[p]) - Int(bracketLow[p]) + 1 <= 100_000 }
        for p in 0..<checkIns {
            for lane in 0..<64 where valid[p] >> UInt64(lane) & 1 != 0 {
                let total = nightly[lane][p..<(p + nights)].reduce(0, +)
                guard total >= lowest, total <= highest else { continue }
                expected.counts[p] += 1
                if total < bracketLow[p] { expected.below[p] += 1 }
                if total >= bracketLow[p], total <= bracketHigh[p] {
                    let shift = countedBySlot[p] ? Int32(slotShift) : 0
                    expected.inside[p].append(bracketLow[p] + ((total - bracketLow[p]) >> shift) << shift)
                }
                if total <= cheapest { expected.least[p] = min(expected.least[p], total) }
            }
            expected.inside[p].sort()
        }
        for portable in [0, 1] {
            staysearch_calendar_use_portable(Int32(portable))
            var outcome = Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                                  least: Array(repeating: .max, count: checkIns), inside: Array(repeating: [], count: checkIns))
            var inBracket = [UInt64](repeating: 0, count: checkIns)
            var totals = [Int32](repeating: 0, count: checkIns * 64)
            let slots: [UnsafeMutablePointer<UInt32>?] = (0..<checkIns).map { p in
                let width = (Int(bracketHigh[p]) - Int(bracketLow[p])) >> slotShift + 1
                guard countedBySlot[p] else { return nil }
                let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
                counts.initialize(repeating: 0, count: width)
                return counts
            }
            dense.withUnsafeBufferPointer { dense in
                staysearch_calendar_word(constant, lows.map { max(-1, $0) }, highs, useDense ? dense.baseAddress : nil, denseStride, matrix, span, nights, checkIns, valid,
                                         lowest, highest, bracketLow, bracketHigh, cheapest, &outcome.counts, &outcome.below,
                                         &outcome.least, &inBracket, &totals, slots, Int32(slotShift), nil)
            }
            staysearch_calendar_use_portable(0)
            for p in 0..<checkIns {
                var bits = inBracket[p]
                while bits != 0 {
                    outcome.inside[p].append(totals[p * 64 + bits.trailingZeroBitCount])
                    bits &= bits - 1
                }
                if let counts = slots[p] {
                    #expect(inBracket[p] == 0, "seed \(seed) check-in \(p): counted by unit and kept")
                    for offset in 0...(Int(bracketHigh[p] - bracketLow[p]) >> slotShift) {
                        outcome.inside[p] += Array(repeating: bracketLow[p] + Int32(offset << slotShift), count: Int(counts[offset]))
                    }
                    counts.deallocate()
                }
                outcome.inside[p].sort()
            }
            #expect(outcome == expected, "seed \(seed) \(portable == 1 ? "portable" : "fastest")")
        }
    }

    /// Lanes held across words in a batch (every check-in counting its bracket by unit) give what the words
    /// totalled one at a time give: many words of few lanes to total, some of many (so that the batch fills
    /// and is totalled before the next word's lanes are held), one price and dense and copied nights mixed.
    @Test(arguments: 0..<60)
    func lanesHeldAcrossWordsAreCountedAsWordByWord(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 6_007 + 29)
        let nights = Int.random(in: 1...14, using: &random)
        let checkIns = Int.random(in: 1...62, using: &random)
        let span = checkIns + nights - 1
        let typical = Int32(nights) * 1_000
        let (lowest, highest): (Int32, Int32) = seed % 4 == 1 ? (typical / 2, typical * 3 / 2) : (0, Int32.max)
        let bracketLow = (0..<checkIns).map { _ in typical + Int32.random(in: -300...300, using: &random) * Int32(nights) }
        let bracketHigh = bracketLow.map { $0 + Int32.random(in: 0...60, using: &random) * Int32(nights) }
        let cheapest = [Int32.max, typical / 4, typical][seed % 3]
        // Every fourth seed counts by slots of 4 units.
        let slotShift = seed % 4 == 3 ? 2 : 0
        func outcome() -> Outcome {
            Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                    least: Array(repeating: .max, count: checkIns), inside: Array(repeating: [], count: checkIns))
        }
        func makeSlots() -> [UnsafeMutablePointer<UInt32>] {
            (0..<checkIns).map { p in
                let width = Int(bracketHigh[p] - bracketLow[p]) >> slotShift + 1
                let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
                counts.initialize(repeating: 0, count: width)
                return counts
            }
        }
        func read(_ slots: [UnsafeMutablePointer<UInt32>], into outcome: inout Outcome) {
            for p in 0..<checkIns {
                for offset in 0...(Int(bracketHigh[p] - bracketLow[p]) >> slotShift) {
                    outcome.inside[p] += Array(repeating: bracketLow[p] + Int32(offset << slotShift), count: Int(slots[p][offset]))
                }
                outcome.inside[p].sort()
                slots[p].deallocate()
            }
        }
        var expected = outcome(), oneByOne = outcome(), batched = outcome()
        let slotsOneByOne = makeSlots(), slotsBatched = makeSlots()
        let batch = UnsafeMutablePointer<staysearch_calendar_batch>.allocate(capacity: 1)
        defer { batch.deallocate() }
        staysearch_calendar_batch_reset(batch)
        var inBracket = [UInt64](repeating: 0, count: checkIns)
        var totals = [Int32](repeating: 0, count: checkIns * 64)
        let wordCount = Int.random(in: 3...40, using: &random)
        for word in 0..<wordCount {
            // Most words have a lane or two near the brackets; one in five has many.
            let near = word % 5 == 2 ? 0.6 : 0.04
            let useDense = (seed + word) % 3 == 0
            var constant = [Int32](repeating: 0, count: 64)
            var nightly = [[Int32]](repeating: [], count: 64)
            for lane in 0..<64 {
                let price = Double.random(in: 0..<1, using: &random) < near ? Int32.random(in: 700...1_300, using: &random)
                                                                          : [Int32(50), 9_000][lane % 2]
                if Double.random(in: 0..<1, using: &random) < 0.5 {
                    constant[lane] = price
                    nightly[lane] = Array(repeating: price, count: span)
                } else {
                    constant[lane] = useDense ? -2 : [-2, -4, -9][lane % 3]
                    nightly[lane] = (0..<span).map { _ in price + Int32.random(in: -9...9, using: &random) }
                }
            }
            let denseStride = 64 + 5
            var dense = [UInt16](repeating: 65_500, count: (span + 1) * denseStride)
            var matrix = [Int32](repeating: 0, count: span * 64)
            for lane in 0..<64 where constant[lane] < 0 {
                for night in 0..<span {
                    dense[(night + 1) * denseStride + lane] = dense[night * denseStride + lane] &+ UInt16(nightly[lane][night])
                    matrix[night * 64 + lane] = nightly[lane][night]
                }
            }
            let lows = (0..<64).map { nightly[$0].min()! }, highs = (0..<64).map { nightly[$0].max()! }
            let valid = (0..<checkIns).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
            for p in 0..<checkIns {
                for lane in 0..<64 where valid[p] >> UInt64(lane) & 1 != 0 {
                    let total = nightly[lane][p..<(p + nights)].reduce(0, +)
                    guard total >= lowest, total <= highest else { continue }
                    expected.counts[p] += 1
                    if total < bracketLow[p] { expected.below[p] += 1 }
                    if total >= bracketLow[p], total <= bracketHigh[p] {
                        expected.inside[p].append(bracketLow[p] + ((total - bracketLow[p]) >> Int32(slotShift)) << Int32(slotShift))
                    }
                    if total <= cheapest { expected.least[p] = min(expected.least[p], total) }
                }
            }
            dense.withUnsafeBufferPointer { dense in
                let densePrices = useDense ? dense.baseAddress : nil
                slotsOneByOne.map { Optional($0) }.withUnsafeBufferPointer { slots in
                    staysearch_calendar_word(constant, lows, highs, densePrices, denseStride, matrix, span, nights, checkIns, valid,
                                             lowest, highest, bracketLow, bracketHigh, cheapest, &oneByOne.counts, &oneByOne.below,
                                             &oneByOne.least, &inBracket, &totals, slots.baseAddress, Int32(slotShift), nil)
                }
                slotsBatched.map { Optional($0) }.withUnsafeBufferPointer { slots in
                    staysearch_calendar_word(constant, lows, highs, densePrices, denseStride, matrix, span, nights, checkIns, valid,
                                             lowest, highest, bracketLow, bracketHigh, cheapest, &batched.counts, &batched.below,
                                             &batched.least, &inBracket, &totals, slots.baseAddress, Int32(slotShift), batch)
                }
            }
            #expect(inBracket.allSatisfy { $0 == 0 }, "seed \(seed) word \(word): totals kept though counted by unit")
        }
        slotsBatched.map { Optional($0) }.withUnsafeBufferPointer { slots in
            staysearch_calendar_flush(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest,
                                      &batched.counts, &batched.below, &batched.least, &totals, slots.baseAddress, Int32(slotShift))
        }
        for p in 0..<checkIns { expected.inside[p].sort() }
        read(slotsOneByOne, into: &oneByOne)
        read(slotsBatched, into: &batched)
        #expect(oneByOne == expected, "seed \(seed): word by word")
        #expect(batched == expected, "seed \(seed): held in a batch")
        #expect(expected.inside.contains { !$0.isEmpty }, "seed \(seed): no total in a bracket")
    }
}
