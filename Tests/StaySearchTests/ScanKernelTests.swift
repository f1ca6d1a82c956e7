import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The scan's C kernels (AVX2 where the processor has it) against plain loops, on random input with the
/// edges of their arithmetic among it.
@Suite struct ScanKernelTests {
    static let edges: [Int64] = [0, 1, -1, 99, 100, 101, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 1 << 40, -(1 << 40)]

    static func values(count: Int, seed: Int) -> [Int64] {
        var random = SeededGenerator(seed: UInt64(seed))
        return (0..<count).map { _ in
            random.chance(0.2) ? random.pick(edges) : Int64.random(in: 0...5_000, using: &random)
        }
    }

    @Test(arguments: 0..<40)
    func foldingAgreesWithALoop(seed: Int) {
        let values = Self.values(count: seed * 3 % 71, seed: seed).map { $0 & 0xFFFF_FFFF }   // sums must not overflow
        var sum: Int64 = 5, smallest = seed % 2 == 0 ? Int64.max : 17, largest = seed % 2 == 0 ? Int64.min : 17
        var expectedSum: Int64 = 5, expectedSmallest = smallest, expectedLargest = largest
        for value in values {
            expectedSum += value
            expectedSmallest = min(expectedSmallest, value)
            expectedLargest = max(expectedLargest, value)
        }
        values.withUnsafeBufferPointer { staysearch_fold($0.baseAddress, $0.count, &sum, &smallest, &largest) }
        #expect(sum == expectedSum)
        #expect(smallest == expectedSmallest)
        #expect(largest == expectedLargest)
    }

    @Test(arguments: 0..<40)
    func rangesAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 1_000)
        let values = Self.values(count: seed * 5 % 83, seed: seed)
        for _ in 0..<20 {
            let a = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
            let b = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
            let (lowest, highest) = (min(a, b), max(a, b))
            let inside = values.map { $0 >= lowest && $0 <= highest }
            values.withUnsafeBufferPointer { buffer in
                #expect(staysearch_count_in_range(buffer.baseAddress, buffer.count, lowest, highest) == inside.filter { $0 }.count)
                let start = values.isEmpty ? 0 : Int.random(in: 0..<values.count, using: &random)
                let expected = (start..<values.count).first { inside[$0] } ?? values.count
                #expect(staysearch_first_in_range(buffer.baseAddress, start, buffer.count, lowest, highest) == expected)
            }
        }
    }

    /// The values in a range picked out in order, by both versions of the kernel, writing nothing past the
    /// picked values and the slack the kernel declares.
    @Test(arguments: 0..<40)
    func pickedValuesAgreeWithAFilter(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 2_000)
        let values = Self.values(count: seed * 7 % 97, seed: seed)
        let slack = Int(staysearch_pick_slack)
        for portable in [false, true] {
            staysearch_pick_use_portable(portable ? 1 : 0)
            defer { staysearch_pick_use_portable(0) }
            for _ in 0..<20 {
                let a = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
                let b = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
                let (lowest, highest) = (min(a, b), max(a, b))
                let expected = values.filter { $0 >= lowest && $0 <= highest }
                let sentinel: Int64 = 0x5EED
                var picked = [Int64](repeating: sentinel, count: expected.count + slack + 8)
                let count = values.withUnsafeBufferPointer { buffer in
                    picked.withUnsafeMutableBufferPointer { staysearch_pick_in_range(buffer.baseAddress, buffer.count, lowest, highest, $0.baseAddress) }
                }
                #expect(count == expected.count, "portable \(portable)")
                #expect(Array(picked.prefix(count)) == expected, "portable \(portable)")
                #expect(picked.suffix(8).allSatisfy { $0 == sentinel }, "portable \(portable): written past the slack")
            }
        }
    }

    /// The slot where a running count passes a rank, by both versions of the kernel, against a walk slot by
    /// slot: mostly empty slots as price slots are, ranks before, inside and past the counts, walks of every
    /// length around the kernel's 32-slot steps.
    @Test(arguments: 0..<40)
    func slotOfRankAgreesWithAWalk(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 3_000)
        let counts: [Int32] = (0..<(seed * 37 % 301 + 1)).map { _ in
            random.chance(0.7) ? 0 : Int32.random(in: 0...(random.chance(0.1) ? 100_000 : 5), using: &random)
        }
        let total = counts.reduce(0) { $0 + Int64($1) }
        for portable in [false, true] {
            staysearch_slot_of_rank_use_portable(portable ? 1 : 0)
            defer { staysearch_slot_of_rank_use_portable(0) }
            for _ in 0..<30 {
                let first = Int.random(in: 0..<counts.count, using: &random)
                let last = Int.random(in: (first - 1)..<counts.count, using: &random)
                let start = random.chance(0.3) ? Int64.random(in: 0...50, using: &random) : 0
                // Often exactly where a slot's count ends the running count, or one short of it (the edges of a step).
                let end = Int.random(in: first...max(first, last), using: &random)
                let edge = start + counts[first...end].reduce(0) { $0 + Int64($1) } - Int64.random(in: 0...1, using: &random)
                let rank = random.chance(0.5) ? max(0, edge) : Int64.random(in: 0...(total + start + 2), using: &random)
                var expectedSlot = first, expectedBefore = start
                while expectedSlot <= last, expectedBefore + Int64(counts[expectedSlot]) <= rank {
                    expectedBefore += Int64(counts[expectedSlot])
                    expectedSlot += 1
                }
                var before = start
                let slot = counts.withUnsafeBufferPointer { staysearch_slot_of_rank($0.baseAddress, first, last, rank, &before) }
                #expect(slot == expectedSlot, "portable \(portable), slots \(first)...\(last), rank \(rank)")
                #expect(before == expectedBefore, "portable \(portable)")
            }
        }
    }

    @Test(arguments: [1, 2, 15, 16, 17, 100, 240, 241, 255])
    func verdictsAgreeWithATableLookup(classCount: Int) {
        var random = SeededGenerator(seed: UInt64(classCount))
        for _ in 0..<50 {
            let verdicts = (0..<256).map { $0 == 255 ? UInt8(2) : UInt8(random.chance(0.5) ? 1 : 0) }
            let classes = (0..<64).map { _ in random.chance(0.1) ? UInt8(255) : UInt8(Int.random(in: 0..<classCount, using: &random)) }
            let packed = (0..<32).map { byte in
                (0..<8).reduce(UInt8(0)) { bits, bit in verdicts[byte * 8 + bit] == 1 ? bits | 1 << UInt8(bit) : bits }
            }
            var allowed: UInt64 = 0, check: UInt64 = 0
            for (row, rowClass) in classes.enumerated() {
                if verdicts[Int(rowClass)] == 1 { allowed |= 1 << UInt64(row) }
                if rowClass == 255 { check |= 1 << UInt64(row) }
            }
            var foundCheck: UInt64 = 0
            let found = classes.withUnsafeBufferPointer { classes in
                packed.withUnsafeBufferPointer { staysearch_verdict_bits(classes.baseAddress, $0.baseAddress, &foundCheck) }
            }
            #expect(found == allowed)
            #expect(foundCheck == check)
        }
    }

    /// The price slots counted by the kernel (four values at a time in doubles with AVX2) are those of
    /// ``PriceSlots/slot(of:)`` in integers, for one to 400 nights (units of 100 to 40,000 minor units) and
    /// 1 to 64 bins, on values at and around the cuts, the units and the end of the slots.
    @Test(arguments: 0..<24)
    func priceSlotsAgreeWithIntegerArithmetic(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 2_000)
        let nights = Int64([1, 2, 3, 7, 30, 299, 300, 301, 400][seed % 9]), bins = [1, 7, 30, 64][seed % 4]
        let slots = try #require(PriceSlots(nights: nights, bins: bins))
        let unit = slots.unit
        let values: [Int64] = (0..<(999 + seed)).map { _ in
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return Int64.random(in: 0..<Int64(slots.units), using: &random) * unit                   // a whole unit
            case 1:                                                                                         // at or beside a cut
                let cut = Int64.random(in: 0..<(Int64(slots.units) * Int64(bins)), using: &random) * unit
                return max(0, cut / Int64(bins) + Int64.random(in: -1...1, using: &random))
            case 2: return slots.end + Int64.random(in: -2...2, using: &random)
            case 3: return random.pick([0, 1, Int64.max, Int64.max - 1, 1 << 52, (1 << 52) - 1, 1 << 53])
            default: return Int64.random(in: 0..<slots.end, using: &random)
            }
        }
        var expected = [Int32](repeating: 0, count: slots.count)
        for value in values { expected[slots.slot(of: value)] += 1 }
        var counted = [Int32](repeating: 0, count: slots.count)
        values.withUnsafeBufferPointer { values in
            counted.withUnsafeMutableBufferPointer { slots.add(values.baseAddress!, count: values.count, to: $0.baseAddress!) }
        }
        #expect(counted == expected, "nights \(nights), bins \(bins)")
    }

    /// The recommended order's candidates, both versions, against the definition: in the price range, and a
    /// row of the overlay, or any quality while the page fills, or a quality reaching `needed` whose bound
    /// (quality − needed) × median ≥ points × value holds — with values, qualities and medians near the
    /// products' edges, and counts that leave a tail after the eight-lane steps.
    @Test(arguments: 0..<60)
    func qualityCandidatesAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 7_000)
        let rowCount = Int32.random(in: 0...300, using: &random)
        let qualities = (0..<max(1, Int(rowCount))).map { _ in
            random.chance(0.1) ? random.pick([0, 80_000, Int32.max / 4]) : Int32.random(in: 0...80_000, using: &random)
        }
        let count = Int.random(in: 0...90, using: &random)
        let values: [Int64] = (0..<count).map { _ in
            random.chance(0.1) ? random.pick([0, 1, (1 << 31) - 1, 100]) : Int64.random(in: 0...2_000_000, using: &random)
        }
        let rows: [Int32] = (0..<count).map { _ in Int32.random(in: 0..<(rowCount + 20), using: &random) }
        for _ in 0..<12 {
            let lowest = random.chance(0.5) ? 0 : Int64.random(in: 0...1_000_000, using: &random)
            let highest = random.chance(0.5) ? Int64.max : Int64.random(in: lowest...(1 << 31) - 1, using: &random)
            let needed = random.chance(0.2) ? Int32.min : Int32.random(in: -80_000...120_000, using: &random)
            let median: Int64 = random.chance(0.25) ? 0 : random.pick([1, (1 << 31) - 1, Int64.random(in: 1...3_000_000, using: &random)])
            var expected: [Int32] = []
            for i in 0..<count where values[i] >= lowest && values[i] <= highest {
                let row = rows[i]
                var take = row >= rowCount || needed == Int32.min
                if !take, qualities[Int(row)] >= needed {
                    let slack = Int64(qualities[Int(row)]) - Int64(needed)
                    take = median == 0 || slack * median >= 20_000 * values[i] || slack >= 40_000
                }
                if take { expected.append(Int32(i)) }
            }
            for portable in [true, false] {
                staysearch_candidates_use_portable(portable ? 1 : 0)
                var positions = [Int32](repeating: -1, count: max(1, count))
                let found = staysearch_quality_candidates(values, rows, count, qualities, rowCount, lowest, highest, needed, median,
                                                          20_000, &positions)
                #expect(Array(positions.prefix(found)) == expected, "seed \(seed), portable \(portable)")
            }
            staysearch_candidates_use_portable(0)
        }
    }

    /// The tier's matches of a word, both versions, against the definition: each row of the candidates that is
    /// in the tier, in row order, with the value written for it (the candidates' values in row order), its row
    /// and the quality of its place in the tier word, kept when the value is in the range.
    @Test(arguments: 0..<60)
    func tierMatchesKeptAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 9_000)
        for _ in 0..<20 {
            let candidates = random.chance(0.1) ? random.pick([0, ~0, 1, 1 << 63]) : UInt64.random(in: 0...UInt64.max, using: &random)
            let tierWord = random.chance(0.1) ? random.pick([0, ~0, candidates, ~candidates]) : UInt64.random(in: 0...UInt64.max, using: &random)
            let written: [Int64] = (0..<max(1, candidates.nonzeroBitCount)).map { _ in Int64.random(in: 0...50_000, using: &random) }
            let tierQualities: [Int32] = (0..<max(1, tierWord.nonzeroBitCount)).map { _ in Int32.random(in: 0...80_000, using: &random) }
            let lowest = random.chance(0.5) ? 0 : Int64.random(in: 0...30_000, using: &random)
            let highest = random.chance(0.5) ? Int64.max : Int64.random(in: lowest...60_000, using: &random)
            let firstRow = Int32.random(in: 0...1_000_000, using: &random) & ~63
            let already = Int.random(in: 0...3, using: &random)
            var expected: [(Int64, Int32, Int32)] = []
            for bit in 0..<64 where candidates >> UInt64(bit) & 1 == 1 && tierWord >> UInt64(bit) & 1 == 1 {
                let below = (UInt64(1) << UInt64(bit)) &- 1
                let value = written[(candidates & below).nonzeroBitCount]
                guard value >= lowest, value <= highest else { continue }
                expected.append((value, firstRow + Int32(bit), tierQualities[(tierWord & below).nonzeroBitCount]))
            }
            for portable in [true, false] {
                staysearch_keep_tier_use_portable(portable ? 1 : 0)
                var values = [Int64](repeating: -1, count: already + 64), rows = [Int32](repeating: -1, count: already + 64)
                var qualities = [Int32](repeating: -1, count: already + 64)
                let kept = staysearch_keep_tier(candidates, tierWord, written, lowest, highest, tierQualities, firstRow, &values, &rows,
                                                &qualities, already)
                #expect(kept == already + expected.count, "seed \(seed), portable \(portable)")
                let found = (already..<kept).map { (values[$0], rows[$0], qualities[$0]) }
                #expect(found.elementsEqual(expected, by: ==), "seed \(seed), portable \(portable)")
                #expect(values.prefix(already).allSatisfy { $0 == -1 }, "what was kept before is left")
            }
            staysearch_keep_tier_use_portable(0)
        }
    }

    /// The tier's candidates, both versions, against the definition: (quality − needed + 1) × median ≥ points ×
    /// value, or quality − needed ≥ 2 × points — with values and medians up to the products' edges and counts
    /// that leave a tail after the eight-lane steps.
    @Test(arguments: 0..<60)
    func tierCandidatesAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 11_000)
        let count = Int.random(in: 0...90, using: &random)
        let qualities: [Int32] = (0..<max(1, count)).map { _ in
            random.chance(0.1) ? random.pick([0, 80_000]) : Int32.random(in: 0...80_000, using: &random)
        }
        let values: [Int64] = (0..<max(1, count)).map { _ in
            random.chance(0.1) ? random.pick([0, 1, (1 << 31) - 1, 100]) : Int64.random(in: 0...2_000_000, using: &random)
        }
        for _ in 0..<12 {
            let needed: Int32 = random.chance(0.1) ? random.pick([Int32(-(1 << 30) + 1), Int32((1 << 30) - 1)])
                : Int32.random(in: -80_000...120_000, using: &random)
            let median: Int64 = random.pick([1, (1 << 31) - 1, Int64.random(in: 1...3_000_000, using: &random)])
            var expected: [Int32] = []
            for i in 0..<count {
                let slack = Int64(qualities[i]) - Int64(needed)
                if (slack + 1) * median >= 20_000 * values[i] || slack >= 40_000 { expected.append(Int32(i)) }
            }
            for portable in [true, false] {
                staysearch_keep_tier_use_portable(portable ? 1 : 0)
                var positions = [Int32](repeating: -1, count: max(1, count))
                let found = staysearch_tier_candidates(qualities, values, count, needed, median, 20_000, &positions)
                #expect(Array(positions.prefix(found)) == expected, "seed \(seed), portable \(portable)")
            }
            staysearch_keep_tier_use_portable(0)
        }
    }

    /// One night's prices of adjacent dense rows, the difference of two stripes of running sums modulo 2^16,
    /// narrowing each row's bounds: against a loop, any count (whole groups of eight and a tail), sums that
    /// wrap past 65,535.
    @Test(arguments: 0..<30)
    func denseNightBoundsAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 12_000)
        let count = Int.random(in: 1...300, using: &random)
        let stride = count + Int.random(in: 0...50, using: &random)
        let prices = (0..<count).map { _ in UInt16.random(in: 0...(seed % 2 == 0 ? 65_535 : 2_000), using: &random) }
        let before = (0..<stride).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
        var sums = before
        for k in 0..<stride { sums.append(k < count ? before[k] &+ prices[k] : 0) }
        var lows = (0..<count).map { _ in Int32.random(in: 0...70_000, using: &random) }
        var highs = (0..<count).map { _ in Int32.random(in: -1...70_000, using: &random) }
        let expectedLows = zip(lows, prices).map { min($0, Int32($1)) }, expectedHighs = zip(highs, prices).map { max($0, Int32($1)) }
        sums.withUnsafeBufferPointer { staysearch_narrow_bounds($0.baseAddress!, stride, count, &lows, &highs) }
        #expect(lows == expectedLows && highs == expectedHighs, "seed \(seed)")
    }

    /// A word of dense rows' stay totals from running sums and each row's cheapest night, both versions,
    /// against the definition: every row whose nights' spread times the nights stays below 65,536 gets its
    /// exact total, however dear (totals far past 65,536 codes, as in won), and exactly the others are
    /// returned as wide. Rows of one price, of a spread just at the limit and just past it, and a night alone.
    @Test(arguments: 0..<40)
    func denseWordTotalsAgreeWithTheDefinition(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 17_000)
        let nights = seed == 0 ? 1 : random.pick([1, 2, 3, 7, 14, Int.random(in: 1...60, using: &random)])
        let limit = 0xFFFF / nights
        var minima: [UInt16] = [], maxima: [UInt16] = [], codes: [[UInt16]] = []
        for lane in 0..<64 {
            let spread = [0, limit, min(limit + 1, 0xFFFF), Int.random(in: 0...min(limit * 2, 0xFFFF), using: &random)][lane % 4]
            let cheapest = Int.random(in: 0...(0xFFFF - spread), using: &random)
            // The cheapest and dearest nights are the row's over its whole calendar, not only over the stay.
            codes.append((0..<nights).map { _ in UInt16(cheapest + Int.random(in: 0...spread, using: &random)) })
            minima.append(UInt16(cheapest))
            maxima.append(UInt16(cheapest + spread))
        }
        let start = (0..<64).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
        let end = (0..<64).map { lane in codes[lane].reduce(start[lane]) { $0 &+ $1 } }
        for portable in [true, false] {
            staysearch_dense_word_totals_use_portable(portable ? 1 : 0)
            var totals = [Int32](repeating: -7, count: 64)
            let wide = staysearch_dense_word_totals(start, end, minima, maxima, nights, &totals)
            for lane in 0..<64 {
                let isWide = (Int(maxima[lane]) - Int(minima[lane])) * nights > 0xFFFF
                #expect((wide >> UInt64(lane) & 1 == 1) == isWide, "seed \(seed), portable \(portable), lane \(lane)")
                if !isWide {
                    #expect(totals[lane] == codes[lane].reduce(Int32(0)) { $0 + Int32($1) }, "seed \(seed), portable \(portable), lane \(lane)")
                }
            }
        }
        staysearch_dense_word_totals_use_portable(0)
    }

    /// A word's carried rows' stay totals from 24-bit sums, both versions, against the definition: each carried lane
    /// asked for gets its exact total, its carry the one after those of the carried lanes below it (so lanes not asked
    /// for count too), whatever its spread times the nights below 2^24; no other lane is written, and exactly the
    /// lanes asked for that are not carried are returned. Spreads at the limit, a night alone, up to 256 nights.
    @Test(arguments: 0..<24)
    func carriedWordTotalsAgreeWithTheDefinition(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 21_000)
        let nights = seed == 0 ? 1 : seed == 1 ? 256 : random.pick([2, 7, 14, Int.random(in: 1...256, using: &random)])
        let carried = seed == 2 ? ~0 : UInt64.random(in: 0...UInt64.max, using: &random)
        let lanes = seed == 3 ? ~0 : UInt64.random(in: 0...UInt64.max, using: &random)
        var minima: [UInt16] = [], before: [UInt16] = [], after: [UInt16] = [], carriesBefore: [UInt8] = [], carriesAfter: [UInt8] = []
        var expected = [Int32](repeating: -7, count: 64)
        for lane in 0..<64 {
            let limit = min(0xFFFF, (0xFF_FFFF) / nights)
            let spread = [limit, 0, Int.random(in: 0...limit, using: &random)][lane % 3]
            let cheapest = Int.random(in: 0...(0xFFFF - spread), using: &random)
            let total = (0..<nights).reduce(0) { sum, _ in sum + cheapest + Int.random(in: 0...spread, using: &random) }
            let first = Int.random(in: 0...0xFF_FFFF, using: &random), last = (first + total) & 0xFF_FFFF
            minima.append(UInt16(cheapest))
            before.append(UInt16(first & 0xFFFF))
            after.append(UInt16(last & 0xFFFF))
            if carried >> UInt64(lane) & 1 == 1 {
                carriesBefore.append(UInt8(first >> 16))
                carriesAfter.append(UInt8(last >> 16))
                if lanes >> UInt64(lane) & 1 == 1 { expected[lane] = Int32(total) }
            }
        }
        carriesBefore.append(0)
        carriesAfter.append(0)
        for portable in [true, false] {
            staysearch_carried_word_totals_use_portable(portable ? 1 : 0)
            var totals = [Int32](repeating: -7, count: 64)
            let rest = staysearch_carried_word_totals(before, after, carriesBefore, carriesAfter, minima, nights, carried, lanes, &totals)
            #expect(rest == lanes & ~carried, "seed \(seed), portable \(portable)")
            #expect(totals == expected, "seed \(seed), portable \(portable), \(nights) nights")
        }
        staysearch_carried_word_totals_use_portable(0)
    }

    /// A word's cheapest stays over consecutive check-ins from running sums, both versions, against the
    /// definition: each lane's least total among its allowed check-ins, the earliest of equal ones (ties made
    /// likely by nights of 0 and 1).
    @Test(arguments: 0..<40)
    func denseWordCheapestStaysAgreeWithTheDefinition(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 13_000)
        let stride = 64 + Int.random(in: 0...100, using: &random)
        let nights = random.pick([1, 2, 3, 7, Int.random(in: 1...30, using: &random)])
        let checkIns = seed % 5 == 0 ? 31 : Int.random(in: 1...31, using: &random)
        let offset = Int.random(in: 0...(stride - 64), using: &random)
        let codes: [UInt16] = (0..<(stride * (checkIns + nights))).map { _ in
            seed % 3 == 0 ? UInt16.random(in: 0...1, using: &random) : UInt16.random(in: 0...2_000, using: &random)
        }
        // The running sums of those nights, from any start: they wrap past 65,535 (a stay stays below it).
        var sums = (0..<stride).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
        for day in 0..<(checkIns + nights) {
            for row in 0..<stride { sums.append(sums[day * stride + row] &+ codes[day * stride + row]) }
        }
        let allowed: [UInt64] = (0..<64).map { _ in
            random.chance(0.1) ? 0 : UInt64.random(in: 1...UInt64.max, using: &random) & ((1 << UInt64(checkIns)) - 1)
        }
        let lanes = random.chance(0.2) ? ~0 : UInt64.random(in: 0...UInt64.max, using: &random)
        for portable in [true, false] {
            staysearch_dense_word_cheapest_use_portable(portable ? 1 : 0)
            var units = [Int32](repeating: -7, count: 64), picked = [Int32](repeating: -7, count: 64)
            sums.withUnsafeBufferPointer {
                staysearch_dense_word_cheapest($0.baseAddress! + offset, stride, nights, checkIns, allowed, lanes, &units, &picked)
            }
            for lane in 0..<64 where lanes >> UInt64(lane) & 1 == 1 {
                var best = Int32.max, bestK: Int32 = 0
                for k in 0..<checkIns where allowed[lane] >> UInt64(k) & 1 == 1 {
                    var total: Int32 = 0
                    for night in 0..<nights { total += Int32(codes[(k + night) * stride + offset + lane]) }
                    if total < best { (best, bestK) = (total, Int32(k)) }
                }
                #expect(units[lane] == best && (best == Int32.max || picked[lane] == bestK),
                        "seed \(seed), portable \(portable), lane \(lane)")
            }
        }
        staysearch_dense_word_cheapest_use_portable(0)
    }
}

extension ScanKernelTests {
    /// Values counted into price slots (AVX2 where the processor has it) against their definition by integer
    /// division, ⌊z ÷ u⌋ + ⌈z ÷ u⌉ below the end and the last slot from it: slots of whole units a night (up to
    /// 100,000 nights, a unit of 10^7 minor units) and by granule from ₩10 to ₫100,000, with values at the cuts,
    /// one either side of them, at the end and past it.
    @Test(arguments: 0..<24)
    func slotCountsAgreeWithDivision(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 19_000)
        let nights = Int64(random.pick([1, 3, 14, 365, 100_000]))
        let bins = random.pick([1, 10, 64])
        let slots = try #require(seed % 2 == 0
            ? PriceSlots(nights: nights, bins: bins)
            : PriceSlots(nights: nights, bins: bins, granuleScale: 3 + seed / 2 % 5, reach: Int64.random(in: 0...1 << 40, using: &random)))
        let unit = slots.unit, cuts = Int64(slots.byGranule ? 1 : bins)
        let values: [Int64] = (0..<5_003).map { _ in
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return Int64.random(in: 0..<slots.end, using: &random)
            case 1:
                // A cut, k · u ÷ cuts, or a minor unit either side of it.
                let cut = Int64.random(in: 0...Int64(slots.units) * cuts, using: &random) * unit / cuts
                return max(0, cut + Int64.random(in: -1...1, using: &random))
            case 2: return slots.end + Int64.random(in: -2...2, using: &random)
            default: return Int64.random(in: 0...(1 << 52), using: &random)
            }
        }
        var counts = [Int32](repeating: 0, count: slots.count), expected = counts
        var expectedBetween: [Int64] = []
        for value in values {
            let z = value * cuts
            if value >= slots.end {
                expected[slots.aboveSlot] += 1
            } else if let between = slots.betweenSlot {
                // By granule: one slot each, the rest counted apart and kept in order while they fit.
                if z % unit == 0 { expected[Int(z / unit)] += 1 } else { expected[between] += 1; expectedBetween.append(value) }
            } else {
                expected[Int(z / unit + (z + unit - 1) / unit)] += 1
            }
        }
        let room = UnsafeMutableBufferPointer<Int64>.allocate(capacity: Int.random(in: 1...3_000, using: &random))
        defer { room.deallocate() }
        values.withUnsafeBufferPointer { values in
            counts.withUnsafeMutableBufferPointer { slots.add(values.baseAddress!, count: values.count, to: $0.baseAddress!, between: room) }
        }
        #expect(counts == expected, "seed \(seed): unit \(unit), \(slots.units) units, by granule \(slots.byGranule)")
        if slots.byGranule {
            #expect(Array(room.prefix(expectedBetween.count)) == Array(expectedBetween.prefix(room.count)), "seed \(seed): the values kept aside")
        }
    }
}
