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
    /// `days × unitSlots` counts.
    private let counts: UnsafeMutablePointer<UInt32>
    /// Per day, the lowest and highest slot counted (`unitSlots` and -1 while none). (Plain memory: a
    /// class's stored arrays would be checked for exclusive access at every add.)
    private let lowestSlot: UnsafeMutablePointer<Int>
    private let highestSlot: UnsafeMutablePointer<Int>
    /// Per day, the totals not counted in a slot.
    private var others: [[Int64]]

    init(days: Int) {
        self.days = days
        counts = calloc(max(1, days * CalendarTotals.unitSlots), MemoryLayout<UInt32>.stride)!.assumingMemoryBound(to: UInt32.self)
        lowestSlot = .allocate(capacity: max(1, days))
        lowestSlot.initialize(repeating: CalendarTotals.unitSlots, count: max(1, days))
        highestSlot = .allocate(capacity: max(1, days))
        highestSlot.initialize(repeating: -1, count: max(1, days))
        others = Array(repeating: [], count: days)
    }

    deinit {
        free(counts)
        lowestSlot.deallocate()
        highestSlot.deallocate()
    }

    /// Adds a stay of total `total` (minor units, ≥ 0) to check-in day `day`.
    @inline(__always)
    func add(_ total: Int64, day: Int) {
        let units = total / 100
        if units < Int64(CalendarTotals.unitSlots), units &* 100 == total {
            let slot = Int(units)
            counts[day &* CalendarTotals.unitSlots &+ slot] &+= 1
            if slot < lowestSlot[day] { lowestSlot[day] = slot }
            if slot > highestSlot[day] { highestSlot[day] = slot }
        } else {
            others[day].append(total)
        }
    }

    /// Adds the stays of `other` (another part of the same calendar).
    func merge(_ other: CalendarTotals) {
        for day in 0..<days {
            others[day].append(contentsOf: other.others[day])
            guard other.highestSlot[day] >= 0 else { continue }
            let base = day &* CalendarTotals.unitSlots
            for slot in other.lowestSlot[day]...other.highestSlot[day] { counts[base &+ slot] &+= other.counts[base &+ slot] }
            lowestSlot[day] = min(lowestSlot[day], other.lowestSlot[day])
            highestSlot[day] = max(highestSlot[day], other.highestSlot[day])
        }
    }

    /// The count, lowest and lower-median total of check-in day `day`.
    /// - Complexity: O(slots between its lowest and highest + *k* log *k*) for *k* totals kept as they are.
    func summary(ofDay day: Int) -> (count: Int, lowest: Money?, median: Money?) {
        let kept = others[day].sorted()
        var count = kept.count
        let base = day &* CalendarTotals.unitSlots
        let slots = highestSlot[day] >= 0 ? lowestSlot[day]..<(highestSlot[day] + 1) : 0..<0
        for slot in slots { count &+= Int(counts[base &+ slot]) }
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
        let lowestCounted = highestSlot[day] >= 0 ? Int64(lowestSlot[day]) * 100 : Int64.max
        let lowest = min(lowestCounted, kept.first ?? Int64.max)
        return (count, Money(minorUnits: lowest), Money(minorUnits: median!))
    }
}
