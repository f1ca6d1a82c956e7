#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The totals of the stays a price calendar found, by check-in day (its position in the range), kept so that
/// each day's count, lowest and exact median come out without sorting: a total of whole units below
/// ``unitSlots`` units is counted in that day's slot for it; any other (cents, or higher) is kept as it is.
///
/// The slots take 256 KiB a day of zeroed memory, touched only where totals fall (pages the kernel maps on
/// first write); the kept totals 8 bytes each.
final class CalendarTotals {
    /// Whole-unit totals counted per day: 0 ..< 65,536 units.
    static let unitSlots = 65_536
    let days: Int
    /// `days × unitSlots` counts: day *d*'s slot *s* at `d × unitSlots + s`.
    let counts: UnsafeMutablePointer<UInt32>
    /// The slots any day counted in (every count outside them is 0).
    private(set) var slots: Range<Int> = 0..<0
    /// Per day, the totals not counted in a slot.
    private var others: [[Int64]]

    init(days: Int) {
        self.days = days
        counts = calloc(max(1, days * CalendarTotals.unitSlots), MemoryLayout<UInt32>.stride)!.assumingMemoryBound(to: UInt32.self)
        others = Array(repeating: [], count: days)
    }

    deinit { free(counts) }

    /// The slot that counts total `total` (minor units, ≥ 0), or -1 when it is kept as it is.
    @inline(__always)
    static func slot(of total: Int64) -> Int {
        let units = total / 100
        return units < Int64(unitSlots) && units &* 100 == total ? Int(units) : -1
    }

    /// Keeps total `total` of check-in day `day` as it is (its ``slot(of:)`` is -1).
    func keep(_ total: Int64, day: Int) {
        others[day].append(total)
    }

    /// Notes that the counts of `range` were written to (the caller counts into ``counts`` directly).
    func noteSlots(_ range: ClosedRange<Int>) {
        slots = slots.isEmpty ? range.lowerBound..<(range.upperBound + 1)
            : min(slots.lowerBound, range.lowerBound)..<max(slots.upperBound, range.upperBound + 1)
    }

    /// Adds a stay of total `total` (minor units, ≥ 0) to check-in day `day`.
    func add(_ total: Int64, day: Int) {
        let slot = CalendarTotals.slot(of: total)
        guard slot >= 0 else { return keep(total, day: day) }
        counts[day &* CalendarTotals.unitSlots &+ slot] &+= 1
        noteSlots(slot...slot)
    }

    /// Adds the stays of `other` (another part of the same calendar).
    func merge(_ other: CalendarTotals) {
        for day in 0..<days {
            others[day].append(contentsOf: other.others[day])
            let base = day &* CalendarTotals.unitSlots
            for slot in other.slots { counts[base &+ slot] &+= other.counts[base &+ slot] }
        }
        if !other.slots.isEmpty { noteSlots(other.slots.lowerBound...(other.slots.upperBound - 1)) }
    }

    /// The count, lowest and lower-median total of check-in day `day`.
    /// - Complexity: O(``slots`` + *k* log *k*) for *k* totals kept as they are.
    func summary(ofDay day: Int) -> (count: Int, lowest: Money?, median: Money?) {
        let kept = others[day].sorted()
        var count = kept.count
        let base = day &* CalendarTotals.unitSlots
        var lowestCounted = Int64.max
        for slot in slots where counts[base &+ slot] > 0 {
            if lowestCounted == Int64.max { lowestCounted = Int64(slot) * 100 }
            count &+= Int(counts[base &+ slot])
        }
        guard count > 0 else { return (0, nil, nil) }
        let rank = (count - 1) / 2
        // Walk the totals in order: the slots' whole-unit totals merged with the kept ones.
        var seen = 0, next = 0
        var median: Int64?
        for slot in slots {
            let value = Int64(slot) * 100
            while next < kept.count, kept[next] < value {
                if seen == rank { median = kept[next] }
                seen += 1
                next += 1
            }
            if median != nil { break }
            let here = Int(counts[base &+ slot])
            if here > 0, rank < seen + here {
                median = value
                break
            }
            seen += here
        }
        if median == nil { median = kept[next + rank - seen] }
        let lowest = min(lowestCounted, kept.first ?? Int64.max)
        return (count, Money(minorUnits: lowest), Money(minorUnits: median!))
    }
}
