/// What a price calendar keeps of the stays it finds, by check-in day (its position in the range): their
/// number, the least total of those at most ``cheapest`` units, and — for the median — how many fall below
/// the day's bracket and the totals inside it.
///
/// Totals are counted in the calendar's **unit** (``unit``, a power of ten of minor units: 100 for whole
/// dollars, ₩100 for won priced to the ₩100; ``ListingIndex/calendarScale``), so that a calendar in won
/// brackets and counts as few units as one in dollars.
/// A bracket is a range of units expected to hold the day's median, and ``cheapest`` a total expected
/// to be above each day's least (both from a sample of the rows): the other totals are only counted, so a
/// day costs O(stays) without sorting them. The totals in a bracket of at most ``slotLimit`` units are
/// counted by unit (``slots``), those that are not a whole number of units and those of wider brackets kept
/// one by one (``inside``; a sample's tally counts those of cents on their slot too). A day whose median falls
/// outside its bracket, or with no stay as cheap as ``cheapest``, is tallied again with a bracket or a cut
/// holding everything.
package final class CalendarTally: @unchecked Sendable {
    /// The unit totals are counted in, minor units (a power of ten, at least 100).
    package let unit: Int64
    /// Per day: the bracket's first and last unit (a total of a fraction of a unit counts in the bracket
    /// from its whole units on).
    package let bracketLow: [Int32]
    package let bracketHigh: [Int32]
    /// The highest total (units) whose stays are looked at one by one for the least.
    package let cheapest: Int32
    /// Per day: stays found, those below the bracket, the least total in units (``Int32/max`` for none).
    package var counts: [UInt32]
    var below: [UInt32]
    var least: [Int32]
    /// Per day: the least total of a fraction of a unit (minor units), or `Int64.max`.
    var leastOfCents: [Int64]
    /// Per day: the totals inside the bracket (minor units) not counted in ``slots``.
    var inside: [[Int64]]
    /// Per day: the slots of its bracket when at most ``slotLimit`` (its whole-unit totals are counted by slot in
    /// ``slots``), else 0.
    let slotWidths: [Int]
    /// The units a slot counts: 2^`slotShift` — 1 but in a sample's tally (``init(samplingFor:unit:slotShift:)``),
    /// whose totals at a rank are then known to their slot only: enough to place a bracket.
    package let slotShift: Int
    /// Per day counted by slot: how many whole-unit totals fall on each slot of the bracket (index 0 =
    /// ``bracketLow``), ``slotWidths`` of them; empty while none has been counted (and for a wider bracket).
    /// Made when counts first arrive, so that a tally's parts and a sample's wide tables are not zeroed
    /// only to be added to.
    var slots: [[UInt32]]

    /// The most slots a bracket is counted by (the kernels' entries hold a slot in 16 bits): a day's bracket in
    /// won, 4,000–10,000 units of ₩100 where dollars' is 300–700, is counted by unit as theirs is.
    package static let slotLimit = 65_536

    /// The slots of a sample's bracket (``init(samplingFor:unit:slotShift:)``): zeroed and walked per day and
    /// per part, so few; as wide as the stays are dear.
    package static let sampleSlots = 4_096

    /// The totals kept one by one (over every day) from which the days' ranks are worked out on more than one
    /// thread.
    static let keptForThreads = 1 << 16

    /// A tally with brackets `bracketLow[d] ... bracketHigh[d]` (units of `unit` minor units) for each day *d*,
    /// counted by slots of 2^`slotShift` units.
    package init(bracketLow: [Int32], bracketHigh: [Int32], cheapest: Int32 = .max, unit: Int64 = 100, slotShift: Int = 0) {
        self.unit = max(1, unit)
        let shift = max(0, min(19, slotShift))
        self.slotShift = shift
        self.bracketLow = bracketLow
        self.bracketHigh = bracketHigh
        self.cheapest = cheapest
        let days = bracketLow.count
        counts = Array(repeating: 0, count: days)
        below = Array(repeating: 0, count: days)
        least = Array(repeating: .max, count: days)
        leastOfCents = Array(repeating: .max, count: days)
        inside = Array(repeating: [], count: days)
        slotWidths = (0..<days).map { day in
            let width = Int64(bracketHigh[day]) - Int64(bracketLow[day]) + 1
            let slots = (width + (1 << Int64(shift)) - 1) >> Int64(shift)
            return width > 0 && slots <= Int64(CalendarTally.slotLimit) ? Int(slots) : 0
        }
        slots = Array(repeating: [], count: days)
    }

    /// A tally of `days` days whose brackets hold every total.
    package convenience init(everythingFor days: Int, unit: Int64 = 100) {
        self.init(bracketLow: Array(repeating: 0, count: days), bracketHigh: Array(repeating: .max, count: days), unit: unit)
    }

    /// A tally of `days` days for a sample (``brackets(from:sampling:threads:)``): each day's totals below
    /// ``sampleSlots`` slots of 2^`slotShift` units counted by slot (when the slots are wider than a unit, those of
    /// cents too: a rank's total is known to its slot only), the others only counted: counting by slot in the
    /// word-at-a-time kernel costs a sample less than keeping every total one by one and selecting from them
    /// after (docs/performance.md, "The price calendar").
    /// ``ListingIndex/calendarSlotShift(nights:unit:)`` makes the slots as wide as the stays are dear, so that
    /// the sample holds a month's medians in won as in dollars.
    package convenience init(samplingFor days: Int, unit: Int64 = 100, slotShift: Int = 0) {
        let shift = max(0, min(19, slotShift))
        self.init(bracketLow: Array(repeating: 0, count: days),
                  bracketHigh: Array(repeating: Int32((CalendarTally.sampleSlots << shift) - 1), count: days), unit: unit, slotShift: shift)
    }

    /// A tally with the brackets of `brackets` (another tally's).
    convenience init(bracketsOf brackets: CalendarTally) {
        self.init(bracketLow: brackets.bracketLow, bracketHigh: brackets.bracketHigh, cheapest: brackets.cheapest, unit: brackets.unit,
                  slotShift: brackets.slotShift)
    }

    var days: Int { counts.count }

    /// Brackets for each day from `sample` (a tally of `sampling`'s sample of the rows, made with brackets
    /// that hold every total or with ``init(samplingFor:)``'s): the sample's median give or take `sampling`'s
    /// standard errors, and a cut above the sample's cheapest 1/256 on every day. Nil when a rank needed lies
    /// outside the sample's own bracket (totals past its ``sampleSlots`` slots: sample again holding
    /// everything). A sample counted by slots of more than a unit gives brackets that reach its slots' ends.
    /// The days are worked out on up to `threads` threads.
    package static func brackets(from sample: CalendarTally, sampling: CalendarSampling, threads: Int = 1) -> CalendarTally? {
        // Per day: its bracket and its cut (nil: the day wants every total as cheap); nil when not known.
        let unit = sample.unit
        let perDay = sample.eachDay(threads: threads) { day -> (low: Int32, high: Int32, cut: Int32?)? in
            let count = Int(sample.counts[day])
            guard count > 0 else { return (0, .max, 0) }
            guard count >= max(1, sampling.minimumStays) else { return (0, .max, nil) }
            let margin = sampling.standardErrors > 0 ? Int((sampling.standardErrors * Double(count).squareRoot() / 2).rounded(.up)) + 2 : 0
            let first = count / 2 - margin, last = count / 2 + margin
            guard let values = sample.totals(atRanks: [count / 256, max(0, first), min(count - 1, last)], ofDay: day) else { return nil }
            // A total known to its slot only is its slot's first unit: the bracket and the cut reach its last.
            let slotRest = (Int64(1) << Int64(sample.slotShift)) - 1
            return (first > 0 ? Int32(clamping: values[1] / unit) : 0,
                    last < count - 1 ? Int32(clamping: (values[2] + unit - 1) / unit + slotRest) : .max,
                    Int32(clamping: (values[0] + unit - 1) / unit + slotRest))
        }
        var known: [(low: Int32, high: Int32, cut: Int32?)] = []
        for day in perDay {
            guard let day else { return nil }
            known.append(day)
        }
        let cheapest = known.reduce(Int32(0)) { cut, day in day.cut.map { max(cut, $0) } ?? .max }
        return CalendarTally(bracketLow: known.map(\.low), bracketHigh: known.map(\.high), cheapest: cheapest, unit: unit)
    }

    /// The totals of ranks `ranks` (each 0 = least ..< the day's count) among day `day`'s stays, or nil when
    /// one lies outside the day's bracket (its totals there are only counted). Counted by slots of more than a
    /// unit, a rank's total is given as its slot's first unit.
    /// - Complexity: O(*k*) for *k* totals kept in the bracket without unit counts; with them, up to the
    ///   unit of the highest rank, plus O(*k*) for the totals of cents beside them and O(*m* log *m*) for the *m*
    ///   of them in the units of the ranks.
    package func totals(atRanks ranks: [Int], ofDay day: Int) -> [Int64]? {
        let below = Int(self.below[day]), totals = inside[day]
        guard ranks.allSatisfy({ $0 >= below }) else { return nil }
        guard slotWidths[day] > 0 else {
            guard ranks.allSatisfy({ $0 - below < totals.count }) else { return nil }
            return CalendarTally.elements(ofRanks: ranks.map { $0 - below }, in: totals, unit: unit)
        }
        let counted = slots[day].isEmpty ? [UInt32](repeating: 0, count: slotWidths[day]) : slots[day]
        let first = Int64(bracketLow[day]), size = unit
        // A tally counted by slots wider than a unit keeps no total one by one (``add(_:day:)``).
        if slotShift > 0 { return totals.isEmpty ? slotTotals(atRanks: ranks, ofDay: day, counted: counted) : nil }
        // The totals of cents counted per unit of the bracket (each lies inside it), so that only the cents of a
        // unit holding a rank are sorted (with trip prices nearly every total is of cents: sorting them all cost a
        // calendar more than counting them).
        var centsPerUnit = [UInt32](repeating: 0, count: counted.count)
        let fits = centsPerUnit.withUnsafeMutableBufferPointer { perUnit in
            @inline(__always) func count(_ size: Int64) -> Bool {
                for total in totals {
                    let offset = total / size &- first
                    guard offset >= 0, offset < Int64(perUnit.count) else { return false }
                    perUnit[Int(offset)] &+= 1
                }
                return true
            }
            return size == 100 ? count(100) : count(size)
        }
        guard fits else { return nil }
        // Unit by unit: the whole-unit totals counted on it, then the others above it (each at least the unit
        // and below the next).
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        var found = [Int64](repeating: 0, count: ranks.count)
        var next = 0, seen = below
        for offset in 0..<counted.count {
            let unit = (first + Int64(offset)) * size
            seen += Int(counted[offset])
            while next < order.count, ranks[order[next]] < seen {
                found[order[next]] = unit
                next += 1
            }
            let cents = Int(centsPerUnit[offset])
            if cents > 0, next < order.count, ranks[order[next]] < seen + cents {
                let within = totals.filter { $0 >= unit && $0 < unit + size }.sorted()
                while next < order.count, ranks[order[next]] < seen + cents {
                    found[order[next]] = within[ranks[order[next]] - seen]
                    next += 1
                }
            }
            seen += cents
            if next == order.count { break }
        }
        return next == order.count ? found : nil
    }

    /// ``totals(atRanks:ofDay:)`` of a tally counted by slots of 2^``slotShift`` units (`counted`): each rank's
    /// slot's first unit, in minor units. The ranks in order, each found on the first slot whose running count
    /// passes it: a sample's 4,096 slots walked once, as far as the highest rank.
    private func slotTotals(atRanks ranks: [Int], ofDay day: Int, counted: [UInt32]) -> [Int64]? {
        let first = Int64(bracketLow[day]), shift = Int64(slotShift)
        var found = [Int64](repeating: 0, count: ranks.count)
        var slot = 0, seen = Int(below[day])
        let complete = counted.withUnsafeBufferPointer { counts in
            for position in ranks.indices.sorted(by: { ranks[$0] < ranks[$1] }) {
                let rank = ranks[position]
                while slot < counts.count, seen <= rank {
                    seen &+= Int(counts[slot])
                    slot &+= 1
                }
                guard seen > rank else { return false }
                found[position] = (first + (Int64(max(0, slot - 1)) << shift)) * unit
            }
            return true
        }
        return complete ? found : nil
    }

    /// Each day's median (``median(ofDay:)``), worked out on up to `threads` threads.
    func medians(threads: Int) -> [Int64?] {
        eachDay(threads: threads) { self.median(ofDay: $0) }
    }

    /// `work` of each day, the days cut into stretches on up to `threads` threads (it only reads this tally)
    /// when the days keep at least ``keptForThreads`` totals one by one; a day's counts by unit are walked in
    /// microseconds, less than waking a thread costs (1M listings, a month: the medians 8 µs on one thread,
    /// 20 µs on two).
    private func eachDay<Value: Sendable>(threads: Int, _ work: @escaping @Sendable (Int) -> Value) -> [Value] {
        let kept = inside.reduce(0) { $0 + $1.count }
        let parts = kept < CalendarTally.keptForThreads ? 1 : max(1, min(threads, days / 8))
        guard parts > 1 else { return (0..<days).map(work) }
        let results = PartResults<[Value]>(count: parts)
        let days = self.days
        ParallelPasses.run(parts: parts) { part in
            results.store(ParallelPasses.stretch(part, of: parts, count: days).map(work), at: part)
        }
        return results.values.flatMap { $0 }
    }

    /// The last minor unit of a bracket's or cut's last unit `high`: `.max` (its value when the totals it would bound
    /// pass 2^31 units, as a stay at wide prices may) bounds nothing.
    @inline(__always)
    package static func upperEnd(ofUnits high: Int32, unit: Int64) -> Int64 {
        high == .max ? .max : Int64(high) &* unit &+ (unit - 1)
    }

    /// Adds a stay of total `total` (minor units, ≥ 0) to day `day`.
    package func add(_ total: Int64, day: Int) {
        counts[day] &+= 1
        let units = total / unit
        if units * unit == total, units <= Int64(Int32.max) {
            least[day] = min(least[day], Int32(units))
        } else {
            leastOfCents[day] = min(leastOfCents[day], total)
        }
        if units < Int64(bracketLow[day]) {
            below[day] &+= 1
        } else if units <= Int64(bracketHigh[day]) || bracketHigh[day] == .max {
            if slotWidths[day] > 0, slotShift > 0 || units * unit == total {
                if slots[day].isEmpty { slots[day] = [UInt32](repeating: 0, count: slotWidths[day]) }
                slots[day][Int((units - Int64(bracketLow[day])) >> Int64(slotShift))] &+= 1
            } else {
                inside[day].append(total)
            }
        }
    }

    /// Adds the stays of `other` (another part of the same calendar, with the same brackets).
    package func merge(_ other: CalendarTally) {
        for day in 0..<days {
            counts[day] &+= other.counts[day]
            below[day] &+= other.below[day]
            least[day] = min(least[day], other.least[day])
            leastOfCents[day] = min(leastOfCents[day], other.leastOfCents[day])
            inside[day].append(contentsOf: other.inside[day])
            addSlots(other.slots[day], day: day)
        }
    }

    /// Adds `counts` (a pass's, with the same bracket) to day `day`'s slots: copied while the day has none.
    func addSlots(_ counts: UnsafeBufferPointer<UInt32>, day: Int) {
        let width = slotWidths[day]
        guard width > 0, !counts.isEmpty else { return }
        guard !slots[day].isEmpty else {
            slots[day] = [UInt32](UnsafeBufferPointer(rebasing: counts.prefix(width)))
            if slots[day].count < width { slots[day] += [UInt32](repeating: 0, count: width - slots[day].count) }
            return
        }
        slots[day].withUnsafeMutableBufferPointer { slots in
            for index in 0..<min(slots.count, counts.count) { slots[index] &+= counts[index] }
        }
    }

    /// Adds `counts` (another tally's, with the same bracket) to day `day`'s slots: shared while the day has
    /// none.
    func addSlots(_ counts: [UInt32], day: Int) {
        if slots[day].isEmpty, counts.count == slotWidths[day] {
            slots[day] = counts
        } else {
            counts.withUnsafeBufferPointer { addSlots($0, day: day) }
        }
    }

    /// The lowest total of day `day` (minor units), or nil without stays or when none was as cheap as
    /// ``cheapest``.
    package func lowest(ofDay day: Int) -> Int64? {
        guard counts[day] > 0 else { return nil }
        let whole = least[day] == .max ? Int64.max : Int64(least[day]) * unit
        let lowest = min(whole, leastOfCents[day])
        return lowest <= CalendarTally.upperEnd(ofUnits: cheapest, unit: unit) ? lowest : nil
    }

    /// The lower-median total of day `day`, or nil when it lies outside the day's bracket (or the day has
    /// no stays).
    /// - Complexity: O(*k*) for *k* totals kept in the bracket, plus the bracket's width when they are whole
    ///   units or counted by unit (O(*k* log *k*) for totals of cents beside the counts).
    package func median(ofDay day: Int) -> Int64? {
        let count = Int(counts[day])
        guard count > 0 else { return nil }
        return totals(atRanks: [(count - 1) / 2], ofDay: day)?[0]
    }

    /// The elements of ranks `ranks` (each 0 = least ..< count) of `totals`: counted by `unit` (minor units)
    /// in one pass when the totals are whole units over a narrow range, else found by
    /// ``bucketedElements(ofRanks:in:low:high:)``.
    /// - Complexity: O(*n* + the range's width in units), or O(*n* + *b* log *b*) for *b* totals in the ranks'
    ///   buckets.
    package static func elements(ofRanks ranks: [Int], in totals: [Int64], unit: Int64 = 100) -> [Int64] {
        var low = Int64.max, high = Int64.min, whole = true
        for total in totals {
            low = min(low, total)
            high = max(high, total)
            whole = whole && total % unit == 0
        }
        let width = (high - low) / unit + 1
        guard whole, width <= 1 << 16 else { return bucketedElements(ofRanks: ranks, in: totals, low: low, high: high) }
        var counts = [Int32](repeating: 0, count: Int(width))
        counts.withUnsafeMutableBufferPointer { counts in
            for total in totals { counts[Int((total &- low) / unit)] &+= 1 }
        }
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        var found = [Int64](repeating: 0, count: ranks.count)
        var seen = 0, next = 0
        for (slot, count) in counts.enumerated() where count > 0 {
            seen += Int(count)
            while next < order.count, ranks[order[next]] < seen {
                found[order[next]] = low + Int64(slot) * unit
                next += 1
            }
            if next == order.count { break }
        }
        return found
    }

    /// The elements of ranks `ranks` of `totals` (`low` the least, `high` the greatest): counted into 4,096
    /// buckets by the leading bits of their offset from `low`, then only the buckets holding a rank sorted
    /// (a sample's totals in won spread over millions of units: sorting them all cost a month 8 ms).
    /// - Complexity: O(*n* + *b* log *b*) for *b* totals in the ranks' buckets.
    static func bucketedElements(ofRanks ranks: [Int], in totals: [Int64], low: Int64, high: Int64) -> [Int64] {
        let spread = UInt64(bitPattern: high &- low)
        let shift = UInt64(max(0, 64 - spread.leadingZeroBitCount - 12))
        let bucketCount = Int(spread >> shift) + 1
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        for total in totals { starts[Int(UInt64(bitPattern: total &- low) >> shift) + 1] += 1 }
        for bucket in 0..<bucketCount { starts[bucket + 1] += starts[bucket] }
        // Each rank's bucket: the last whose start is at most the rank.
        func bucket(holding rank: Int) -> Int {
            var first = 0, last = bucketCount - 1
            while first < last {
                let middle = (first + last + 1) / 2
                if starts[middle] <= rank { first = middle } else { last = middle - 1 }
            }
            return first
        }
        // Per bucket, its place among the ranks' buckets (−1: none), and their totals.
        var place = [Int](repeating: -1, count: bucketCount)
        var held: [[Int64]] = []
        for rank in ranks where place[bucket(holding: rank)] < 0 {
            place[bucket(holding: rank)] = held.count
            held.append([])
        }
        for total in totals {
            let found = place[Int(UInt64(bitPattern: total &- low) >> shift)]
            if found >= 0 { held[found].append(total) }
        }
        for position in held.indices { held[position].sort() }
        return ranks.map { rank in
            let bucket = bucket(holding: rank)
            return held[place[bucket]][rank - starts[bucket]]
        }
    }
}
