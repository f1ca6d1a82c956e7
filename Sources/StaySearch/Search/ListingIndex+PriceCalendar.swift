extension ListingIndex {
    /// The price calendar of `query` (docs/query-semantics.md, "Price calendar"): for each check-in day
    /// from `checkInFrom` to `checkInTo` (at most 62 days), the stays of `windowNights` nights that the
    /// exact search of that check-in finds — region, guests, filters, price range, availability and stay
    /// rules all applied — counted, with their lowest and median total. Days before the query's today or
    /// whose stay leaves the calendar are marked so and have no stays.
    ///
    /// One pass over the candidate rows serves every day: a row's availability is tested for each
    /// check-in a word of 64 rows at a time, and its nights are priced once, each stay's total a
    /// difference of running sums.
    /// The query's check-in weekdays, sort, page and histogram keys play no part: every day of the range
    /// is shown.
    /// - Throws: ``QueryError`` as a search of the window would (``QueryError/windowIncomplete(missing:)``
    ///   without one).
    public func priceCalendar(_ query: SearchQuery, threads: Int = 1) throws(QueryError) -> PriceCalendar {
        try priceCalendar(query, threads: threads, coveredDays: dayCount, live: nil)
    }

    /// ``priceCalendar(_:threads:)`` over this frozen index's visible rows and a live overlay (`live`),
    /// whose calendars cover `coveredDays` days from ``firstDay``.
    package func priceCalendar(_ query: SearchQuery, threads: Int, coveredDays: Int, live: LiveParts?) throws(QueryError) -> PriceCalendar {
        var query = query
        query.checkInWeekdays = []
        // Check-ins before today are marked, not refused: a month already past is a calendar of past days.
        var checked = query
        checked.today = nil
        try checked.validate()
        guard let from = query.checkInFrom, let to = query.checkInTo, let nights = query.windowNights else {
            throw .windowIncomplete(missing: query.checkInFrom == nil ? "checkin from" : query.checkInTo == nil ? "checkin to" : "nights")
        }
        let dayCount = from.distance(to: to) + 1
        let totals = CalendarTotals(days: dayCount)
        if let live {
            let overlay = live.overlay
            let baseUnknown = unknownNames(in: query, live: live)
            let overlayUnknown = overlay?.unknownNames(in: query) ?? baseUnknown
            for name in query.names where baseUnknown[name] != nil && overlayUnknown[name] != nil {
                throw unknownNameError(name, live: live)
            }
            if let narrowed = query.narrowed(toNamesKnownBy: baseUnknown) {
                let plan = try ScanPlan(narrowed, index: self, rowMask: live.visibleRows)
                tallyStays(narrowed, plan: plan, from: from, days: dayCount, nights: nights, threads: threads, into: totals)
            }
            if let overlay, let narrowed = query.narrowed(toNamesKnownBy: overlayUnknown) {
                let plan = try ScanPlan(narrowed, index: overlay)
                overlay.tallyStays(narrowed, plan: plan, from: from, days: dayCount, nights: nights, threads: 1, into: totals)
            }
        } else {
            let plan = try ScanPlan(query, index: self)
            tallyStays(query, plan: plan, from: from, days: dayCount, nights: nights, threads: threads, into: totals)
        }
        let end = firstDay.advanced(by: coveredDays)
        var days: [PriceCalendarDay] = []
        days.reserveCapacity(dayCount)
        for position in 0..<dayCount {
            let checkIn = from.advanced(by: position)
            if let today = query.today, checkIn < today {
                days.append(PriceCalendarDay(checkIn: checkIn, status: .beforeToday))
            } else if checkIn < firstDay || checkIn.advanced(by: nights) > end {
                days.append(PriceCalendarDay(checkIn: checkIn, status: .outsideData))
            } else {
                let (count, lowest, median) = totals.summary(ofDay: position)
                days.append(PriceCalendarDay(checkIn: checkIn, status: .open, count: count, lowest: lowest, median: median))
            }
        }
        return PriceCalendar(nights: nights, today: query.today, firstDay: firstDay, endDay: end, days: days)
    }

    /// Adds to `totals` the stays of `nights` nights from each of `days` check-in days from `from` found in
    /// `plan`'s rows (in parts on up to `threads` threads). Check-ins before the query's today are left out.
    func tallyStays(_ query: SearchQuery, plan: ScanPlan, from: Day, days: Int, nights: Int, threads: Int,
                    into totals: CalendarTotals) {
        let parts = max(1, min(threads, plan.rowCount / ListingIndex.rowsPerParallelPart))
        let split = ScanParts(ranges: plan.ranges, rowCount: plan.rowCount, count: parts)
        if split.count == 1 {
            tallyStays(query, plan: plan, ranges: plan.ranges, from: from, days: days, nights: nights, into: totals)
            return
        }
        let results = PartResults<CalendarTotals>(count: split.count)
        ParallelPasses.run(parts: split.count) { part in
            let mine = CalendarTotals(days: days)
            self.tallyStays(query, plan: plan, ranges: split.ranges[part], from: from, days: days, nights: nights, into: mine)
            results.store(mine, at: part)
        }
        for part in results.values { totals.merge(part) }
    }

    /// ``tallyStays(_:plan:from:days:nights:threads:into:)`` over `ranges` on this thread.
    private func tallyStays(_ query: SearchQuery, plan: ScanPlan, ranges: [Range<Int>], from: Day, days: Int, nights: Int,
                            into totals: CalendarTotals) {
        // The check-ins (positions in the range) whose every night lies in this index's own calendar,
        // from today on.
        let firstOffset = firstDay.distance(to: from)
        var earliest = max(0, -firstOffset)
        if let today = query.today { earliest = max(earliest, from.distance(to: today)) }
        let latest = min(days, self.dayCount - nights - firstOffset + 1)
        guard earliest < latest, !ranges.isEmpty else { return }
        let checkIns = earliest..<latest
        // The nights read: from the first check-in to the last stay's last night.
        let spanStart = firstOffset + earliest, spanEnd = firstOffset + latest - 1 + nights
        let columns = ScanColumns(self)
        let filter = plan.filter, guests = query.guests, roomCode = plan.roomCode
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * Int64(nights)
        let highest = query.maximumPrice.map { $0.minorUnits * Int64(nights) } ?? Int64.max
        let wordsPerDay = self.wordsPerDay, rowCount = count
        let bookable = storage.bookable.base
        // For each stay rule class, the weekdays (bit 0 = Monday) on which it allows a stay of `nights`;
        // ``RuleClasses/checkRow`` reads the row's rule runs.
        var allowedWeekdays = [UInt8](repeating: 0xFF, count: 256)
        for (ruleClass, value) in ruleClasses.values.enumerated() {
            var weekdays: UInt8 = 0
            for weekday in 0..<7 {
                var packed = value
                if let pattern = packed.patternIndex { packed = columns.rulePatterns[pattern &* 7 &+ weekday] }
                if StayRule(packed: packed).allows(nights: nights) { weekdays |= 1 << UInt8(weekday) }
            }
            allowedWeekdays[ruleClass] = weekdays
        }
        let firstWeekday = stayRules.firstWeekday
        // Each check-in's weekday (0 = Monday) and its bit.
        let weekdayOfCheckIn = checkIns.map { (firstWeekday + firstOffset + $0) % 7 }
        let weekdayBits = weekdayOfCheckIn.map { UInt8(1) << UInt8($0) }
        var stays = [UInt64](repeating: 0, count: checkIns.count)
        var sums = [Int64](repeating: 0, count: spanEnd - spanStart + 1)
        var prices = [Int32](repeating: 0, count: spanEnd - spanStart)
        // The slots counted in (see ``CalendarTotals``), noted once at the end; each check-in's day of slots.
        var lowestSlot = Int.max, highestSlot = -1
        let counts = totals.counts
        let dayCounts = checkIns.map { counts + $0 &* CalendarTotals.unitSlots }
        defer { if highestSlot >= 0 { totals.noteSlots(lowestSlot...highestSlot) } }
        // For the rows of one price of a word: each one's slot, and the rows whose rule allows a check-in on
        // each weekday (those allowing every weekday apart).
        var slotOfBit = [Int](repeating: 0, count: 64)
        var rowsOnWeekday = [UInt64](repeating: 0, count: 7)
        for range in ranges where !range.isEmpty {
            for word in (range.lowerBound >> 6)...((range.upperBound - 1) >> 6) {
                let base = word << 6
                var candidates: UInt64 = ~0
                if base < range.lowerBound { candidates &= ~0 << UInt64(range.lowerBound - base) }
                if base + 64 > range.upperBound { candidates &= ~(~0 << UInt64(range.upperBound - base)) }
                if base + 64 <= rowCount {
                    candidates &= ByteMasks.atLeast(guests, in: columns.accommodates + base)
                    if roomCode >= 0 { candidates &= ByteMasks.equal(to: roomCode, in: columns.roomTypes + base) }
                } else {
                    var mask: UInt64 = 0
                    for bit in 0..<(rowCount - base) where Int(columns.accommodates[base + bit]) >= guests
                        && (roomCode < 0 || Int(columns.roomTypes[base + bit]) == roomCode) {
                        mask |= 1 << UInt64(bit)
                    }
                    candidates &= mask
                }
                for set in filter.bitSets { candidates &= set[word] }
                guard candidates != 0 else { continue }
                // Which candidates can book each check-in's nights.
                var any: UInt64 = 0
                for (position, checkIn) in checkIns.enumerated() {
                    var bits = candidates
                    var cell = (firstOffset + checkIn) * wordsPerDay + word
                    for _ in 0..<nights where bits != 0 {
                        bits &= bookable[cell]
                        cell += wordsPerDay
                    }
                    stays[position] = bits
                    any |= bits
                }
                // Rows of one price (in range, of whole units) whose rule has a class are counted a check-in
                // at a time below, 64 rows at once; any other row stay by stay here.
                var quick: UInt64 = 0, everyWeekday: UInt64 = 0
                while any != 0 {
                    let bit = any.trailingZeroBitCount
                    any &= any - 1
                    let row = base + bit
                    if filter.checksRows, !filter.passes(row: row) { continue }
                    let weekdays = allowedWeekdays[Int(columns.ruleClasses[row])]
                    // A row priced by one plain run costs its price a night; any other has its nights over the
                    // range priced once, a stay's total a difference of running sums.
                    let firstRun = Int(columns.priceOffsets[row])
                    let onePrice = Int(columns.priceOffsets[row &+ 1]) &- firstRun == 1 && columns.priceValues[firstRun] >= 0
                        ? Int64(columns.priceValues[firstRun]) &* Int64(nights) : -1
                    let mask: UInt64 = 1 << UInt64(bit)
                    if onePrice >= 0, weekdays != 0xFF {
                        guard onePrice >= lowest, onePrice <= highest else { continue }
                        let slot = CalendarTotals.slot(of: onePrice)
                        if slot >= 0 {
                            slotOfBit[bit] = slot
                            quick |= mask
                            lowestSlot = min(lowestSlot, slot)
                            highestSlot = max(highestSlot, slot)
                            if weekdays & 0x7F == 0x7F {
                                everyWeekday |= mask
                            } else {
                                for weekday in 0..<7 where weekdays >> UInt8(weekday) & 1 != 0 { rowsOnWeekday[weekday] |= mask }
                            }
                            continue
                        }
                    }
                    if onePrice < 0 {
                        prices.withUnsafeMutableBufferPointer { nightPrices.values(row: row, from: spanStart, to: spanEnd, into: $0.baseAddress!) }
                        for day in 0..<prices.count { sums[day + 1] = sums[day] &+ Int64(prices[day]) }
                    }
                    for (position, checkIn) in checkIns.enumerated() where stays[position] & mask != 0 {
                        let start = firstOffset + checkIn
                        if weekdays == 0xFF {
                            guard Scan.allowsStay(row: row, nights: nights, from: start, weekday: weekdayOfCheckIn[position], columns: columns)
                            else { continue }
                        } else if weekdays & weekdayBits[position] == 0 {
                            continue
                        }
                        let total = onePrice >= 0 ? onePrice : sums[start - spanStart + nights] - sums[start - spanStart]
                        guard total >= lowest, total <= highest else { continue }
                        let slot = CalendarTotals.slot(of: total)
                        if slot >= 0 {
                            dayCounts[position][slot] &+= 1
                            lowestSlot = min(lowestSlot, slot)
                            highestSlot = max(highestSlot, slot)
                        } else {
                            totals.keep(total, day: checkIn)
                        }
                    }
                }
                guard quick != 0 else { continue }
                for position in 0..<stays.count {
                    var bits = stays[position] & quick & (everyWeekday | rowsOnWeekday[weekdayOfCheckIn[position]])
                    let counts = dayCounts[position]
                    while bits != 0 {
                        counts[slotOfBit[bits.trailingZeroBitCount]] &+= 1
                        bits &= bits &- 1
                    }
                }
                for weekday in 0..<7 { rowsOnWeekday[weekday] = 0 }
            }
        }
    }
}
