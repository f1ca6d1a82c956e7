@testable import StaySearch
import StaySearchTestSupport
import Testing

/// A price calendar's tally of totals: counted in whole-unit slots or kept as they are, merged from parts,
/// its count, lowest and lower median always those of the totals sorted.
@Suite struct CalendarTotalsTests {
    @Test(arguments: 0..<40)
    func countLowestAndMedianAreThoseOfTheSortedTotals(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 977 + 1)
        let days = Int.random(in: 1...5, using: &random)
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in CalendarTotals(days: days) }
        var all = [[Int64]](repeating: [], count: days)
        for _ in 0..<Int.random(in: 0...400, using: &random) {
            let day = Int.random(in: 0..<days, using: &random)
            let total: Int64 = switch Int.random(in: 0..<4, using: &random) {
            case 0: Int64.random(in: 0...50, using: &random) * 100 + Int64.random(in: 0...99, using: &random)   // cents
            case 1: Int64(CalendarTotals.unitSlots) * 100 + Int64.random(in: -300...300, using: &random) * 100      // around the slots' end
            default: Int64.random(in: 0...60, using: &random) * 100                                                 // whole units
            }
            random.pick(parts).add(total, day: day)
            all[day].append(total)
        }
        let merged = parts[0]
        for part in parts.dropFirst() { merged.merge(part) }
        for day in 0..<days {
            let sorted = all[day].sorted()
            let summary = merged.summary(ofDay: day)
            #expect(summary.count == sorted.count, "seed \(seed) day \(day)")
            #expect(summary.lowest?.minorUnits == sorted.first, "seed \(seed) day \(day)")
            #expect(summary.median?.minorUnits == (sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]), "seed \(seed) day \(day)")
        }
    }
}
