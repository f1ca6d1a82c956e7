import StaySearchKernels

/// How each row is priced over one span of nights (day offsets `start ..< end`), for the price calendar's
/// word-at-a-time totals: a price that does not change over the span (in units, ≤ ``largestUnits``),
/// dense prices read in place, nights of several runs copied here in units, or none of these.
///
/// Prices are counted in the calendar's unit, 10^``scale`` minor units (``ListingIndex/calendarScale``:
/// whole dollars, or ₩100 for won priced to the ₩100), so that a row of won costs what a row of dollars does;
/// a row with a price that is not a whole number of units is irregular.
///
/// A calendar UI asks for the same month again and again; ``ListingIndex/spanPrices(from:to:nights:rows:scale:)`` works the
/// column out once per span and keeps it.
package struct SpanPrices: Sendable {
    /// A dense row counting the span's units (≤ 65,535 day by day, read from ``NightPrices/dense``'s running
    /// sums); a dense row of another unit is copied or irregular, as a row of runs would be.
    static let dense: Int32 = -2
    /// A row with a price of a fraction of a unit or above ``largestUnits`` in the span, or a wide price
    /// (``WidePrices``): its stays are totalled one by one.
    package static let irregular: Int32 = -3
    /// The highest price a night (units) totalled word by word: any stay of up to 365 nights stays below 2^31
    /// units. A night of ₩6.6M (65,536 units of ₩100, $4,900) is as regular as one of $4,900: it is only its
    /// stays that pass 16 bits, and those rows are settled by their bounds.
    static let largestUnits: Int32 = 4_194_303

    /// The first and past-the-last day offset of the span.
    let start: Int
    let end: Int
    /// The unit prices are counted in: 10^scale minor units (2: whole units).
    package let scale: UInt8
    /// 10^``scale``.
    package var unit: Int64 { NightPrices.unitOfScale[Int(scale)] }
    /// Per row: its one price over the span in units, ``dense``, ``irregular``, or for a row of several
    /// runs whose nights are copied, −4 − *k*: its nights are ``nights``[*k* × span ..< (*k* + 1) × span].
    package let prices: Column<Int32>
    /// The copied nights, in units (0 for a night without a price: it is never bookable).
    package let nights: Column<Int32>
    /// Per row: its lowest and highest price a night over the span's priced nights (units; both 0
    /// without any); for an ``irregular`` row rounded out to whole units (down, and up), −1 when unknown.
    package let lows: Column<Int32>
    package let highs: Column<Int32>

    /// The rows worked out: word-aligned ranges (every row when nil). Rows outside them hold nothing
    /// meaningful and are never read: a calendar reads whole words of its own ranges' rows.
    package let rows: [Range<Int>]?

    /// Per row: its slot in ``stays`` (its stays from *s* × ``stayStride``), or −1 — a row of one price, an
    /// ``irregular`` one, or a span longer than ``longestSummedSpan``.
    package let sumSlots: Column<Int32>
    /// Each dense or copied row's stays of ``stayNights`` nights from each of the span's check-ins (at most
    /// ``stayStride``; the span's first `span − nights + 1` nights), slot after slot: ``stayStride`` values
    /// modulo 2^16, the differences of the row's running sums over the span (``staysearch_stays_of_sums``;
    /// a stay of at most 65,535 units is its total), 0 past the check-ins. A row's stays are one cache line,
    /// and a calendar totals a row's stays for all of its check-ins from them (``staysearch_calendar_rows``),
    /// reading only the rows it must total (docs/performance.md). Empty when the span has more check-ins.
    package let stays: Column<UInt16>
    /// The values of a row in ``stays``: ``STAYSEARCH_CALENDAR_ROWS_CHECKINS`` (64 bytes).
    package let stayStride = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)

    /// Per row: for an ``irregular`` row, its slot in ``exactStays`` (its stays from *s* × ``checkIns``), else
    /// −1; every row's −1 when the span has more than ``STAYSEARCH_CALENDAR_ROWS_CHECKINS`` check-ins, is
    /// longer than ``longestSummedSpan``, or has too many irregular rows (``mostIrregularShare``).
    package let exactSlots: Column<Int32>
    /// Each irregular row's stays of ``stayNights`` nights from each of the span's check-ins, in minor units
    /// (a night without a price counts 0: such a stay is never bookable), slot after slot. A calendar prices
    /// the stays of such a row (in won priced to the ₩10, 4 % of the rows) from them, not night by night
    /// from the row's runs.
    package let exactStays: Column<Int64>
    /// The span's check-ins: its first `span − nights + 1` nights (at least 0).
    package let checkIns: Int

    /// The nights of the stays ``stayLows`` and ``stayHighs`` bound: a calendar's span is its check-ins' first
    /// night to the last stay's last, so a span and its nights fix the check-ins (the span's first
    /// `span − nights + 1` nights).
    let stayNights: Int
    /// Per row: the least and greatest total (units) of a stay of ``stayNights`` nights from any of
    /// the span's check-ins (an ``irregular`` row's from its night bounds rounded out; −1 when unknown). Exact for a row of running sums whose dearest
    /// night keeps each such stay within 65,534 units (``staysearch_stay_bounds``), else ``stayNights`` ×
    /// its lowest and highest night. A calendar settles the rows whose every stay lies outside every day's
    /// bracket by them: day by day a stay's total varies far less than nights × its cheapest and dearest
    /// night (a month of 7-night stays each holds one weekend).
    package let stayLows: Column<Int32>
    package let stayHighs: Column<Int32>
    /// What the row-by-row kernel reads of them (``staysearch_calendar_rows_columns``): per row its least
    /// and greatest stay in 16 bits (its total for a row of one price) where the kernel totals it — of the
    /// stays that can be booked, when it has any (``staysearch_calendar_rows_bookable_bounds``; a night made
    /// bookable since restores the row's, ``restoreStayBounds(ofRow:)``) — and per word of 64 rows the rows
    /// it totals and those of one price.
    package let stayLows16: Column<UInt16>
    package let stayHighs16: Column<UInt16>
    package let totalledRows: Column<UInt64>
    package let onePriceRows: Column<UInt64>

    /// The longest span whose rows' running sums are worked out (for the stay bounds and ``stays``): 32
    /// check-ins and stays of up to 65 nights.
    static let longestSummedSpan = 96
    /// The stays of irregular rows are kept (``exactStays``) while there are at most ``irregularRowsAlwaysKept``
    /// of them (4 MB for a month of check-ins), or at most one covered row in ``mostIrregularShare`` is irregular
    /// (in won priced to the ₩10, one in 25).
    package static let irregularRowsAlwaysKept = 16_384
    package static let mostIrregularShare = 8
    /// Values readable past the last row's running sums.
    static let sumPadding = 64

    /// The span prices of `index`'s rows over `start ..< end` in units of 10^`scale` minor units (at least 2,
    /// at most ``NightPrices/largestScale``): of every row, or of the words (64 rows) that hold the rows of
    /// `rows` only.
    /// - Complexity: O(*rows* + *r* log *r*) for the rows of several runs, plus O(*end* − *start*) for
    ///   each row whose price changes in the span.
    package init(of index: ListingIndex, from start: Int, to end: Int, nights stayNights: Int, rows wanted: [Range<Int>]? = nil,
                 scale: UInt8 = NightPrices.wholeUnitScale) {
        self.start = start
        self.end = end
        self.scale = min(NightPrices.largestScale, max(NightPrices.wholeUnitScale, scale))
        let unit = NightPrices.unitOfScale[Int(self.scale)]
        self.stayNights = stayNights
        let runs = index.nightPrices.runs
        let rowCount = index.count
        let rows = wanted.map { SpanPrices.words(holding: $0, rowCount: rowCount) }
        let covered = rows ?? [0..<rowCount]
        self.rows = rows
        // The columns' own memory, written through pointers; only the covered rows are touched.
        let byteCount = max(1, rowCount) * MemoryLayout<Int32>.stride
        let priceBuffer = ColumnBuffer(byteCount: byteCount, alignment: 64), lowBuffer = ColumnBuffer(byteCount: byteCount, alignment: 64),
            highBuffer = ColumnBuffer(byteCount: byteCount, alignment: 64)
        let prices = priceBuffer.pointer.bindMemory(to: Int32.self, capacity: max(1, rowCount))
        let lows = lowBuffer.pointer.bindMemory(to: Int32.self, capacity: max(1, rowCount))
        let highs = highBuffer.pointer.bindMemory(to: Int32.self, capacity: max(1, rowCount))
        for range in covered {
            (prices + range.lowerBound).initialize(repeating: SpanPrices.irregular, count: range.count)
            (lows + range.lowerBound).initialize(repeating: -1, count: range.count)
            (highs + range.lowerBound).initialize(repeating: -1, count: range.count)
        }
        let span = max(0, end - start)
        // Dense rows' bounds, night by night over the dense prices (the differences of neighbouring running
        // sums, read in order), from the least to the greatest dense rank of the covered rows. A night
        // outside a row's window counts as 0: its bounds only widen (a row's stays never hold such a night).
        let denseRows = index.nightPrices.denseRows, dense = index.nightPrices.dense.base
        var firstRank = Int.max, lastRank = -1
        if rows == nil {
            (firstRank, lastRank) = (0, denseRows - 1)
        } else {
            for range in covered {
                for row in range {
                    guard let rank = runs.values[Int(runs.offsets[row])].denseIndex else { continue }
                    firstRank = min(firstRank, rank)
                    lastRank = max(lastRank, rank)
                }
            }
        }
        let ranks = firstRank <= lastRank ? firstRank..<(lastRank + 1) : 0..<0
        let denseLows = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, denseRows))
        let denseHighs = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, denseRows))
        defer {
            denseLows.deallocate()
            denseHighs.deallocate()
        }
        (denseLows + ranks.lowerBound).initialize(repeating: Int32.max, count: ranks.count)
        (denseHighs + ranks.lowerBound).initialize(repeating: -1, count: ranks.count)
        for night in start..<max(start, end) where !ranks.isEmpty {
            staysearch_narrow_bounds(dense + (night &* denseRows &+ ranks.lowerBound), denseRows, ranks.count,
                                     denseLows + ranks.lowerBound, denseHighs + ranks.lowerBound)
        }
        // One row's nights, and the same in units.
        let nightsOfRow = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, span))
        let unitsOfRow = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, span))
        defer {
            nightsOfRow.deallocate()
            unitsOfRow.deallocate()
        }
        var copied: [Int32] = []
        let hasWidePrices = index.nightPrices.wide.count > 0
        for range in covered where end > start {
            for row in range {
                let first = Int(runs.offsets[row]), last = Int(runs.offsets[row + 1])
                let value = runs.values[first]
                if let rank = value.denseIndex {
                    // Read in place when it counts the span's units from 0; a row of another unit, or counted from a
                    // base, is copied like runs.
                    if index.nightPrices.denseScales[rank] == self.scale, index.nightPrices.base(ofRank: rank) == 0 {
                        prices[row] = SpanPrices.dense
                        (lows[row], highs[row]) = denseHighs[rank] < 0 ? (0, 0) : (denseLows[rank], denseHighs[rank])
                        continue
                    }
                } else {
                    let run = last - first == 1 ? first : runs.run(row: row, dayOffset: start)
                    let runEnd = run + 1 < last ? Int(runs.starts[run + 1]) : Int.max
                    let price = runs.values[run]
                    // A wide price (``WidePrices``) is irregular, its bounds unknown: its stays are totalled one by one.
                    if price >= WidePrices.firstReference { continue }
                    if runEnd >= end, price.patternIndex == nil {
                        prices[row] = SpanPrices.units(of: price, unit: unit) ?? SpanPrices.irregular
                        if prices[row] >= 0 {
                            (lows[row], highs[row]) = (prices[row], prices[row])
                        } else if let (low, high) = SpanPrices.roundedOut(low: Int64(price), high: Int64(price), unit: unit, nights: stayNights) {
                            (lows[row], highs[row]) = (low, high)
                        }
                        continue
                    }
                }
                index.nightPrices.values(row: row, from: start, to: end, into: nightsOfRow.baseAddress!)
                if hasWidePrices, nightsOfRow[0..<span].contains(where: { $0 >= WidePrices.firstReference }) { continue }
                guard let (low, high) = SpanPrices.wholeUnits(of: UnsafeBufferPointer(rebasing: nightsOfRow[0..<span]),
                                                              into: unitsOfRow.baseAddress!, unit: unit) else {
                    // Irregular: its night bounds rounded out, so that a row outside every bracket is still settled.
                    var least = Int32.max, most: Int32 = -1
                    for night in 0..<span where nightsOfRow[night] >= 0 {
                        least = min(least, nightsOfRow[night])
                        most = max(most, nightsOfRow[night])
                    }
                    if most >= 0, let (low, high) = SpanPrices.roundedOut(low: Int64(least), high: Int64(most), unit: unit, nights: stayNights) {
                        (lows[row], highs[row]) = (low, high)
                    }
                    continue
                }
                prices[row] = -4 - Int32(copied.count / span)
                copied.append(contentsOf: UnsafeBufferPointer(rebasing: unitsOfRow[0..<span]))
                (lows[row], highs[row]) = high < 0 ? (0, 0) : (low, high)
            }
        }
        self.prices = Column(owning: priceBuffer, count: rowCount)
        self.nights = Column(copied)
        self.lows = Column(owning: lowBuffer, count: rowCount)
        self.highs = Column(owning: highBuffer, count: rowCount)
        let (sumSlots, sums, slotCount) = SpanPrices.runningSums(of: index, from: start, to: end, covered: end > start ? covered : [],
                                                                  ranks: ranks, prices: prices, copied: copied)
        self.sumSlots = sumSlots
        checkIns = max(0, span - stayNights + 1)
        (exactSlots, exactStays) = SpanPrices.exactStays(of: index, from: start, to: end, nights: stayNights, covered: end > start ? covered : [],
                                                         prices: prices)
        (stayLows, stayHighs) = SpanPrices.stayBounds(nights: stayNights, span: span, covered: end > start ? covered : [], lows: lows,
                                                      highs: highs, sumSlots: sumSlots, sums: sums)
        // The stays from the running sums, a line a row (the sums are dropped).
        let windows = span - stayNights + 1, stride = Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
        if slotCount > 0, stayNights > 0, windows > 0, windows <= stride {
            let stayBuffer = ColumnBuffer(byteCount: slotCount * stride * MemoryLayout<UInt16>.stride, alignment: 64)
            let stays = stayBuffer.pointer.bindMemory(to: UInt16.self, capacity: slotCount * stride)
            staysearch_stays_of_sums(sums.base, span + 1, stayNights, windows, slotCount, stays, stride)
            self.stays = Column(owning: stayBuffer, count: slotCount * stride)
        } else {
            self.stays = .empty
        }
        let wordCount = (rowCount + 63) / 64
        let (low16Buffer, low16) = ColumnBuffer.room(for: rowCount + 64, of: UInt16.self)
        let (high16Buffer, high16) = ColumnBuffer.room(for: rowCount + 64, of: UInt16.self)
        let (exactBuffer, exact) = ColumnBuffer.room(for: wordCount, of: UInt64.self)
        let (constantBuffer, constants) = ColumnBuffer.room(for: wordCount, of: UInt64.self)
        // The bounds over the stays a search could find (bookable, on a weekday the row's rules allow): a row
        // dear only on nights already booked is settled.
        let weekdaysOfClass = stays.count > 0 ? index.weekdaysOfRuleClasses(allowing: stayNights) : []
        let firstWeekday = (index.stayRules.firstWeekday + start) % 7
        for range in covered where end > start && !range.isEmpty {
            staysearch_calendar_rows_columns(prices, stayLows.base, stayHighs.base, sumSlots.base, stayNights, range.lowerBound,
                                             range.upperBound, low16, high16, exact, constants)
            if stays.count > 0 {
                staysearch_calendar_rows_bookable_bounds(index.storage.bookable.base + start &* index.wordsPerDay, index.wordsPerDay,
                                                         stayNights, windows, range.lowerBound, range.upperBound, exact, constants,
                                                         sumSlots.base, stays.base, stride, index.ruleClasses.classes.base, weekdaysOfClass,
                                                         firstWeekday, low16, high16)
            }
        }
        stayLows16 = Column(owning: low16Buffer, count: rowCount)
        stayHighs16 = Column(owning: high16Buffer, count: rowCount)
        totalledRows = Column(owning: exactBuffer, count: wordCount)
        onePriceRows = Column(owning: constantBuffer, count: wordCount)
    }

    /// Widens row `row`'s 16-bit stay bounds back to those over every stay of the span (``stayLows``,
    /// ``stayHighs``), for a row some of whose nights became bookable: the bounds narrowed to the stays that
    /// could be booked no longer hold. Writes the columns' own memory: only while no calendar reads them
    /// (under the live index's write lock).
    package func restoreStayBounds(ofRow row: Int) {
        guard row >= 0, row < stayLows16.count, covers([row..<(row + 1)]) else { return }
        let word = row >> 6, bit = UInt64(1) << UInt64(row & 63)
        guard totalledRows[word] & bit != 0, onePriceRows[word] & bit == 0, stayLows[row] >= 0, stayHighs[row] >= 0 else { return }
        UnsafeMutablePointer(mutating: stayLows16.base)[row] = UInt16(clamping: stayLows[row])
        UnsafeMutablePointer(mutating: stayHighs16.base)[row] = UInt16(clamping: stayHighs[row])
    }

    /// ``stayLows`` and ``stayHighs`` for the rows of `covered`: `nights` × each row's night bounds, made
    /// exact from the running sums where they are kept.
    private static func stayBounds(nights: Int, span: Int, covered: [Range<Int>], lows: UnsafePointer<Int32>, highs: UnsafePointer<Int32>,
                                   sumSlots: Column<Int32>, sums: Column<UInt16>) -> (Column<Int32>, Column<Int32>) {
        let rowCount = sumSlots.count
        let (lowBuffer, stayLows) = ColumnBuffer.room(for: rowCount, of: Int32.self)
        let (highBuffer, stayHighs) = ColumnBuffer.room(for: rowCount, of: Int32.self)
        let factor = Int32(clamping: max(1, nights))
        for range in covered {
            for row in range {
                (stayLows[row], stayHighs[row]) = lows[row] < 0 ? (-1, -1) : (lows[row] &* factor, highs[row] &* factor)
            }
            let windows = span - nights + 1
            if nights > 0, windows > 0, span <= longestSummedSpan {
                staysearch_stay_bounds(sums.base, span + 1, nights, windows, sumSlots.base, lows, highs, range.lowerBound, range.upperBound,
                                       stayLows, stayHighs)
            }
        }
        return (Column(owning: lowBuffer, count: rowCount), Column(owning: highBuffer, count: rowCount))
    }

    /// The running sums over `start ..< end` of the dense and copied rows of `covered` (`span + 1` values a
    /// row modulo 2^16, the first the sum before the span's first night, and ``sumPadding`` values past the
    /// last row), each row's slot, and the number of slots; none when the span is longer than
    /// ``longestSummedSpan``. The dense rows of ranks `ranks` (those of `covered`, and any between) take slots
    /// in rank order, turned row-major in one pass; the copied rows follow.
    /// - Complexity: O(*span* × (*ranks* + *c*)) for *c* copied rows, plus O(*rows*).
    private static func runningSums(of index: ListingIndex, from start: Int, to end: Int, covered: [Range<Int>], ranks: Range<Int>,
                                    prices: UnsafePointer<Int32>, copied: [Int32]) -> (Column<Int32>, Column<UInt16>, Int) {
        let rowCount = index.count, span = max(0, end - start), stride = span + 1
        let slotBuffer = ColumnBuffer(byteCount: max(1, rowCount) * MemoryLayout<Int32>.stride, alignment: 64)
        let slots = slotBuffer.pointer.bindMemory(to: Int32.self, capacity: max(1, rowCount))
        for range in covered { (slots + range.lowerBound).initialize(repeating: -1, count: range.count) }
        guard span > 0, span <= longestSummedSpan else {
            return (Column(owning: slotBuffer, count: rowCount), Column([UInt16](repeating: 0, count: sumPadding)), 0)
        }
        let copiedRows = copied.count / span, slotCount = ranks.count + copiedRows
        let count = slotCount * stride + sumPadding
        // Tens of megabytes written once: in huge pages where the system lends them (ColumnBuffer; a 4 KiB page
        // a fault would cost a month over 1M day-by-day rows about 18,000 faults).
        let sumBuffer = ColumnBuffer(byteCount: count * MemoryLayout<UInt16>.stride, alignment: 64)
        let sums = sumBuffer.pointer.bindMemory(to: UInt16.self, capacity: count)
        // Every slot's values are written below; the padding only is read unwritten (as lanes no stay uses).
        (sums + slotCount * stride).initialize(repeating: 0, count: sumPadding)
        let runs = index.nightPrices.runs, denseRows = index.nightPrices.denseRows
        if !ranks.isEmpty {
            staysearch_transpose_sums(index.nightPrices.dense.base + (start &* denseRows &+ ranks.lowerBound), denseRows, stride,
                                      ranks.count, sums, stride)
        }
        copied.withUnsafeBufferPointer { nights in
            for row in 0..<copiedRows {
                let sumsOfRow = sums + (ranks.count + row) * stride
                var sum: UInt16 = 0
                sumsOfRow[0] = 0
                for night in 0..<span {
                    sum &+= UInt16(truncatingIfNeeded: nights[row * span + night])
                    sumsOfRow[night + 1] = sum
                }
            }
        }
        for range in covered {
            for row in range {
                let code = prices[row]
                if code <= -4 {
                    slots[row] = Int32(ranks.count) + (-4 - code)
                } else if code == SpanPrices.dense, let rank = runs.values[Int(runs.offsets[row])].denseIndex {
                    slots[row] = Int32(rank - ranks.lowerBound)
                }
            }
        }
        return (Column(owning: slotBuffer, count: rowCount), Column(owning: sumBuffer, count: count), slotCount)
    }

    /// ``exactSlots`` and ``exactStays`` of the irregular rows of `covered` (`prices` says which): each one's
    /// nights over `start ..< end` read once, a stay's total the difference of two running sums.
    /// - Complexity: O(*span* × *i*) for *i* irregular rows, plus O(*rows*).
    private static func exactStays(of index: ListingIndex, from start: Int, to end: Int, nights: Int, covered: [Range<Int>],
                                   prices: UnsafePointer<Int32>) -> (Column<Int32>, Column<Int64>) {
        let rowCount = index.count, span = max(0, end - start), checkIns = span - nights + 1
        let (slotBuffer, slots) = ColumnBuffer.room(for: rowCount, of: Int32.self)
        for range in covered { (slots + range.lowerBound).initialize(repeating: -1, count: range.count) }
        guard nights > 0, checkIns > 0, checkIns <= Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS), span <= longestSummedSpan else {
            return (Column(owning: slotBuffer, count: rowCount), .empty)
        }
        var irregularRows: [Int] = []
        for range in covered {
            for row in range where prices[row] == SpanPrices.irregular { irregularRows.append(row) }
        }
        // Kept while they are few (prices of cents in a calendar of whole dollars would make every row irregular:
        // 248 bytes a row for a month of check-ins); else each is summed at each calendar.
        let most = max(SpanPrices.irregularRowsAlwaysKept, covered.reduce(0, { $0 + $1.count }) / SpanPrices.mostIrregularShare)
        guard irregularRows.count <= most else {
            return (Column(owning: slotBuffer, count: rowCount), .empty)
        }
        let (stayBuffer, stays) = ColumnBuffer.room(for: irregularRows.count * checkIns, of: Int64.self)
        let stored = UnsafeMutablePointer<Int32>.allocate(capacity: span), sums = UnsafeMutablePointer<Int64>.allocate(capacity: span + 1)
        defer {
            stored.deallocate()
            sums.deallocate()
        }
        sums[0] = 0
        let nightPrices = index.nightPrices
        for (slot, row) in irregularRows.enumerated() {
            nightPrices.values(row: row, from: start, to: end, into: stored)
            for night in 0..<span { sums[night + 1] = sums[night] &+ max(0, nightPrices.amount(ofStored: stored[night])) }
            let line = stays + slot &* checkIns
            for checkIn in 0..<checkIns { line[checkIn] = sums[checkIn &+ nights] &- sums[checkIn] }
            slots[row] = Int32(slot)
        }
        return (Column(owning: slotBuffer, count: rowCount), Column(owning: stayBuffer, count: irregularRows.count * checkIns))
    }

    /// Whether the rows of `ranges` were worked out.
    package func covers(_ ranges: [Range<Int>]) -> Bool {
        guard let rows else { return true }
        return ranges.allSatisfy { range in range.isEmpty || rows.contains { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound } }
    }

    /// The words (64 rows each, the last cut at `rowCount`) that hold the rows of `ranges`, as sorted,
    /// disjoint ranges.
    static func words(holding ranges: [Range<Int>], rowCount: Int) -> [Range<Int>] {
        var words: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let low = range.lowerBound & ~63, high = min(rowCount, (range.upperBound + 63) & ~63)
            if let last = words.last, low <= last.upperBound {
                words[words.count - 1] = last.lowerBound..<max(last.upperBound, high)
            } else {
                words.append(low..<high)
            }
        }
        return words
    }

    /// `nights` (minor units, negative for a night without a price) in units of `unit` minor units into
    /// `units` (``units(of:unit:)`` of each), with the lowest and highest of the priced ones (−1 for the
    /// highest when none is priced); nil when one is not a whole number of units up to ``largestUnits``. No
    /// branch on a night.
    static func wholeUnits(of nights: UnsafeBufferPointer<Int32>, into units: UnsafeMutablePointer<Int32>,
                           unit size: Int64 = 100) -> (low: Int32, high: Int32)? {
        var whole = true, low = Int32.max, high: Int32 = -1
        for night in 0..<nights.count {
            let price = Int64(nights[night])
            let priced = price >= 0
            let quotient = priced ? price / size : 0
            let unit = Int32(truncatingIfNeeded: quotient)
            whole = whole && (!priced || (quotient &* size == price && quotient <= Int64(largestUnits)))
            units[night] = unit
            low = priced && unit < low ? unit : low
            high = priced && unit > high ? unit : high
        }
        return whole ? (low, high) : nil
    }
    /// Night bounds `low ... high` (minor units) rounded out to units of `unit` minor units — down, and up — when a
    /// stay of `nights` nights at the higher stays below 2^31 units; else nil (the bounds stay unknown).
    static func roundedOut(low: Int64, high: Int64, unit: Int64, nights: Int) -> (Int32, Int32)? {
        let least = low / unit, most = (high + unit - 1) / unit
        guard low >= 0, most * Int64(max(1, nights)) <= Int64(Int32.max) else { return nil }
        return (Int32(least), Int32(most))
    }

    /// `price` (minor units) in units of `unit` minor units when it is a whole number of them and
    /// ≤ ``largestUnits``, else nil; a night without a price counts as 0 (it is never bookable).
    static func units(of price: Int32, unit: Int64 = 100) -> Int32? {
        if price < 0 { return 0 }
        let value = Int64(price)
        return value % unit == 0 && value / unit <= Int64(largestUnits) ? Int32(value / unit) : nil
    }
}
