/// Turns listings and their calendars, one row at a time in final row order, into the columns of a
/// ``ListingIndex``: bookable bits, price runs, stay rule runs and prices without dates.
///
/// ``IndexBuilder`` uses it after sorting and de-duplicating, passing the runs of nights it kept as
/// they are; generators that can produce calendars in row order use it through ``IndexBuilder/build(listings:firstDay:dayCount:calendarOfListing:)``
/// so that no night is ever stored.
struct RowAssembler {
    let firstDay: Int32
    let dayCount: Int
    let wordsPerDay: Int
    var bookable: [UInt64]
    var pricedWithoutDates: [UInt64]
    var basePrices: [Int32] = []
    var prices: RunsWriter<Int32>
    /// The day-by-day prices of the rows stored densely, as running sums (day-major in the index: see
    /// ``NightPrices``), with each dense row's window and dearest night.
    var densePrices: DenseRowsWriter<UInt16>
    /// The carries of the dense rows whose spread needs them (see ``NightPrices/denseCarries``), and each dense
    /// row's rank among them.
    var denseCarries: DenseRowsWriter<UInt8>
    private var denseCarried: [UInt64] = []
    private var denseWindows: [UInt32] = []
    private var denseMaxima: [UInt16] = []
    private var denseMinima: [UInt16] = []
    private var denseScales: [UInt8] = []
    private var denseBases: [UInt32] = []
    var rules: RunsWriter<UInt32>
    /// The prices from ``WidePrices/firstReference`` up that the rows refer to, renumbered in order of amount
    /// when the index is finished.
    var widePrices: WidePrices
    /// One row's values by day, reused from row to row.
    private var dayPrices: [Int32] = []
    private var dayRules: [UInt32] = []

    /// - Parameters:
    ///   - store: where dense rows go while the index is built (see ``DenseRowsWriter``); nil keeps them
    ///     in memory.
    ///   - denseRowsPerChunk: the dense rows spilled at a time (see ``DenseRowsWriter``).
    ///   - widePrices: the wide prices the runs given refer to.
    init(firstDay: Int32, dayCount: Int, rowCount: Int, store: (any SpillStore)? = nil, denseRowsPerChunk: Int = 4_096,
         widePrices: WidePrices = WidePrices()) {
        self.firstDay = firstDay
        self.widePrices = widePrices
        self.dayCount = dayCount
        wordsPerDay = (rowCount + 63) / 64
        bookable = [UInt64](repeating: 0, count: dayCount * wordsPerDay)
        pricedWithoutDates = [UInt64](repeating: 0, count: wordsPerDay)
        densePrices = DenseRowsWriter(valuesPerRow: dayCount + 1, store: store, rowsPerChunk: denseRowsPerChunk)
        denseCarries = DenseRowsWriter(valuesPerRow: dayCount + 1, store: store, rowsPerChunk: denseRowsPerChunk)
        basePrices.reserveCapacity(rowCount)
        let firstWeekday = Day(daysSinceEpoch: firstDay).weekdayFromMonday
        prices = RunsWriter(rowCount: rowCount, firstWeekday: firstWeekday)
        rules = RunsWriter(rowCount: rowCount, firstWeekday: firstWeekday)
    }

    /// Appends the next row.
    /// - Parameters:
    ///   - listing: the listing.
    ///   - runs: its calendar as runs of nights in date order, no date twice, all within the calendar span.
    ///   - values: the night values of runs that have them.
    mutating func appendRow(_ listing: ListingRecord, runs: some Sequence<NightRun>, values: NightValues) {
        let row = basePrices.count
        let listingPrice = widePrices.stored(listing.price)
        let listingRule = StayRule(minimumNights: listing.minimumNights, maximumNights: listing.maximumNights).packed
        dayPrices.removeAll(keepingCapacity: true)
        dayPrices.append(contentsOf: repeatElement(ListingIndex.noCalendarRow, count: dayCount))
        dayRules.removeAll(keepingCapacity: true)
        dayRules.append(contentsOf: repeatElement(listingRule, count: dayCount))
        var firstPriced = ListingIndex.noPrice
        let bit: UInt64 = 1 << UInt64(row & 63)
        for run in runs {
            let start = Int(run.day - firstDay)
            let end = start + Int(run.count)
            let rule = StayRule(minimumNights: run.minimum >= 0 ? run.minimum : listing.minimumNights,
                                maximumNights: run.maximum >= 0 ? run.maximum : listing.maximumNights).packed
            if run.hasNightValues {
                var position = run.nightValuesStart
                for offset in start..<end {
                    let given = values.price(at: position)
                    let price = given >= 0 ? given : listingPrice
                    dayPrices[offset] = price
                    dayRules[offset] = rule
                    if price >= 0 {
                        if firstPriced < 0 { firstPriced = price }
                        if values.isAvailable(at: position) { bookable[offset * wordsPerDay + row >> 6] |= bit }
                    }
                    position += 1
                }
                continue
            }
            let price = run.price >= 0 ? run.price : listingPrice
            for offset in start..<end {
                dayPrices[offset] = price
                dayRules[offset] = rule
            }
            if price >= 0 {
                if firstPriced < 0 { firstPriced = price }
                if run.isAvailable {
                    for offset in start..<end { bookable[offset * wordsPerDay + row >> 6] |= bit }
                }
            }
        }
        if dayCount == 0 {
            dayPrices.append(ListingIndex.noCalendarRow)
            dayRules.append(listingRule)
        }
        appendPrices()
        rules.appendRow(dayRules)
        let basePrice = listingPrice >= 0 ? listingPrice : firstPriced
        basePrices.append(basePrice)
        if basePrice >= 0 { pricedWithoutDates[row >> 6] |= bit }
    }

    /// Appends the next row from its values by day, as a live index keeps a changed listing: stored prices
    /// (resolved: unpriced only without a listing price), bookable nights, packed stay rules (the listing's
    /// own on days without a calendar row).
    mutating func appendRow(_ listing: ListingRecord, days: EditableListing) {
        let row = basePrices.count
        let bit: UInt64 = 1 << UInt64(row & 63)
        dayPrices.removeAll(keepingCapacity: true)
        for price in days.prices { dayPrices.append(price >= 0 ? widePrices.stored(minorUnits: price) : Int32(price)) }
        dayRules.removeAll(keepingCapacity: true)
        dayRules.append(contentsOf: days.rules)
        var firstPriced = ListingIndex.noPrice
        for day in 0..<dayCount where dayPrices[day] >= 0 {
            if firstPriced < 0 { firstPriced = dayPrices[day] }
            if days.bookable[day] { bookable[day * wordsPerDay + row >> 6] |= bit }
        }
        if dayCount == 0 {
            dayPrices.append(ListingIndex.noCalendarRow)
            dayRules.append(EditableListing.listingRule(of: listing))
        }
        appendPrices()
        rules.appendRow(dayRules)
        let listingPrice = widePrices.stored(listing.price)
        let basePrice = listingPrice >= 0 ? listingPrice : firstPriced
        basePrices.append(basePrice)
        if basePrice >= 0 { pricedWithoutDates[row >> 6] |= bit }
    }

    /// Stores the row's prices by day as runs, or densely when runs would take more room than two bytes
    /// a day (a price that changes most days) and every price fits a dense code in the row's unit; a row with a
    /// wide price (``WidePrices``) that is not dense as plain runs. A row whose plain runs
    /// cost more than its dense form but whose weekly patterns cost less is also dense when it would take
    /// more than ``mostWeeklySegments`` pattern runs (a weekend uplift over a price that moves every few
    /// weeks): larger, but priced like every other dense row.
    ///
    /// Weekly patterns are sized only as far as they could win: a row that changes price most days
    /// stops being cut into weeks once the weeks cost more than its dense form.
    private mutating func appendPrices() {
        let plainRuns = RunsWriter<Int32>.plainRunCount(dayPrices)
        let denseSize = dayCount * 2
        // A row with a wide price (``WidePrices``): dense in its own unit like any other, else plain runs (no weekly
        // pattern), priced run by run in 64 bits.
        let isWide = !widePrices.amounts.isEmpty && dayPrices.contains { $0 >= WidePrices.firstReference }
        let dense = dayCount > 0 && plainRuns * 8 > denseSize
            ? (isWide ? widePrices.amounts.withUnsafeBufferPointer { NightPrices.denseRow(of: dayPrices, wide: $0.baseAddress) }
                : NightPrices.denseRow(of: dayPrices))
            : nil
        let plan = isWide ? RunsWriter<Int32>.Plan(plainRuns: plainRuns, weekly: nil)
            : prices.plan(dayPrices, plainRuns: plainRuns, within: dense == nil ? plainRuns * 8 : min(plainRuns * 8, denseSize + 1))
        if let dense, plan.size > denseSize || plan.weeklySegmentCount > RowAssembler.mostWeeklySegments {
            let rank = densePrices.rowCount
            prices.appendSingleRun(.denseReference(rank))
            densePrices.append(dense.sums)
            denseWindows.append(dense.window)
            denseMaxima.append(dense.maximum)
            denseMinima.append(dense.minimum)
            denseScales.append(dense.scale)
            denseBases.append(dense.base)
            if rank & 63 == 0 { denseCarried.append(0) }
            if let carries = dense.carries {
                denseCarried[rank >> 6] |= 1 << UInt64(rank & 63)
                denseCarries.append(carries)
            }
        } else {
            prices.appendRow(dayPrices, plan: plan)
        }
    }

    /// The most runs of weekly patterns a row whose prices change most days keeps; with more, it is
    /// stored densely even when that is larger: a search prices a stay on such a row by a binary search
    /// and a weekly sum per run it crosses, reading tables far from the rows around it.
    static let mostWeeklySegments = 8

    /// The index of the rows appended, in the order of `layout`.
    /// Aliases whose region the listings do not have are left out.
    /// - Parameter dense: the dense price table when it was finished already (in a store); nil finishes
    ///   it in memory.
    /// - Parameter amenities: the listings' amenities, emptied once read.
    mutating func finish(listings: some ListingSource, amenities: inout NameStore, shapes: [NeighbourhoodShape] = [],
                         aliases: [RegionAlias] = [], layout: RegionLayout, roomTypeNames: [String],
                         densePrices dense: Column<UInt16>? = nil, denseCarries carries: Column<UInt8>? = nil) -> ListingIndex {
        var roomTypeCodes: [String: UInt8] = [:]
        for (code, name) in roomTypeNames.enumerated() { roomTypeCodes[name] = UInt8(code) }
        // Every listing read once, in row order, into all of its columns, each written in place.
        let rows = layout.listingOfRow.count
        let ids = ColumnBuffer.room(for: rows, of: Int64.self), roomTypesOfRows = ColumnBuffer.room(for: rows, of: UInt8.self)
        let nameByteCount = listings.nameByteCount
        let nameBytes = ColumnBuffer.room(for: nameByteCount, of: UInt8.self)
        let nameOffsets = ColumnBuffer.room(for: rows + 1, of: UInt32.self)
        let accommodates = ColumnBuffer.room(for: rows, of: UInt8.self), listingPrices = ColumnBuffer.room(for: rows, of: Int32.self)
        let minimumNights = ColumnBuffer.room(for: rows, of: Int32.self), maximumNights = ColumnBuffer.room(for: rows, of: Int32.self)
        let ratings = ColumnBuffer.room(for: rows, of: Int16.self), reviewCounts = ColumnBuffer.room(for: rows, of: Int32.self)
        let recentReviewCounts = ColumnBuffer.room(for: rows, of: UInt16.self)
        let latitudes = ColumnBuffer.room(for: rows, of: Int32.self), longitudes = ColumnBuffer.room(for: rows, of: Int32.self)
        var details = ListingDetailColumns.Rows(rows: rows)
        var feesOfRow: [(row: Int, fees: ListingFees)] = []
        var nameEnd = 0
        nameOffsets.elements[0] = 0
        for row in 0..<rows {
            var listing = listings[Int(layout.listingOfRow[row])]
            ids.elements[row] = listing.id
            listing.name.withUTF8 { name in
                precondition(nameEnd + name.count <= nameByteCount, "the names' bytes were counted before they were read")
                if let start = name.baseAddress { (nameBytes.elements + nameEnd).initialize(from: start, count: name.count) }
                nameEnd += name.count
            }
            nameOffsets.elements[row + 1] = UInt32(nameEnd)
            roomTypesOfRows.elements[row] = roomTypeCodes[listing.roomType]!
            accommodates.elements[row] = UInt8(clamping: listing.accommodates)
            listingPrices.elements[row] = widePrices.stored(listing.price)
            minimumNights.elements[row] = listing.minimumNights
            maximumNights.elements[row] = listing.maximumNights
            ratings.elements[row] = Int16(clamping: listing.ratingHundredths ?? Int32(ListingIndex.noRating))
            reviewCounts.elements[row] = listing.reviewCount
            recentReviewCounts.elements[row] = UInt16(clamping: listing.recentReviewCount)
            latitudes.elements[row] = IndexBuilder.storedCoordinate(listing.latitude)
            longitudes.elements[row] = IndexBuilder.storedCoordinate(listing.longitude)
            details.append(listing, row: row)
            if let fees = listing.fees { feesOfRow.append((row, fees)) }
        }
        if !widePrices.amounts.isEmpty {
            // References renumbered so that stored values order as their amounts do.
            let (sorted, positions) = widePrices.sortedByAmount()
            widePrices = sorted
            prices.values.withUnsafeMutableBufferPointer { WidePrices.renumber($0, positions: positions) }
            basePrices.withUnsafeMutableBufferPointer { WidePrices.renumber($0, positions: positions) }
            WidePrices.renumber(UnsafeMutableBufferPointer(start: listingPrices.elements, count: rows), positions: positions)
        }
        var storage = IndexStorage()
        storage.widePrices = widePrices.amounts.isEmpty ? .empty : Column(widePrices.amounts)
        storage.ids = Column(owning: ids.buffer, count: rows)
        storage.nameBytes = Column(owning: nameBytes.buffer, count: nameEnd)
        storage.nameOffsets = Column(owning: nameOffsets.buffer, count: rows + 1)
        storage.regionNodes = Column(layout.listingOfRow.map { layout.nodeOfListing[Int($0)] })
        storage.roomTypes = Column(owning: roomTypesOfRows.buffer, count: rows)
        storage.accommodates = Column(owning: accommodates.buffer, count: rows)
        storage.basePrices = Column(basePrices)
        storage.listingPrices = Column(owning: listingPrices.buffer, count: rows)
        storage.listingMinimumNights = Column(owning: minimumNights.buffer, count: rows)
        storage.listingMaximumNights = Column(owning: maximumNights.buffer, count: rows)
        storage.ratings = Column(owning: ratings.buffer, count: rows)
        storage.reviewCounts = Column(owning: reviewCounts.buffer, count: rows)
        storage.recentReviewCounts = Column(owning: recentReviewCounts.buffer, count: rows)
        storage.latitudes = Column(owning: latitudes.buffer, count: rows)
        storage.longitudes = Column(owning: longitudes.buffer, count: rows)
        (storage.feeRows, storage.feeRanks, storage.feeEntries) = FeeTable.columns(rowCount: rows, feesOfRow: feesOfRow)
        details.finish(&storage, listings: listings, amenities: &amenities, listingOfRow: layout.listingOfRow)
        ListingDetailColumns.fill(&storage, shapes: shapes)
        storage.bookable = Column(bookable)
        storage.pricedWithoutDates = Column(pricedWithoutDates)
        (storage.priceRunOffsets, storage.priceRunStarts, storage.priceRunValues, storage.pricePatterns) = prices.finish()
        storage.densePrices = dense ?? densePrices.finish()
        storage.denseWindows = Column(denseWindows)
        storage.denseMaxima = Column(denseMaxima)
        storage.denseMinima = Column(denseMinima)
        storage.denseScales = Column(denseScales)
        storage.denseBases = denseBases.contains { $0 != 0 } ? Column(denseBases) : .empty
        storage.denseCarries = carries ?? denseCarries.finish()
        storage.denseCarriedRows = Column(denseCarried)
        (storage.ruleRunOffsets, storage.ruleRunStarts, storage.ruleRunValues, storage.rulePatterns) = rules.finish()
        let roomTypes = StringColumn(roomTypeNames)
        storage.roomTypeNameBytes = roomTypes.bytes
        storage.roomTypeNameOffsets = roomTypes.offsets
        let nodes = layout.tree.nodes
        let nodeNames = StringColumn(nodes.map(\.name))
        storage.nodeNameBytes = nodeNames.bytes
        storage.nodeNameOffsets = nodeNames.offsets
        storage.nodeLevels = Column(nodes.map(\.level.rawValue))
        storage.nodeParents = Column(nodes.map(\.parent))
        storage.nodeRowStarts = Column(nodes.map { Int64($0.rows.lowerBound) })
        storage.nodeRowEnds = Column(nodes.map { Int64($0.rows.upperBound) })
        var aliasNames: [String] = [], aliasNodes: [Int32] = []
        for alias in Set(aliases).sorted(by: { ($0.city, $0.alias, $0.region) < ($1.city, $1.alias, $1.region) }) {
            for node in layout.tree.nodes(of: alias) {
                aliasNames.append(alias.alias)
                aliasNodes.append(Int32(node))
            }
        }
        let aliasColumn = StringColumn(aliasNames)
        storage.aliasNameBytes = aliasColumn.bytes
        storage.aliasNameOffsets = aliasColumn.offsets
        storage.aliasNodes = Column(aliasNodes)
        return ListingIndex(storage: storage, shape: IndexShape(rows: basePrices.count, firstDay: Day(daysSinceEpoch: firstDay),
                                                                dayCount: dayCount))
    }
}

/// Builds the runs of one ``DayRuns``, row by row, choosing for each row the smaller of plain runs
/// and runs of weekly patterns.
struct RunsWriter<Value: RunValue> {
    var offsets: [UInt32]
    var starts: [Int32] = []
    var values: [Value] = []
    var patterns: [Value] = []
    var patternIndex: [[Value]: Int] = [:]
    let firstWeekday: Int

    init(rowCount: Int, firstWeekday: Int) {
        offsets = [0]
        offsets.reserveCapacity(rowCount + 1)
        self.firstWeekday = firstWeekday
    }

    /// How a row would be stored as runs: plain runs, or runs of weekly patterns when those are smaller.
    struct Plan {
        let plainRuns: Int
        /// The weekly segments and their cost in bytes, when that cost is below the limit the plan was
        /// made within (so below the plain runs' cost).
        let weekly: (segments: [(start: Int, pattern: [Value])], cost: Int)?

        /// Whether runs of weekly patterns are the smaller form.
        var usesWeeklyPatterns: Bool { weekly.map { $0.cost < plainRuns * 8 } ?? false }

        /// How many runs of weekly patterns the row would take (0 when it takes plain runs).
        var weeklySegmentCount: Int { usesWeeklyPatterns ? weekly!.segments.count : 0 }

        /// The bytes the row takes as runs.
        var size: Int { usesWeeklyPatterns ? weekly!.cost : plainRuns * 8 }
    }

    /// The number of plain runs of `days`.
    static func plainRunCount(_ days: [Value]) -> Int {
        var plainRuns = days.isEmpty ? 0 : 1
        days.withUnsafeBufferPointer { days in
            for day in days.indices.dropFirst() where days[day] != days[day &- 1] { plainRuns &+= 1 }
        }
        return plainRuns
    }

    /// How `days` (a row's value on every day) would be stored as runs.
    /// - Parameters:
    ///   - plainRuns: its number of plain runs, when known.
    ///   - limit: the weekly form is only sized below this many bytes (by default, the plain runs'
    ///     cost); at or above it the plan has no weekly form.
    func plan(_ days: [Value], plainRuns: Int? = nil, within limit: Int? = nil) -> Plan {
        let plainRuns = plainRuns ?? RunsWriter.plainRunCount(days)
        return Plan(plainRuns: plainRuns,
                    weekly: plainRuns > 3 ? weeklySegments(days, within: min(limit ?? plainRuns * 8, plainRuns * 8)) : nil)
    }

    /// Appends a row of one run, from day 0, of `value`.
    mutating func appendSingleRun(_ value: Value) {
        starts.append(0)
        values.append(value)
        offsets.append(UInt32(values.count))
    }

    /// Appends one row given its value on every day of the calendar (at least one day).
    mutating func appendRow(_ days: [Value], plan: Plan? = nil) {
        let plan = plan ?? self.plan(days)
        if plan.usesWeeklyPatterns, let weekly = plan.weekly {
            for segment in weekly.segments {
                starts.append(Int32(segment.start))
                if segment.pattern.allSatisfy({ $0 == segment.pattern[0] }) {
                    values.append(segment.pattern[0])
                } else {
                    values.append(Value.patternReference(pattern(segment.pattern)))
                }
            }
        } else {
            for day in days.indices where day == 0 || days[day] != days[day - 1] {
                starts.append(Int32(day))
                values.append(days[day])
            }
        }
        offsets.append(UInt32(values.count))
    }

    /// The position of a pattern in the table, adding it when new.
    private mutating func pattern(_ pattern: [Value]) -> Int {
        if let known = patternIndex[pattern] { return known }
        let index = patterns.count / 7
        patterns.append(contentsOf: pattern)
        patternIndex[pattern] = index
        return index
    }

    /// Splits the days into the longest stretches that each follow one weekly pattern, and what they
    /// would cost in bytes (8 a run, 28 a pattern not yet in the table); nil when that reaches `limit`
    /// bytes (or 66 runs), found out as early as the count allows: first from the runs alone, then
    /// pattern by pattern.
    private func weeklySegments(_ days: [Value], within limit: Int) -> (segments: [(start: Int, pattern: [Value])], cost: Int)? {
        // (At most 65 runs: a row that is not weekly at all stops being cut.)
        let runLimit = min(limit, 8 * 66)
        // The segments' starts: a segment ends where a weekday comes round again with another value.
        var starts: [Int] = [0]
        var slots = [Value?](repeating: nil, count: 7)
        var weekday = firstWeekday % 7
        var found = true
        for (day, value) in days.enumerated() {
            if let known = slots[weekday], known != value {
                starts.append(day)
                if starts.count * 8 >= runLimit {
                    found = false
                    break
                }
                for slot in 0..<7 { slots[slot] = nil }
            }
            slots[weekday] = value
            weekday = weekday == 6 ? 0 : weekday + 1
        }
        guard found else { return nil }
        // Each segment's pattern (its value on each weekday; a weekday it does not reach takes the value of
        // the first weekday, from Monday, it does) in one scratch buffer; the row's new patterns kept flat
        // to tell repeats apart without hashing, so that a row that cannot win costs one table lookup per
        // pattern until it is out.
        var cost = starts.count * 8
        var scratch = [Value](repeating: days[0], count: 7)
        var newPatterns: [Value] = []
        func fillPattern(from start: Int, to end: Int) {
            var present: UInt8 = 0
            var weekday = (firstWeekday + start) % 7
            for day in start..<end {
                scratch[weekday] = days[day]
                present |= 1 << UInt8(weekday)
                weekday = weekday == 6 ? 0 : weekday + 1
            }
            let fill = scratch[present.trailingZeroBitCount]
            for slot in 0..<7 where present & (1 << UInt8(slot)) == 0 { scratch[slot] = fill }
        }
        for (position, start) in starts.enumerated() {
            fillPattern(from: start, to: position + 1 < starts.count ? starts[position + 1] : days.count)
            guard scratch.contains(where: { $0 != scratch[0] }), patternIndex[scratch] == nil else { continue }
            var isRepeat = false
            for first in stride(from: 0, to: newPatterns.count, by: 7) where newPatterns[first..<(first + 7)].elementsEqual(scratch) {
                isRepeat = true
                break
            }
            guard !isRepeat else { continue }
            newPatterns.append(contentsOf: scratch)
            cost += 28
            if cost >= limit { return nil }
        }
        // Below the limit: the segments with their patterns.
        var segments: [(start: Int, pattern: [Value])] = []
        segments.reserveCapacity(starts.count)
        for (position, start) in starts.enumerated() {
            fillPattern(from: start, to: position + 1 < starts.count ? starts[position + 1] : days.count)
            segments.append((start, scratch))
        }
        return (segments, cost)
    }

    /// The run columns: offsets, starts, values and weekly patterns.
    func finish() -> (offsets: Column<UInt32>, starts: Column<Int32>, values: Column<Value>, patterns: Column<Value>) {
        (Column(offsets), Column(starts), Column(values), Column(patterns))
    }
}
