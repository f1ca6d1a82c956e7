import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar's rows counted by their trip prices (`staysearch_calendar_trip_rows`), AVX2 and portable,
/// against trip prices worked out here from SPEC's formulas: units of 10^2 to 10^6 minor units, weekly and monthly
/// discounts, extra guests, cleaning fees, service fees from none to 100 %, rows of one price and of stays read
/// from their line, narrow and wide brackets, price ranges and cuts for the least, and rows whose trip prices
/// could pass 2^31 − 1 minor units (handed back).
@Suite struct CalendarTripRowsTests {
    struct Outcome: Equatable {
        var counts: [UInt32]
        var below: [UInt32]
        var least: [Int32]
        var slots: [[UInt32]]
        var cents: [UInt64]
        var returned: UInt64
    }

    /// A stay's trip price (SPEC: S − D + E + C + F), all in minor units.
    static func tripPrice(sum: Int64, discount: Int64, added: Int64, serviceFee: Int64) -> Int64 {
        let base = sum - (sum * discount + 5_000) / 10_000 + added
        return base + (base * serviceFee + 5_000) / 10_000
    }

    @Test(arguments: 0..<300)
    func bothVersionsCountTheTripPricesOfSPEC(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 7_919 + 3)
        let scale = [2, 2, 3, 4, 6][seed % 5]
        let unit = [Int64](repeating: 10, count: scale).reduce(1, *)
        let nights = [1, 3, 6, 7, 13, 27, 28, 35][seed % 8]
        let guests = Int.random(in: 1...6, using: &random)
        let checkIns = Int.random(in: 1...Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS), using: &random)
        let serviceFee = Int64([0, 0, 1, 1_250, 1_420, 10_000][seed % 6])
        let stride = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
        // Stays in units: up to 65,535 (the 16-bit lines), fewer for the larger units (else most trip prices pass 2^31).
        let typical = scale <= 3 ? Int.random(in: 50...20_000, using: &random) : Int.random(in: 1...(scale == 4 ? 5_000 : 3), using: &random)
        var stays = [UInt16](repeating: 0, count: 64 * stride)
        var stayLow = [UInt16](repeating: 0, count: 64), stayHigh = [UInt16](repeating: 0, count: 64)
        var sumSlots = [Int32](repeating: 0, count: 64)
        var constants: UInt64 = 0
        var valid = [UInt64](repeating: 0, count: stride)
        for p in 0..<checkIns { valid[p] = random.next() & random.next() | random.next() }
        for lane in 0..<64 {
            let slot = 63 - lane
            sumSlots[lane] = Int32(slot)
            if random.chance(0.2) {
                constants |= 1 << UInt64(lane)
                let total = UInt16(clamping: typical + Int.random(in: 0...(typical / 2), using: &random))
                stayLow[lane] = total
                stayHigh[lane] = total
                continue
            }
            let line = (0..<stride).map { _ in UInt16(clamping: typical + Int.random(in: -(typical / 3)...(typical / 3), using: &random)) }
            for p in 0..<stride { stays[slot * stride + p] = line[p] }
            // Bounds of the valid stays (loose for some rows); the others' may lie anywhere.
            let found = (0..<checkIns).filter { valid[$0] >> UInt64(lane) & 1 != 0 }.map { line[$0] }
            stayLow[lane] = (found.min() ?? 0) &- (random.chance(0.3) ? min(found.min() ?? 0, 7) : 0)
            stayHigh[lane] = found.max().map { UInt16(clamping: Int($0) + (random.chance(0.3) ? 9 : 0)) } ?? 0
        }
        // Fees: a share of the rows, entries in planes of `count` words (more than the rows with fees).
        var feeWord: UInt64 = 0
        for lane in 0..<64 where random.chance(0.7) { feeWord |= 1 << UInt64(lane) }
        let feeRows = feeWord.nonzeroBitCount, count = feeRows + 5
        var entries = [UInt32](repeating: 0, count: 4 * count)
        for rank in 0..<feeRows {
            let dear = random.chance(0.05)
            entries[rank] = dear ? UInt32.random(in: 1_000_000_000...2_000_000_000, using: &random)
                : random.chance(0.7) ? UInt32(Int64.random(in: 0...200, using: &random) * unit / 2) : 0
            let extra = random.chance(0.5) ? UInt32(Int64.random(in: 1...90, using: &random) * min(unit, 10_000) / 2) : 0
            entries[count + rank] = extra << 8 | UInt32.random(in: 1...4, using: &random)
            let weekly = random.chance(0.5) ? UInt32.random(in: 1...9_900, using: &random) : 0
            let monthly = random.chance(0.5) ? UInt32.random(in: 1...9_900, using: &random) : 0
            entries[2 * count + rank] = weekly | monthly << 16
        }
        func terms(_ lane: Int) -> (discount: Int64, added: Int64) {
            guard feeWord >> UInt64(lane) & 1 != 0 else { return (0, 0) }
            let rank = (feeWord & ((1 << UInt64(lane)) - 1)).nonzeroBitCount
            let weekly = Int64(entries[2 * count + rank] & 0xFFFF), monthly = Int64(entries[2 * count + rank] >> 16)
            let discount = nights >= 28 && monthly > 0 ? monthly : nights >= 7 ? weekly : 0
            let above = Int64(max(0, guests - Int(entries[count + rank] & 0xFF)))
            return (discount, Int64(entries[rank]) + above * Int64(entries[count + rank] >> 8) * Int64(nights))
        }
        func trip(_ lane: Int, _ units: UInt16) -> Int64 {
            let (discount, added) = terms(lane)
            return Self.tripPrice(sum: Int64(units) * unit, discount: discount, added: added, serviceFee: serviceFee)
        }
        // Brackets in units near the trip prices (some empty, some wide), the price range and the cut.
        let middle = Int32(clamping: trip(Int(random.next() % 64), UInt16(clamping: typical)) / unit)
        let bracketLow = (0..<checkIns).map { _ in max(0, middle + Int32.random(in: -40...10, using: &random)) }
        let bracketHigh = bracketLow.map { $0 + (random.chance(0.1) ? -1 : Int32.random(in: 0...(random.chance(0.2) ? 4_000 : 30), using: &random)) }
        let cheapest = random.chance(0.3) ? Int32.max : middle - Int32.random(in: 0...60, using: &random)
        let lowest = random.chance(0.5) ? 0 : (Int64(middle) - 200) * unit
        let highest = random.chance(0.5) ? Int64.max : (Int64(middle) + 300) * unit + 17
        let lanes = random.next() | random.next()
        // Every sixth seed counts by slots of 8 units (a sample's).
        let slotShift = seed % 6 == 4 ? 3 : 0

        // What the kernel must find.
        var expected = Outcome(counts: Array(repeating: 0, count: checkIns), below: Array(repeating: 0, count: checkIns),
                               least: Array(repeating: .max, count: checkIns),
                               slots: bracketLow.indices.map { p in
                                   bracketHigh[p] < bracketLow[p] ? [] : Array(repeating: 0, count: Int(bracketHigh[p] - bracketLow[p]) >> slotShift + 1)
                               },
                               cents: [], returned: 0)
        let cut = Int64(cheapest) * unit + unit - 1
        for lane in 0..<64 where lanes >> UInt64(lane) & 1 != 0 {
            let (_, added) = terms(lane)
            if Int64(stayHigh[lane]) * unit + added >= Int64(Int32.max) || trip(lane, stayHigh[lane]) >= Int64(Int32.max) {
                expected.returned |= 1 << UInt64(lane)
                continue
            }
            for p in 0..<checkIns where valid[p] >> UInt64(lane) & 1 != 0 {
                let units = constants >> UInt64(lane) & 1 != 0 ? stayLow[lane] : stays[(63 - lane) * stride + p]
                let total = trip(lane, units)
                guard total >= lowest, total <= highest else { continue }
                expected.counts[p] += 1
                let low = Int64(bracketLow[p]) * unit, high = Int64(bracketHigh[p]) * unit + unit - 1
                if total < low { expected.below[p] += 1 }
                let inside = total >= low && total <= high
                guard inside || total <= cut else { continue }
                if total % unit != 0 {
                    expected.cents.append(UInt64(p) << 32 | UInt64(total))
                } else {
                    if inside { expected.slots[p][(Int(total / unit) - Int(bracketLow[p])) >> slotShift] += 1 }
                    if total <= cut { expected.least[p] = min(expected.least[p], Int32(total / unit)) }
                }
            }
        }
        expected.cents.sort()

        var plan = staysearch_calendar_trip_plan()
        staysearch_calendar_trip_prepare(&plan, checkIns, scale, nights, guests, serviceFee, lowest, highest, bracketLow, bracketHigh, cheapest,
                                         slotShift)
        for portable in [0, 1] {
            staysearch_calendar_use_portable(Int32(portable))
            defer { staysearch_calendar_use_portable(0) }
            // The kernel's arrays hold 32 check-ins; those past the calendar's must stay as they are.
            let width = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
            var counts = [UInt32](repeating: 0, count: checkIns) + Array(repeating: 7, count: width - checkIns)
            var below = counts, least = [Int32](repeating: .max, count: checkIns) + Array(repeating: 7, count: width - checkIns)
            let slots: [UnsafeMutablePointer<UInt32>?] = expected.slots.map { line in
                let counted = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, line.count))
                counted.initialize(repeating: 0, count: max(1, line.count))
                return counted
            }
            defer { slots.forEach { $0?.deallocate() } }
            var cents = [UInt64](repeating: 0, count: 64 * width)
            var kept = 0
            let returned = staysearch_calendar_trip_rows(&plan, lanes, valid, stayLow, stayHigh, constants, sumSlots, stays, stride, feeWord,
                                                         entries, count, &counts, &below, &least, slots, &cents, &kept)
            #expect(counts[checkIns...].allSatisfy { $0 == 7 } && below[checkIns...].allSatisfy { $0 == 7 }
                    && least[checkIns...].allSatisfy { $0 == 7 }, "seed \(seed) portable \(portable): past the check-ins")
            let outcome = Outcome(counts: Array(counts[..<checkIns]), below: Array(below[..<checkIns]), least: Array(least[..<checkIns]),
                                  slots: expected.slots.indices.map { Array(UnsafeBufferPointer(start: slots[$0], count: expected.slots[$0].count)) },
                                  cents: cents[..<kept].sorted(), returned: returned)
            #expect(outcome == expected, "seed \(seed) portable \(portable): scale \(scale), \(nights) nights, service fee \(serviceFee)")
        }
    }
}
