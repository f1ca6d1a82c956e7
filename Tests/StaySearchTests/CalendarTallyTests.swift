@testable import StaySearch
import StaySearchTestSupport
import Testing

/// A price calendar's tally: the element of a rank is that of the totals sorted, and a day's median comes
/// out only when it lies in the day's bracket, exactly — whether the bracket counts its whole-unit totals by
/// unit (beside totals of cents) or keeps them one by one.
@Suite struct CalendarTallyTests {
    @Test(arguments: 0..<40)
    func theMedianIsThatOfTheSortedTotalsWhenTheBracketHoldsIt(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 977 + 1)
        let days = Int.random(in: 1...5, using: &random)
        var all = [[Int64]](repeating: [], count: days)
        for day in 0..<days {
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                all[day].append(Int.random(in: 0..<4, using: &random) == 0
                    ? Int64.random(in: 0...50_000, using: &random)                  // cents
                    : Int64.random(in: 0...(seed % 2 == 0 ? 60 : 200_000), using: &random) * 100)
            }
        }
        let low = (0..<days).map { _ in Int32.random(in: 0...300, using: &random) }
        // Most brackets narrow enough to count by whole unit, some wider (totals kept one by one), some empty.
        let high = low.map { $0 + (Int.random(in: 0..<4, using: &random) == 0 ? Int32(CalendarTally.slotLimit) + 1 : Int32.random(in: -1...200, using: &random)) }
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in CalendarTally(bracketLow: low, bracketHigh: high) }
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
            let held = median >= Int64(low[day]) * 100 && median <= Int64(high[day]) * 100 + 99
            #expect(tally.median(ofDay: day) == (held ? median : nil), "seed \(seed) day \(day)")
            let rank = Int.random(in: 0..<sorted.count, using: &random)
            #expect(CalendarTally.element(ofRank: rank, in: all[day]) == sorted[rank], "seed \(seed) day \(day)")
        }
    }
}
