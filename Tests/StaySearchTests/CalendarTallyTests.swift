import StaySearch
import StaySearchTestSupport
import Testing

/// A price calendar's tally: the element of a rank is that of the totals sorted, and a day's median comes
/// out only when it lies in the day's bracket, exactly — whether the bracket counts its whole-unit totals by
/// unit (beside totals of a fraction of a unit) or keeps them one by one, in units of whole dollars, ₩10 or
/// ₩100.
@Suite struct CalendarTallyTests {
    @Test(arguments: 0..<40)
    func theMedianIsThatOfTheSortedTotalsWhenTheBracketHoldsIt(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 977 + 1)
        let days = Int.random(in: 1...5, using: &random)
        let unit: Int64 = [100, 1_000, 10_000][(seed / 2) % 3]
        var all = [[Int64]](repeating: [], count: days)
        for day in 0..<days {
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                all[day].append(Int.random(in: 0..<4, using: &random) == 0
                    ? Int64.random(in: 0...(500 * unit), using: &random)                  // a fraction of a unit, mostly
                    : Int64.random(in: 0...(seed % 2 == 0 ? 60 : 200_000), using: &random) * unit)
            }
        }
        let low = (0..<days).map { _ in Int32.random(in: 0...300, using: &random) }
        // Most brackets narrow enough to count by whole unit, some wider (totals kept one by one), some empty.
        let high = low.map { $0 + (Int.random(in: 0..<4, using: &random) == 0 ? Int32(CalendarTally.slotLimit) + 1 : Int32.random(in: -1...200, using: &random)) }
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in CalendarTally(bracketLow: low, bracketHigh: high, unit: unit) }
        for day in 0..<days {
            for total in all[day] { random.pick(parts).add(total, day: day) }
        }
        let tally = parts[0]
        for part in parts.dropFirst() { tally.merge(part) }
        for day in 0..<days {
            let sorted = all[day].sorted()
            #expect(Int(tally.counts[day]) == sorted.count, "seed \(seed) day \(day)")
            #expect(tally.lowest(ofDay: day) == sorted.first, "seed \(seed) day \(day)")
            guard !sorted.isEmpty else { continue }
            let median = sorted[(sorted.count - 1) / 2]
            let held = median >= Int64(low[day]) * unit && median <= Int64(high[day]) * unit + unit - 1
            #expect(tally.median(ofDay: day) == (held ? median : nil), "seed \(seed) day \(day)")
            let rank = Int.random(in: 0..<sorted.count, using: &random)
            #expect(CalendarTally.elements(ofRanks: [rank], in: all[day], unit: unit) == [sorted[rank]], "seed \(seed) day \(day)")
            // Totals of several ranks: those of the sorted totals when each lies in the bracket, else none.
            let ranks = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<sorted.count, using: &random) }
            let allHeld = ranks.allSatisfy { sorted[$0] >= Int64(low[day]) * unit && sorted[$0] <= Int64(high[day]) * unit + unit - 1 }
            #expect(tally.totals(atRanks: ranks, ofDay: day) == (allHeld ? ranks.map { sorted[$0] } : nil), "seed \(seed) day \(day) ranks \(ranks)")
        }
    }

    /// A sample counted by unit up to the slots' limit brackets the days as a sample keeping every total
    /// does, and gives no brackets when a rank they need lies above the limit (the calendar then samples
    /// again keeping everything): never with every total below it, always with every total above it.
    @Test(arguments: 0..<30)
    func aSampleCountedByUnitBracketsAsOneKeepingEverything(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 313 + 7)
        let days = Int.random(in: 1...6, using: &random)
        let unit: Int64 = seed < 15 ? 100 : 10_000
        let limit = Int64(CalendarTally.sampleSlots) * unit
        // Below the limit, above it, or across it.
        let kind = seed % 3
        let counted = CalendarTally(samplingFor: days, unit: unit), kept = CalendarTally(everythingFor: days, unit: unit)
        for day in 0..<days {
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                let total: Int64
                switch kind {
                case 0: total = Int64.random(in: 0..<limit, using: &random)
                case 1: total = limit + Int64.random(in: 0...(10_000 * unit), using: &random)
                default: total = Int64.random(in: (limit - 500 * unit)...(limit + 500 * unit), using: &random)
                }
                let rounded = random.chance(0.7) ? total / unit * unit : total
                counted.add(rounded, day: day)
                kept.add(rounded, day: day)
            }
        }
        let sampling = CalendarSampling(every: 1, minimumStays: random.pick([1, 64]), standardErrors: random.pick([0, 3]))
        let expected = try #require(CalendarTally.brackets(from: kept, sampling: sampling))
        let brackets = CalendarTally.brackets(from: counted, sampling: sampling)
        let sampled = (0..<days).contains { Int(kept.counts[$0]) >= sampling.minimumStays }
        switch kind {
        case 0: #expect(brackets != nil, "seed \(seed)")
        case 1: #expect((brackets == nil) == sampled, "seed \(seed)")
        default: break
        }
        if let brackets {
            #expect(brackets.bracketLow == expected.bracketLow && brackets.bracketHigh == expected.bracketHigh
                    && brackets.cheapest == expected.cheapest, "seed \(seed)")
        }
    }

    /// A sample counted by slots of 2–32 units (``ListingIndex/calendarSlotShift(nights:unit:)``) brackets each
    /// day around the brackets of a sample keeping every total: its bracket holds theirs (a total of cents in a
    /// unit the bracket ends on is inside), and reaches at most a slot further each way; its cut as well.
    @Test(arguments: 0..<24)
    func aSampleCountedBySlotsBracketsAroundOneKeepingEverything(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 911 + 3)
        let days = Int.random(in: 1...6, using: &random)
        let unit: Int64 = seed % 2 == 0 ? 100 : 10_000
        let shift = 1 + seed % 5
        let limit = Int64(CalendarTally.sampleSlots << shift) * unit
        let counted = CalendarTally(samplingFor: days, unit: unit, slotShift: shift), kept = CalendarTally(everythingFor: days, unit: unit)
        for day in 0..<days {
            let middle = Int64.random(in: (limit / 8)...(limit / 2), using: &random)
            for _ in 0..<Int.random(in: 1...600, using: &random) {
                let total = max(0, min(limit - 1, middle + Int64.random(in: -(middle / 2)...(middle / 2), using: &random)))
                let rounded = random.chance(0.8) ? total / unit * unit : total
                counted.add(rounded, day: day)
                kept.add(rounded, day: day)
            }
        }
        let sampling = CalendarSampling(every: 1, minimumStays: random.pick([1, 64]), standardErrors: random.pick([0, 3]))
        let expected = try #require(CalendarTally.brackets(from: kept, sampling: sampling))
        let brackets = try #require(CalendarTally.brackets(from: counted, sampling: sampling), "seed \(seed)")
        let slot = Int64(1) << Int64(shift)
        for day in 0..<days {
            let (low, high) = (Int64(brackets.bracketLow[day]), Int64(brackets.bracketHigh[day]))
            let (keptLow, keptHigh) = (Int64(expected.bracketLow[day]), Int64(expected.bracketHigh[day]))
            #expect(low <= keptLow && keptLow - low < slot, "seed \(seed) day \(day): low \(low) against \(keptLow)")
            #expect(keptHigh == Int64(Int32.max) ? high == keptHigh : high >= keptHigh - 1 && high - keptHigh < slot,
                    "seed \(seed) day \(day): high \(high) against \(keptHigh)")
        }
        let (cut, keptCut) = (Int64(brackets.cheapest), Int64(expected.cheapest))
        #expect(keptCut == Int64(Int32.max) ? cut == keptCut : cut >= keptCut - 1 && cut - keptCut < slot, "seed \(seed): cut \(cut) against \(keptCut)")
    }
}
