import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar's row-by-row totals (`staysearch_calendar_rows`), AVX2 and portable, against totals
/// summed night by night here: words of rows of one price and of running sums, stay bounds exact or loose or
/// from the nights' or unknown, rows whose stays are too dear for 16-bit lanes (settled by 32-bit bounds or handed back), narrow and wide brackets near the
/// totals, price ranges and cuts for the least, fees added to some rows' stays, slots of one unit and of 2–16 (a
/// sample's); a word once or three times in one pass.
@Suite struct CalendarRowsTests {
    struct Outcome: Equatable {
        var counts: [UInt32]
        var below: [UInt32]
        var least: [Int32]
        var inside: [[Int32]]
        var returned: UInt64
    }

    @Test(arguments: 0..<400)
    func bothVersionsTotalEveryRowAsSummedNightByNight(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 8_191 + 17)
        let nights = Int.random(in: 1...21, using: &random)
        let checkIns = Int.random(in: 1...Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS), using: &random)
        let span = checkIns + nights - 1, stride = span + 1
        let constantShare = [0.0, 0.5, 0.9, 1.0][seed % 4]
        let typical = Int32(nights) * 500
        var constant = [Int32](repeating: 0, count: 64), slots = [Int32](repeating: -1, count: 64)
        var nightly = [[Int32]](repeating: [], count: 64)
        var sums = [UInt16](repeating: 0, count: 64 * stride + 64)
        for lane in 0..<64 {
            // Most prices near the brackets, some far above them (some of those too dear for 16 bits).
            let base = random.chance(0.15) ? Int32.random(in: 2_000...30_000, using: &random) : Int32.random(in: 100...1_000, using: &random)
            if Double.random(in: 0..<1, using: &random) < constantShare {
                constant[lane] = base
                nightly[lane] = Array(repeating: base, count: span)
            } else {
                constant[lane] = -2
                nightly[lane] = (0..<span).map { _ in base + Int32.random(in: 0...60, using: &random) }
                guard !random.chance(0.05) else { continue }     // no slot: handed back
                let slot = 63 - lane      // a row's sums need not be in its own place
                slots[lane] = Int32(slot)
                var sum = UInt16.random(in: 0...UInt16.max, using: &random)
                sums[slot * stride] = sum
                for night in 0..<span {
                    sum &+= UInt16(nightly[lane][night])
                    sums[slot * stride + night + 1] = sum
                }
            }
        }
        // Each lane's bounds on its stays: exact, loose, or nights × its cheapest and dearest night.
        let bounds = seed % 3
        let stayTotals = (0..<64).map { lane in (0..<checkIns).map { p in nightly[lane][p..<(p + nights)].reduce(0, +) } }
        let lows = (0..<64).map { lane -> Int32 in
            guard !random.chance(0.03) else { return -1 }
            if bounds == 2 { return nightly[lane].min()! * Int32(nights) }
            return max(0, stayTotals[lane].min()! - (bounds == 1 ? Int32.random(in: 0...(5 * Int32(nights)), using: &random) : 0))
        }
        let highs = (0..<64).map { lane -> Int32 in
            guard lows[lane] >= 0 else { return -1 }
            if bounds == 2 { return nightly[lane].max()! * Int32(nights) }
            return stayTotals[lane].max()! + (bounds == 1 ? 3 : 0)
        }
        let valid = (0..<checkIns).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) & UInt64.random(in: 0...UInt64.max, using: &random) }
        let (lowest, highest): (Int32, Int32) = seed % 4 == 1 ? (typical / 2, typical * 2) : (0, Int32.max)
        let bracketLow = (0..<checkIns).map { _ in
            seed % 9 == 0 ? 0 : max(0, typical + Int32.random(in: -250...250, using: &random) * Int32(nights) / 2)
        }
        // Every seventh seed counts by slots of 2–16 units, its brackets as many times wider.
        let slotShift = seed % 7 == 5 ? 1 + seed % 4 : 0
        let bracketHigh = bracketLow.map { $0 + Int32.random(in: 0...(seed % 9 == 0 ? 4_095 : seed % 9 == 4 ? 30_000 : 80 * Int32(nights)), using: &random) << Int32(slotShift) }
        let cheapest = [Int32.max, typical / 3, 0, -1][seed % 4]

        // The rows' bounds and kinds in 16 bits, as a span works them out; every fifth seed, fees added to some
        // totalled rows' stays (their bounds raised by them, a row of one price's total too).
        var low16 = [UInt16](repeating: 9, count: 64), high16 = low16, exact: [UInt64] = [0], constants: [UInt64] = [0]
        staysearch_calendar_rows_columns(constant, lows, highs, slots, nights, 0, 64, &low16, &high16, &exact, &constants)
        var added = [UInt16](repeating: 0, count: 64)
        if seed % 5 == 3 {
            for lane in 0..<64 where exact[0] >> UInt64(lane) & 1 != 0 && random.chance(0.7) {
                let fees = UInt16.random(in: 0...3_000, using: &random)
                guard Int64(high16[lane]) + Int64(fees) <= Int64(STAYSEARCH_CALENDAR_ROWS_LARGEST) else { continue }
                added[lane] = fees
                low16[lane] += fees
                high16[lane] += fees
            }
        }
        // Summed here, night by night; a row is not totalled by the kernel when its dearest stay may not fit 16 bits.
        var expected = Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                               least: Array(repeating: .max, count: checkIns), inside: Array(repeating: [], count: checkIns),
                               returned: 0)
        let largest = Int64(STAYSEARCH_CALENDAR_ROWS_LARGEST)
        let anyValid = valid.reduce(0, |)
        for lane in 0..<64 where anyValid >> UInt64(lane) & 1 != 0 {
            let totalled = constant[lane] >= 0 ? Int64(constant[lane]) * Int64(nights) <= largest
                : slots[lane] >= 0 && lows[lane] >= 0 && Int64(highs[lane]) <= largest
            guard !totalled else { continue }
            // A lane too dear for 16 bits is settled by its 32-bit bounds when every stay lies in the price range,
            // above the cut and below or above every bracket, or dropped when every one lies outside the range
            // (its totals below agree); else handed back.
            let (low, high) = (lows[lane], highs[lane])
            if low >= 0, high >= 0, high < lowest || low > highest
                || (low >= lowest && high <= highest && low > cheapest && (high < bracketLow.min()! || low > bracketHigh.max()!)) {
                continue
            }
            expected.returned |= 1 << UInt64(lane)
        }
        for p in 0..<checkIns {
            for lane in 0..<64 where valid[p] >> UInt64(lane) & 1 != 0 && expected.returned >> UInt64(lane) & 1 == 0 {
                let total = nightly[lane][p..<(p + nights)].reduce(0, +) + Int32(added[lane])
                guard total >= lowest, total <= highest else { continue }
                expected.counts[p] += 1
                if total < bracketLow[p] { expected.below[p] += 1 }
                if total >= bracketLow[p], total <= bracketHigh[p] {
                    expected.inside[p].append(bracketLow[p] + ((total - bracketLow[p]) >> Int32(slotShift)) << Int32(slotShift))
                }
                if total <= cheapest { expected.least[p] = min(expected.least[p], total) }
            }
            expected.inside[p].sort()
        }
        let repeats = seed % 3 == 2 ? 3 : 1
        expected.counts = expected.counts.map { $0 * UInt32(repeats) }
        expected.below = expected.below.map { $0 * UInt32(repeats) }
        expected.inside = expected.inside.map { totals in totals.flatMap { Array(repeating: $0, count: repeats) } }
        // What the kernel reads of the rows, as a span works it out: each row's stays from its sums, and its
        // bounds and kind in 16 bits.
        let stayStride = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
        var stays = [UInt16](repeating: 9, count: 64 * stayStride)
        staysearch_stays_of_sums(sums, stride, nights, checkIns, 64, &stays, stayStride)
        var portableStays = [UInt16](repeating: 9, count: 64 * stayStride)
        staysearch_calendar_use_portable(1)
        staysearch_stays_of_sums(sums, stride, nights, checkIns, 64, &portableStays, stayStride)
        staysearch_calendar_use_portable(0)
        #expect(stays == portableStays, "seed \(seed): the stays of the sums")
        for portable in [0, 1] {
            staysearch_calendar_use_portable(Int32(portable))
            var outcome = Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                                  least: Array(repeating: .max, count: checkIns), inside: Array(repeating: [], count: checkIns),
                                  returned: 0)
            let counted: [UnsafeMutablePointer<UInt32>?] = (0..<checkIns).map { p in
                let width = Int(bracketHigh[p] - bracketLow[p]) >> slotShift + 1
                let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
                counts.initialize(repeating: 0, count: width)
                return counts
            }
            var plan = staysearch_calendar_rows_plan()
            staysearch_calendar_rows_prepare(&plan, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, slotShift)
            // The kernel's arrays hold 32 check-ins; those past the calendar's must stay as they are.
            let width = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
            var counts = outcome.counts + Array(repeating: 7, count: width - checkIns)
            var below = outcome.below + Array(repeating: 7, count: width - checkIns)
            var least = outcome.least + Array(repeating: 7, count: width - checkIns)
            // The same word once or three times in a pass (a word's stays may be totalled by the next call).
            // The rows' least stays and slots must outlive the pass.
            low16.withUnsafeBufferPointer { low16 in
                slots.withUnsafeBufferPointer { slots in
                    added.withUnsafeBufferPointer { added in
                        for _ in 0..<repeats {
                            outcome.returned = staysearch_calendar_rows(&plan, low16.baseAddress, high16, lows, highs, exact[0], constants[0],
                                                                        seed % 5 == 3 ? added.baseAddress : nil, slots.baseAddress,
                                                                        stays, stayStride, valid, &counts, &below, &least, counted)
                        }
                    }
                    staysearch_calendar_rows_finish(&plan, stays, stayStride, &counts, &below, &least, counted)
                }
            }
            #expect(counts[checkIns...].allSatisfy { $0 == 7 } && below[checkIns...].allSatisfy { $0 == 7 }
                    && least[checkIns...].allSatisfy { $0 == 7 }, "seed \(seed): past the check-ins")
            (outcome.counts, outcome.below, outcome.least) = (Array(counts[..<checkIns]), Array(below[..<checkIns]), Array(least[..<checkIns]))
            staysearch_calendar_use_portable(0)
            for p in 0..<checkIns {
                let counts = counted[p]!
                for offset in 0...(Int(bracketHigh[p] - bracketLow[p]) >> slotShift) {
                    outcome.inside[p] += Array(repeating: bracketLow[p] + Int32(offset << slotShift), count: Int(counts[offset]))
                }
                counts.deallocate()
            }
            #expect(outcome == expected, "seed \(seed) \(portable == 1 ? "portable" : "fastest")")
        }
    }

    /// `staysearch_stay_bounds`, AVX2 and portable, against each row's stays summed night by night: rows
    /// whose sums start anywhere modulo 2^16 and sit in slots not their own, rows without sums or too dear
    /// for 16 bits (left as they were), 1–65 nights, 1–32 check-ins, a part of the rows.
    @Test(arguments: 0..<200)
    func stayBoundsAreTheLeastAndGreatestStayOfEachRow(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 4_099 + 5)
        let nights = Int.random(in: 1...65, using: &random)
        let windows = Int.random(in: 1...Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS), using: &random)
        let span = windows + nights - 1, stride = span + 1, rows = Int.random(in: 1...90, using: &random)
        var slots = [Int32](repeating: -1, count: rows), lows = [Int32](repeating: -1, count: rows), highs = lows
        var sums = [UInt16](repeating: 0, count: rows * stride + 64)
        var expectedLows = [Int32](repeating: -9, count: rows), expectedHighs = expectedLows
        let order = (0..<rows).shuffled(using: &random)
        let from = Int.random(in: 0..<rows, using: &random), to = Int.random(in: (from + 1)...rows, using: &random)
        for row in 0..<rows {
            let dear = random.chance(0.1)
            let base = dear ? Int32(STAYSEARCH_CALENDAR_ROWS_LARGEST) / Int32(nights) : Int32.random(in: 0...900, using: &random)
            let nightly = (0..<span).map { _ in base + Int32.random(in: 0...(dear ? 20 : 300), using: &random) }
            guard !random.chance(0.05) else { continue }     // no sums
            slots[row] = Int32(order[row])
            var sum = UInt16.random(in: 0...UInt16.max, using: &random)
            sums[order[row] * stride] = sum
            for night in 0..<span {
                sum &+= UInt16(truncatingIfNeeded: nightly[night])
                sums[order[row] * stride + night + 1] = sum
            }
            if !random.chance(0.05) { (lows[row], highs[row]) = (nightly.min()!, nightly.max()!) }
            let totals = (0..<windows).map { p in nightly[p..<(p + nights)].reduce(0, +) }
            if row >= from, row < to, lows[row] >= 0, Int64(highs[row]) * Int64(nights) <= Int64(STAYSEARCH_CALENDAR_ROWS_LARGEST) {
                (expectedLows[row], expectedHighs[row]) = (totals.min()!, totals.max()!)
            }
        }
        for portable in [0, 1] {
            staysearch_calendar_use_portable(Int32(portable))
            var stayLows = [Int32](repeating: -9, count: rows), stayHighs = stayLows
            staysearch_stay_bounds(sums, stride, nights, windows, slots, lows, highs, from, to, &stayLows, &stayHighs)
            staysearch_calendar_use_portable(0)
            #expect(stayLows == expectedLows && stayHighs == expectedHighs, "seed \(seed) \(portable == 1 ? "portable" : "fastest")")
        }
    }
}
