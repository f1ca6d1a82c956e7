/// Every listing's nightly price on every day of the calendar, stored the cheaper of two ways per row:
/// as runs (``DayRuns``, for calendars that keep a price for weeks, the common case in Inside Airbnb's
/// samples), or densely, for calendars whose price changes most days (professional hosts' pricing tools).
/// A dense row has a single run whose value refers to its rank among the dense rows.
///
/// A dense row counts its prices in a **unit of its own**, a power of ten of minor units (``denseScales``):
/// the largest that divides every one of its prices — whole dollars for dollars priced to the dollar, ₩100
/// for won priced to the ₩100 — so that a row of won (₩84,300 counts 843) costs what a row of dollars does,
/// and a week at ₩84,300 a night (5,901 units) is as exact a difference of sums as a week at $84. A row whose
/// dearest night passes 65,535 of its units counts **from a base of its own** (``denseBases``, its cheapest
/// night): a code is the price less the base, so a villa at ₫40,000,000–₫90,000,000 a night priced to the
/// ₫1,000 is as dense as a room at $40–$90, and a stay's total is its codes' plus the base times the nights.
/// Every other row's base is 0. It keeps its **running sums** of codes: one
/// `UInt16` a day and one more, the sum of its codes before that day, modulo 2^16. A night's price is the
/// difference of two neighbours, and a stay's total the difference of two sums whatever its length —
/// exact whenever the stay costs less than 65,536 of the row's units, which the row's dearest night
/// (``denseMaxima``) times the nights tells. A dearer stay is exact too while its nights' spread, the dearest
/// night less the cheapest (``denseMinima``) times the nights, stays below 65,536: its total is then the
/// cheapest night times the nights plus the difference less that, modulo 2^16. A row whose spread passes
/// ``widestUncarriedSpread`` (a fortnight's would not fit in 16 bits: in won a quarter of the rows) also keeps
/// its **carries**, bits 16–23 of each running sum (``denseCarries``), so that its stays are as exact from two
/// 24-bit sums while the spread times the nights stays below 2^24: any stay up to 256 nights. Any other adds
/// its nights' differences in stretches.
/// Its days with a calendar row are one stretch, its window (``denseWindows``), every night in it priced;
/// the days outside have no calendar row (and add nothing to the sums). A row with an unpriced night or a
/// gap inside its calendar is stored as runs.
///
/// The sums are day-major: the sum before day *d* of dense row *k* is `dense[d × denseRows + k]`, *d* in
/// `0 ... dayCount`. The scan visits candidates in row order, so a stay's two stripes are read as two
/// sequential streams, not one cache miss per candidate.
///
/// Stored values: price in minor units (from ``WidePrices/firstReference`` on, a reference to ``wide``),
/// ``ListingIndex/unpricedNight`` or ``ListingIndex/noCalendarRow``. A dense row counts its own unit, whatever
/// its prices' size: a row of wide prices (dong, rupiah) is as dense as one of dollars, and its nights' stored
/// values are the references to its amounts, each of which the table holds.
package struct NightPrices: Sendable {
    /// The prices of ``WidePrices/firstReference`` minor units and more that stored values refer to.
    package let wide: Column<Int64>
    /// The runs of every row; a dense row's one run refers to its dense values.
    package let runs: DayRuns<Int32>
    /// `(dayCount + 1) × denseRows` running sums, day-major, in each row's unit modulo 2^16.
    package let dense: Column<UInt16>
    /// Per dense row, the power of ten of minor units that its codes count (2: whole units); at most
    /// ``largestScale``.
    package let denseScales: Column<UInt8>
    /// Per dense row, the days with a calendar row: the first in the low 16 bits, the end (exclusive)
    /// in the high 16.
    package let denseWindows: Column<UInt32>
    /// Per dense row, its dearest night's price in its unit.
    package let denseMaxima: Column<UInt16>
    /// Per dense row, its cheapest night's price in its unit (0 for an index file from before minima).
    package let denseMinima: Column<UInt16>
    /// Per dense row, what its codes count from, in its unit: 0 but for a row whose dearest night passes
    /// ``largestDenseUnits`` (its cheapest night then); empty when every row's is 0 (always in an index file from
    /// before bases). ``denseMaxima`` and ``denseMinima`` are codes, above the base.
    package let denseBases: Column<UInt32>
    /// A bit per dense row whose base is not 0 (rank 64g + i: bit i of word g; one word more, 0), worked out when
    /// the index is made or loaded; empty when every base is 0.
    package let basedBits: Column<UInt64>
    /// How many rows are dense: the stride of ``dense``.
    package let denseRows: Int
    /// `(dayCount + 1) × carriedRows` carries, day-major: bits 16–23 of the running sums of the dense rows whose
    /// spread passes ``widestUncarriedSpread`` (empty in an index file from before carries).
    package let denseCarries: Column<UInt8>
    /// How many dense rows are carried: the stride of ``denseCarries``.
    package let carriedRows: Int
    /// Which dense rows are carried, a bit per rank (rank 64g + i: bit i of word g; one word more, 0), and the
    /// carried rows before each word of ranks, worked out when the index is made or loaded: a carried row's
    /// column in ``denseCarries`` is the carried rows before it (``carryRank(bits:before:rank:)``).
    package let carriedBits: Column<UInt64>
    package let carriedBefore: Column<UInt32>
    /// The widest spread (dearest night less cheapest, in the row's unit) of a row without carries: a
    /// fortnight on it is exact from 16-bit sums.
    package static let widestUncarriedSpread = 0xFFFF / 14
    /// The carry rank of a dense row without carries.
    package static let notCarried = UInt32.max
    /// The dearest night of all dense rows, in their units (0 without dense rows): a stay whose nights times
    /// it stay below 65,536 is exact on every row, without reading the row's own.
    package let dearestDenseNight: Int
    /// The dearest night of each group of 64 dense rows (ranks 64g ..< 64g + 64), worked out when the index
    /// is made or loaded: a stay exact on a whole group needs none of its rows' own.
    package let denseGroupMaxima: Column<UInt16>
    /// The dense rows of a group of ``denseGroupMaxima``: 2^6.
    package static let denseGroupShift = 6
    /// Per word of 64 rows (rows 64w ..< 64w + 64), a bit per dense row, and the rank of its first dense row
    /// (``denseWordRanks``), worked out when the index is made or loaded: the word's k-th dense row has that rank
    /// plus k, so the search prices them all at once whatever rows stand between them (in dong a dear listing's
    /// calendar, past what a dense row holds, stands in a fifth of the words). 0 for a word whose dense rows'
    /// ranks are not in that order.
    package let denseWordMasks: Column<UInt64>
    package let denseWordRanks: Column<UInt32>

    /// The highest code a dense row can hold: its dearest night in its unit, above its base.
    package static let largestDenseUnits = 0xFFFF
    /// The scale of whole units: 10^2 minor units.
    package static let wholeUnitScale: UInt8 = 2
    /// The largest scale: a unit of 10^9 minor units (every price a night fits in 32 bits).
    package static let largestScale: UInt8 = 9
    /// The unit of each scale in minor units: 10^scale.
    package static let unitOfScale: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
    /// ``unitOfScale`` where a hot loop reads it without the array's checks; never freed.
    nonisolated(unsafe) package static let unitsOfScales: UnsafePointer<Int64> = {
        let units = UnsafeMutablePointer<Int64>.allocate(capacity: unitOfScale.count)
        units.initialize(from: unitOfScale, count: unitOfScale.count)
        return UnsafePointer(units)
    }()
    /// The longest calendar whose rows can be dense (a window's ends are 16 bits).
    package static let longestDenseCalendar = 0xFFFF

    /// Wraps the columns; the caller has checked them (``IndexStorage/checkInvariants(shape:)``).
    /// `scales` may be empty (an index file from before scales): every row's unit is then a whole unit.
    /// `minima` may be empty (an index file from before minima): every row's cheapest night is then taken as 0.
    /// `bases` may be empty (an index file from before bases, or no row with one): every row's base is then 0.
    package init(runs: DayRuns<Int32>, dense: Column<UInt16>, windows: Column<UInt32>, maxima: Column<UInt16>,
                 minima: Column<UInt16>, scales: Column<UInt8>, carries: Column<UInt8> = .empty, carried: Column<UInt64> = .empty,
                 wide: Column<Int64> = .empty, bases: Column<UInt32> = .empty) {
        self.runs = runs
        self.wide = wide
        self.dense = dense
        denseScales = scales.count == windows.count ? scales
            : Column([UInt8](repeating: NightPrices.wholeUnitScale, count: windows.count))
        denseWindows = windows
        denseMaxima = maxima
        denseMinima = minima.count == windows.count ? minima : Column([UInt16](repeating: 0, count: windows.count))
        denseRows = windows.count
        if bases.count == windows.count, bases.withUnsafeBufferPointer({ $0.contains { $0 != 0 } }) {
            denseBases = bases
            var based = [UInt64](repeating: 0, count: (windows.count + 63) / 64 + 1)
            bases.withUnsafeBufferPointer { bases in
                for rank in bases.indices where bases[rank] != 0 { based[rank >> 6] |= 1 << UInt64(rank & 63) }
            }
            basedBits = Column(based)
        } else {
            denseBases = .empty
            basedBits = .empty
        }
        let hasCarries = carried.count == (windows.count + 63) / 64
        denseCarries = hasCarries ? carries : .empty
        let bits = (hasCarries ? carried.array : [UInt64](repeating: 0, count: (windows.count + 63) / 64)) + [0]
        var before = [UInt32](repeating: 0, count: bits.count)
        for word in bits.indices.dropFirst() { before[word] = before[word - 1] + UInt32(bits[word - 1].nonzeroBitCount) }
        carriedRows = Int(before[bits.count - 1])
        carriedBits = Column(bits)
        carriedBefore = Column(before)
        denseGroupMaxima = maxima.withUnsafeBufferPointer { maxima in
            Column(stride(from: 0, to: maxima.count, by: 1 << NightPrices.denseGroupShift).map { start in
                maxima[start..<min(maxima.count, start + (1 << NightPrices.denseGroupShift))].max()!
            })
        }
        dearestDenseNight = denseGroupMaxima.withUnsafeBufferPointer { Int($0.max() ?? 0) }
        (denseWordMasks, denseWordRanks) = NightPrices.denseWords(of: runs)
    }

    /// ``denseWordMasks`` and ``denseWordRanks`` of the rows of `runs`.
    static func denseWords(of runs: DayRuns<Int32>) -> (masks: Column<UInt64>, ranks: Column<UInt32>) {
        let rows = max(0, runs.offsets.count - 1), words = (rows + 63) / 64
        var masks = [UInt64](repeating: 0, count: words), ranks = [UInt32](repeating: 0, count: words)
        runs.offsets.withUnsafeBufferPointer { offsets in
            runs.values.withUnsafeBufferPointer { values in
                for word in 0..<words {
                    var mask: UInt64 = 0, first = -1, count = 0, inOrder = true
                    for row in (word * 64)..<min(rows, word * 64 + 64) where offsets[row] < offsets[row + 1] {
                        guard let rank = values[Int(offsets[row])].denseIndex else { continue }
                        if first < 0 { first = rank }
                        inOrder = inOrder && rank == first + count
                        count += 1
                        mask |= 1 << UInt64(row & 63)
                    }
                    if inOrder, first >= 0 {
                        masks[word] = mask
                        ranks[word] = UInt32(first)
                    }
                }
            }
        }
        return (Column(masks), Column(ranks))
    }

    /// Dense row `rank`'s unit in minor units.
    @inline(__always)
    package func unit(ofRank rank: Int) -> Int64 { NightPrices.unitsOfScales[Int(denseScales.base[rank])] }

    /// Dense row `rank`'s base in its units (``denseBases``).
    @inline(__always)
    package func base(ofRank rank: Int) -> Int64 { denseBases.count == 0 ? 0 : Int64(denseBases.base[rank]) }

    /// Dense row `rank`'s price in its units on day offset `day` inside its window.
    @inline(__always)
    func denseUnits(rank: Int, day: Int) -> Int64 {
        let sums = dense.base + (day &* denseRows &+ rank)
        return Int64(sums[denseRows] &- sums[0]) &+ base(ofRank: rank)
    }

    /// The stored value of dense row `rank` on day offset `day`.
    private func denseValue(rank: Int, day: Int) -> Int32 {
        let window = denseWindows[rank]
        guard day >= Int(window & 0xFFFF), day < Int(window >> 16) else { return ListingIndex.noCalendarRow }
        let amount = denseUnits(rank: rank, day: day) &* unit(ofRank: rank)
        return amount < Int64(WidePrices.firstReference) ? Int32(amount) : wideReference(of: amount)
    }

    /// The stored value of a wide price of `amount` minor units: its reference, found in the table (ascending).
    private func wideReference(of amount: Int64) -> Int32 {
        var low = 0, high = wide.count
        while low < high {
            let middle = (low + high) / 2
            if wide[middle] < amount { low = middle + 1 } else { high = middle }
        }
        return WidePrices.firstReference &+ Int32(truncatingIfNeeded: min(low, max(0, wide.count - 1)))
    }

    /// The value of row `row` on day offset `dayOffset`.
    /// - Complexity: O(log *r*) for *r* runs of the row.
    package func value(row: Int, dayOffset: Int) -> Int32 {
        let first = Int(runs.offsets[row])
        if let rank = runs.values[first].denseIndex { return denseValue(rank: rank, day: dayOffset) }
        return runs.value(row: row, dayOffset: dayOffset)
    }

    /// Row `row`'s values on the day offsets `start ..< end`, written to `buffer` (from its start): the
    /// nights of a range of stays, read once.
    /// - Complexity: O(*end* − *start* + log *r*).
    package func values(row: Int, from start: Int, to end: Int, into buffer: UnsafeMutablePointer<Int32>) {
        let first = Int(runs.offsets[row]), last = Int(runs.offsets[row + 1])
        if let rank = runs.values[first].denseIndex {
            for day in start..<end { buffer[day - start] = denseValue(rank: rank, day: day) }
            return
        }
        var run = runs.run(row: row, dayOffset: start)
        var day = start
        while day < end {
            let stop = run + 1 < last ? min(Int(runs.starts[run + 1]), end) : end
            let value = runs.values[run]
            if let pattern = value.patternIndex {
                // The week's prices from the first night's weekday on, without a division a night.
                let week = runs.patterns.base + pattern * 7
                var weekday = (runs.firstWeekday + day) % 7
                for night in day..<stop {
                    buffer[night - start] = week[weekday]
                    weekday = weekday == 6 ? 0 : weekday + 1
                }
            } else {
                for night in day..<stop { buffer[night - start] = value }
            }
            day = stop
            run += 1
        }
    }

    /// The amount in minor units a stored value stands for (a sentinel, below 0, is itself).
    @inline(__always)
    package func amount(ofStored value: Int32) -> Int64 { WidePrices.amount(ofStored: value, in: wide.base) }

    /// Row `row`'s nights on every day offset `0 ..< dayCount` in minor units (``ListingIndex/unpricedNight`` or
    /// ``ListingIndex/noCalendarRow`` for a night without a price): one allocation, the result's.
    package func amounts(row: Int, dayCount: Int) -> [Int64] {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, dayCount)) { stored in
            values(row: row, from: 0, to: dayCount, into: stored.baseAddress!)
            return [Int64](unsafeUninitializedCapacity: dayCount) { amounts, initialized in
                for day in 0..<dayCount { amounts[day] = amount(ofStored: stored[day]) }
                initialized = dayCount
            }
        }
    }

    /// Row `row`'s values on every day offset `0 ..< dayCount`.
    package func values(row: Int, dayCount: Int) -> [Int32] {
        if let rank = runs.values[Int(runs.offsets[row])].denseIndex {
            return (0..<dayCount).map { denseValue(rank: rank, day: $0) }
        }
        return runs.values(row: row, dayCount: dayCount)
    }

    /// The sum of row `row`'s prices over the day offsets `start ..< end`, valid when every night in it
    /// is priced.
    /// - Complexity: O(1) when the row is dense and the stay costs less than 65,536 of its units (else O(*k*)
    ///   for *k* nights), O(log *r* + *k*) for *r* runs.
    @inline(__always)
    package func sum(row: Int, from start: Int, to end: Int) -> Int64 {
        let first = Int(runs.offsets[row])
        guard let rank = runs.values[first].denseIndex else {
            return runs.sum(row: row, from: start, to: end, wide: wide.base)
        }
        return (NightPrices.denseSum(sums: dense.base, stride: denseRows, rank: rank, from: start, to: end,
                                     maximum: Int(denseMaxima.base[rank]), minimum: Int(denseMinima.base[rank]),
                                     carries: denseCarries.base, carriedRows: carriedRows,
                                     carryRank: NightPrices.carryRank(bits: carriedBits.base, before: carriedBefore.base, rank: rank))
            &+ base(ofRank: rank) &* Int64(end &- start)) &* unit(ofRank: rank)
    }

    /// Dense row `rank`'s codes (in its unit) over the day offsets `start ..< end` from the running sums `sums`
    /// (stride `stride`): when the nights' spread (`maximum` − `minimum`, its dearest and cheapest night,
    /// times the nights) stays below 65,536, the cheapest night times the nights plus the rest of the
    /// difference of two sums modulo 2^16 (the total lies in that stretch of 65,536 codes; when the dearest
    /// night times the nights does, that is the difference itself); else the same for stretches of as many nights as
    /// keep the spread below 65,536, added. A carried row (`carryRank` not ``notCarried``; its carries in
    /// `carries`, stride `carriedRows`) does the same with 24-bit sums, its carries above its running sums,
    /// while the spread times the nights stays below 2^24; its longer stays and every other row's go in
    /// stretches: a fortnight at ₩300,000–₩900,000 (a spread of 6,000 codes of ₩100) in two, three loads
    /// rather than fifteen.
    @inline(__always)
    static func denseSum(sums: UnsafePointer<UInt16>, stride: Int, rank: Int, from start: Int, to end: Int, maximum: Int,
                         minimum: Int, carries: UnsafePointer<UInt8>, carriedRows: Int, carryRank: UInt32) -> Int64 {
        let before = sums + (start &* stride &+ rank)
        let nights = end &- start
        // (Exact too when the dearest night times the nights is below 2^16: so is the spread times them.)
        if (maximum &- minimum) &* nights <= 0xFFFF {
            let least = minimum &* nights
            let rest = UInt16(truncatingIfNeeded: Int(before[nights &* stride] &- before[0]) &- least)
            return Int64(least) &+ Int64(rest)
        }
        if carryRank != notCarried, (maximum &- minimum) &* nights <= 0xFF_FFFF {
            return carriedSum(before: before[0], after: before[nights &* stride], carries: carries + (start &* carriedRows &+ Int(carryRank)),
                              carriedRows: carriedRows, nights: nights, minimum: minimum)
        }
        return stretchedSum(before: before, stride: stride, nights: nights, maximum: maximum, minimum: minimum)
    }

    /// Dense row `rank`'s column in the carries (the carried rows before it) from ``carriedBits`` and
    /// ``carriedBefore``, or ``notCarried``.
    @inline(__always)
    static func carryRank(bits: UnsafePointer<UInt64>, before: UnsafePointer<UInt32>, rank: Int) -> UInt32 {
        let word = bits[rank &>> 6], bit = UInt64(rank & 63)
        guard word &>> bit & 1 != 0 else { return notCarried }
        return before[rank &>> 6] &+ UInt32((word & ((1 &<< bit) &- 1)).nonzeroBitCount)
    }

    /// ``denseSum(sums:stride:rank:from:to:maximum:minimum:carries:carriedRows:carryRank:)`` of a carried row
    /// whose spread times the nights is below 2^24: the running sums `before` and `after` at the stay's ends
    /// and the carries `carries` at its check-in (stride `carriedRows`).
    @inline(__always)
    static func carriedSum(before: UInt16, after: UInt16, carries: UnsafePointer<UInt8>, carriedRows: Int, nights: Int,
                           minimum: Int) -> Int64 {
        let first = Int(carries[0]) &<< 16 | Int(before)
        let last = Int(carries[nights &* carriedRows]) &<< 16 | Int(after)
        let least = minimum &* nights
        return Int64(least &+ ((last &- first &- least) & 0xFF_FFFF))
    }

    /// A dense row's codes over `nights` nights from its running sums at check-in, `before` (stride `stride`), in
    /// stretches of nights whose spread stays below 65,536.
    static func stretchedSum(before: UnsafePointer<UInt16>, stride: Int, nights: Int, maximum: Int, minimum: Int) -> Int64 {
        // Stretches of ⌈nights ÷ 2^k⌉ nights, k the least that keeps a stretch's spread below 65,536 (the
        // spread is at most 65,535: a night alone always does), with no division.
        let spread = maximum &- minimum
        var shift = 1
        while spread &* ((nights &+ (1 &<< shift) &- 1) &>> shift) > 0xFFFF { shift &+= 1 }
        let stretch = (nights &+ (1 &<< shift) &- 1) &>> shift
        var units: Int64 = 0, night = before, left = nights
        while left > 0 {
            let count = min(left, stretch), least = minimum &* count
            let after = night + count &* stride
            units &+= Int64(least) &+ Int64(UInt16(truncatingIfNeeded: Int(after[0] &- night[0]) &- least))
            night = after
            left &-= count
        }
        return units
    }

    /// A dense row for a row's values by day: its running sums (one more than the days), its window, its
    /// highest and lowest code, its scale (see ``denseScales``: the largest power of ten that divides every
    /// price), its base (its cheapest night in its unit when its dearest passes ``largestDenseUnits``, else 0:
    /// a code is a price in the unit less the base) and, when its spread passes ``widestUncarriedSpread``, its
    /// carries (bits 16–23 of each running sum); nil when its spread in that unit passes ``largestDenseUnits``,
    /// when its base would pass `UInt32.max`, or when a day inside its window has no price or no calendar row.
    /// - Parameter wide: the wide prices (``WidePrices``) the stored prices from ``WidePrices/firstReference`` up refer to.
    static func denseRow(of days: [Int32], wide: UnsafePointer<Int64>? = nil)
        -> (sums: [UInt16], window: UInt32, maximum: UInt16, minimum: UInt16, scale: UInt8, base: UInt32, carries: [UInt8]?)? {
        guard days.count <= longestDenseCalendar else { return nil }
        let firstDay = days.firstIndex { $0 != ListingIndex.noCalendarRow } ?? days.count
        let endDay = (days.lastIndex { $0 != ListingIndex.noCalendarRow } ?? -1) + 1
        // The prices' common divisor among the powers of ten, and the dearest. The row counts in that unit,
        // whatever the prices' size: the smallest codes, so the most stays exact in 16 bits.
        var divisor = Int64(unitOfScale[Int(largestScale)]), dearest: Int64 = 0, cheapest = Int64.max
        for value in days[firstDay..<max(firstDay, endDay)] {
            guard value >= 0 else { return nil }
            let price = WidePrices.amount(ofStored: value, in: wide)
            while price % divisor != 0 { divisor /= 10 }
            dearest = max(dearest, price)
            cheapest = min(cheapest, price)
        }
        let scale = UInt8(unitOfScale.firstIndex(of: divisor)!)
        // Codes from the cheapest night when the dearest would not fit: what bounds a dense row is its spread.
        let base = dearest / divisor > Int64(largestDenseUnits) ? cheapest / divisor : 0
        guard dearest / divisor - base <= Int64(largestDenseUnits), base <= Int64(UInt32.max) else { return nil }
        let unit = unitOfScale[Int(scale)]
        var sums: [UInt16] = [], carries: [UInt8] = []
        sums.reserveCapacity(days.count + 1)
        carries.reserveCapacity(days.count + 1)
        var sum: UInt32 = 0, maximum: UInt16 = 0, minimum = UInt16.max
        sums.append(0)
        carries.append(0)
        for (day, value) in days.enumerated() {
            if day >= firstDay && day < endDay {
                let code = UInt16(WidePrices.amount(ofStored: value, in: wide) / unit - base)
                sum &+= UInt32(code)
                maximum = max(maximum, code)
                minimum = min(minimum, code)
            }
            sums.append(UInt16(truncatingIfNeeded: sum))
            carries.append(UInt8(truncatingIfNeeded: sum >> 16))
        }
        minimum = min(minimum, maximum)
        let isCarried = Int(maximum) - Int(minimum) > widestUncarriedSpread
        return (sums, UInt32(firstDay) | UInt32(max(firstDay, endDay)) << 16, maximum, minimum, scale, UInt32(base),
                isCarried ? carries : nil)
    }
}

extension Int32 {
    /// Price run values below this refer to dense rows: `Int32.min + k` is dense row *k*.
    static let denseReferenceLimit = -(Int32(1) << 30)

    /// The value that refers to dense row `index`.
    static func denseReference(_ index: Int) -> Int32 { Int32.min + Int32(index) }

    /// The dense row this value refers to, if it is such a reference.
    var denseIndex: Int? { self < Int32.denseReferenceLimit ? Int(self) - Int(Int32.min) : nil }
}

extension IndexStorage {
    /// Re-expresses every dense row in whole units (scale 2), as files before format 8 stored them: its codes
    /// (and so its running sums, modulo 2^16) times its unit in whole units. Returns false, changing nothing,
    /// when a row counts less than whole units, counts from a base, or its dearest night would pass 65,535 whole units.
    package mutating func expressDenseRowsInWholeUnits() -> Bool {
        let scales = denseScales.array, rows = scales.count
        guard rows > 0, scales.contains(where: { $0 != NightPrices.wholeUnitScale }) else { return true }
        guard !denseBases.array.contains(where: { $0 != 0 }) else { return false }
        let factors = scales.map { NightPrices.unitOfScale[Int($0)] / 100 }
        let maxima = denseMaxima.array
        guard scales.allSatisfy({ $0 >= NightPrices.wholeUnitScale }),
              (0..<rows).allSatisfy({ Int64(maxima[$0]) * factors[$0] <= Int64(NightPrices.largestDenseUnits) }) else { return false }
        var sums = densePrices.array
        for at in sums.indices { sums[at] = sums[at] &* UInt16(truncatingIfNeeded: factors[at % rows]) }
        densePrices = Column(sums)
        denseMaxima = Column((0..<rows).map { UInt16(Int64(maxima[$0]) * factors[$0]) })
        let minima = denseMinima.array
        if minima.count == rows { denseMinima = Column((0..<rows).map { UInt16(Int64(minima[$0]) * factors[$0]) }) }
        denseScales = Column([UInt8](repeating: NightPrices.wholeUnitScale, count: rows))
        return true
    }
}
