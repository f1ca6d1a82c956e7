import StaySearchKernels

extension ListingIndex {
    /// Words of rows whose nights a whole calendar pass on one thread reads stripe after stripe at a time:
    /// 256 words of dense prices are 32 KiB a night.
    static let calendarBlockWords = 256

    /// The fewest words of a sample read by each of its parts: a part costs its thread's wake-up and its own
    /// tables (a day's counts by unit are 16 KiB), worth more than half the words of a city's sample (1M
    /// listings, Antwerp's 214,572 rows, 52 words: 0.87–0.90 ms a 3-night month on one thread's sample
    /// against 0.92–0.94 on two; every listing, 244 words: 3.16–3.20 against 3.22–3.39).
    static let calendarSampleWordsPerPart = 96

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
    /// `sampling` says how each day's median is bracketed before the full pass, and `scale` the unit totals
    /// are counted in (10^scale minor units; ``calendarScale`` when nil). The answer is the same whatever they
    /// say: tests narrow the brackets to make them miss, and count in every unit.
    package func priceCalendar(_ query: SearchQuery, threads: Int, coveredDays: Int, live: LiveParts?,
                               sampling: CalendarSampling = .standard, scale: UInt8? = nil) throws(QueryError) -> PriceCalendar {
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
        // The rows the calendar reads: this index's (visible) ones, and the overlay's.
        var passes: [(index: ListingIndex, query: SearchQuery, plan: ScanPlan, threads: Int)] = []
        if let live {
            let overlay = live.overlay
            let baseUnknown = unknownNames(in: query, live: live)
            let overlayUnknown = overlay?.unknownNames(in: query) ?? baseUnknown
            for name in query.names where baseUnknown[name] != nil && overlayUnknown[name] != nil {
                throw unknownNameError(name, live: live)
            }
            if let narrowed = query.narrowed(toNamesKnownBy: baseUnknown) {
                passes.append((self, narrowed, try ScanPlan(narrowed, index: self, rowMask: live.visibleRows), threads))
            }
            if let overlay, let narrowed = query.narrowed(toNamesKnownBy: overlayUnknown) {
                passes.append((overlay, narrowed, try ScanPlan(narrowed, index: overlay), 1))
            }
        } else {
            passes.append((self, query, try ScanPlan(query, index: self), threads))
        }
        func tally(_ brackets: CalendarTally, sampleEvery: Int) -> CalendarTally {
            let tally = CalendarTally(bracketsOf: brackets)
            for pass in passes {
                pass.index.tallyStays(pass.query, plan: pass.plan, from: from, days: dayCount, nights: nights, threads: pass.threads,
                                      sampleEvery: sampleEvery, into: tally)
            }
            return tally
        }
        // A sample of the rows brackets each day's median (its totals counted by slots as wide as the stays are
        // dear; kept one by one when a rank lies above them); the full tally then counts only the totals inside
        // the brackets, by unit, and a day whose median fell outside is tallied again whole.
        // Totals are counted in this index's calendar unit (whole dollars; ₩100 for won priced to the ₩100).
        let every = max(1, sampling.every), unit = NightPrices.unitOfScale[Int(min(NightPrices.largestScale, max(NightPrices.wholeUnitScale, scale ?? calendarScale)))]
        // (``calendarSlotShift(nights:unit:)``: 4,096 slots of a unit for a week in dollars, of 16 in won.)
        let sample = CalendarTally(samplingFor: dayCount, unit: unit, slotShift: calendarSlotShift(nights: nights, unit: unit))
        let brackets = CalendarTally.brackets(from: tally(sample, sampleEvery: every), sampling: sampling, threads: threads)
            ?? CalendarTally.brackets(from: tally(CalendarTally(everythingFor: dayCount, unit: unit), sampleEvery: every), sampling: sampling,
                                      threads: threads)
            ?? CalendarTally(everythingFor: dayCount, unit: unit)
        let totals = tally(brackets, sampleEvery: 1)
        var lowests = (0..<dayCount).map { totals.lowest(ofDay: $0) }
        var medians = totals.medians(threads: threads)
        let missed = (0..<dayCount).filter { totals.counts[$0] > 0 && (lowests[$0] == nil || medians[$0] == nil) }
        if !missed.isEmpty {
            let low = [Int32](repeating: 0, count: dayCount)
            var high = [Int32](repeating: -1, count: dayCount)
            for day in missed where medians[day] == nil { high[day] = .max }
            let cut = missed.contains { lowests[$0] == nil } ? Int32.max : totals.cheapest
            let again = tally(CalendarTally(bracketLow: low, bracketHigh: high, cheapest: cut, unit: unit), sampleEvery: 1)
            for day in missed {
                if lowests[day] == nil { lowests[day] = again.lowest(ofDay: day) }
                if medians[day] == nil { medians[day] = again.median(ofDay: day) }
            }
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
                days.append(PriceCalendarDay(checkIn: checkIn, status: .open, count: Int(totals.counts[position]),
                                             lowest: lowests[position].map(Money.init(minorUnits:)),
                                             median: medians[position].map(Money.init(minorUnits:))))
            }
        }
        return PriceCalendar(nights: nights, today: query.today, firstDay: firstDay, endDay: end, days: days)
    }

    /// For each stay rule class, the weekdays (bit 0 = Monday) on which it allows a stay of `nights` nights;
    /// all of them for ``RuleClasses/checkRow`` (whose rows are read rule run by rule run).
    package func weekdaysOfRuleClasses(allowing nights: Int) -> [UInt8] {
        var allowedWeekdays = [UInt8](repeating: 0xFF, count: 256)
        let patterns = storage.rulePatterns.base
        for (ruleClass, value) in ruleClasses.values.enumerated() {
            var weekdays: UInt8 = 0
            for weekday in 0..<7 {
                var packed = value
                if let pattern = packed.patternIndex { packed = patterns[pattern &* 7 &+ weekday] }
                if StayRule(packed: packed).allows(nights: nights) { weekdays |= 1 << UInt8(weekday) }
            }
            allowedWeekdays[ruleClass] = weekdays
        }
        return allowedWeekdays
    }

    /// Adds to `tally` the stays of `nights` nights from each of `days` check-in days from `from` found in
    /// `plan`'s rows (in parts on up to `threads` threads), reading one word of 64 rows in `sampleEvery`.
    /// Check-ins before the query's today are left out.
    func tallyStays(_ query: SearchQuery, plan: ScanPlan, from: Day, days: Int, nights: Int, threads: Int, sampleEvery: Int,
                    into tally: CalendarTally) {
        // A part of a sample reads at least ``calendarSampleWordsPerPart`` of its words.
        let rowsPerPart = sampleEvery > 1 ? Self.calendarSampleWordsPerPart * 64 * sampleEvery : ListingIndex.rowsPerParallelPart
        let parts = max(1, min(threads, plan.rowCount / rowsPerPart))
        let split = ScanParts(ranges: plan.ranges, rowCount: plan.rowCount, count: parts)
        if split.count == 1 {
            tallyStays(query, plan: plan, ranges: plan.ranges, from: from, days: days, nights: nights, sampleEvery: sampleEvery,
                       readsBlocksFirst: sampleEvery == 1, into: tally)
            return
        }
        let results = PartResults<CalendarTally>(count: split.count)
        let bracketLow = tally.bracketLow, bracketHigh = tally.bracketHigh, cheapest = tally.cheapest, unit = tally.unit
        let slotShift = tally.slotShift
        ParallelPasses.run(parts: split.count) { part in
            let mine = CalendarTally(bracketLow: bracketLow, bracketHigh: bracketHigh, cheapest: cheapest, unit: unit, slotShift: slotShift)
            self.tallyStays(query, plan: plan, ranges: split.ranges[part], from: from, days: days, nights: nights,
                            sampleEvery: sampleEvery, readsBlocksFirst: false, into: mine)
            results.store(mine, at: part)
        }
        for part in results.values { tally.merge(part) }
    }

    /// ``tallyStays(_:plan:from:days:nights:threads:sampleEvery:into:)`` over `ranges` on this thread.
    /// With `readsBlocksFirst`, each block of ``calendarBlockWords`` words has its nights' bit sets and dense
    /// prices read stripe after stripe before its words read them (a whole pass on one thread, as a server's
    /// calendar: day by day, 1M listings, every listing 0.89–0.93× the time; on two threads no gain was
    /// measured beyond the runs' drift, docs/performance.md). A month totalled row by row reads no dense
    /// stripe, and reads its bit sets so on every part of a full pass.
    ///
    /// Word by word: the candidates (guests, room type, filters), each check-in's bookable ones (the AND of
    /// its nights), then the rows whose nights read in the calendar's units — one price over the span, or dense day
    /// by day, or copied — are totalled for every check-in at once: for up to 32 check-ins row by row from
    /// their stays over the span (``SpanPrices/stays``, a line a row) by ``staysearch_calendar_rows``, a word
    /// behind its classification so that its rows' stays arrive meanwhile, else by
    /// ``staysearch_calendar_word`` (both AVX2); the few others (prices of cents, rules read run by run, stays
    /// too dear for 16 bits, rows whose trip price differs from the nights' sum) stay by stay, an irregular row's
    /// stays read from ``SpanPrices/exactStays``.
    private func tallyStays(_ query: SearchQuery, plan: ScanPlan, ranges: [Range<Int>], from: Day, days: Int, nights: Int,
                            sampleEvery: Int, readsBlocksFirst: Bool, into tally: CalendarTally) {
        // The check-ins (positions in the range) whose every night lies in this index's own calendar,
        // from today on.
        let firstOffset = firstDay.distance(to: from)
        var earliest = max(0, -firstOffset)
        if let today = query.today { earliest = max(earliest, from.distance(to: today)) }
        let latest = min(days, self.dayCount - nights - firstOffset + 1)
        guard earliest < latest, !ranges.isEmpty else { return }
        let checkIns = earliest..<latest
        let checkInCount = checkIns.count
        // The nights read: from the first check-in to the last stay's last night.
        let spanStart = firstOffset + earliest, spanEnd = firstOffset + latest - 1 + nights
        let span = spanEnd - spanStart
        // The span prices of every row the plan visits (each part of the same query asks for the same), in
        // the tally's unit (minor units; every total below is counted in it).
        let unit = tally.unit, scale = UInt8(NightPrices.unitOfScale.firstIndex(of: unit) ?? Int(NightPrices.wholeUnitScale))
        let spanPrices = self.spanPrices(from: spanStart, to: spanEnd, nights: nights, rows: plan.ranges, scale: scale)
        let spanNights = spanPrices.nights.base
        let columns = ScanColumns(self)
        let filter = plan.filter, guests = query.guests, roomCode = plan.roomCode
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * Int64(nights)
        let highest = query.maximumPrice.map { $0.minorUnits * Int64(nights) } ?? Int64.max
        // The same range in units, for the word-at-a-time totals.
        let lowestUnits = Int32(clamping: (lowest + unit - 1) / unit), highestUnits = Int32(clamping: highest / unit)
        let wordsPerDay = self.wordsPerDay, rowCount = count
        let bookable = storage.bookable.base
        let allowedWeekdays = weekdaysOfRuleClasses(allowing: nights)
        // Per weekday, the classes allowing a check-in that day (bit `class mod 8` of byte `class ÷ 8`), kept
        // once per distinct set; each check-in's set.
        var weekdayTables: [[UInt8]] = []
        var tableOfWeekday = [Int](repeating: 0, count: 7)
        for weekday in 0..<7 {
            var table = [UInt8](repeating: 0, count: 32)
            for ruleClass in 0..<255 where allowedWeekdays[ruleClass] & (1 << UInt8(weekday)) != 0 {
                table[ruleClass >> 3] |= 1 << UInt8(ruleClass & 7)
            }
            if let known = weekdayTables.firstIndex(of: table) {
                tableOfWeekday[weekday] = known
            } else {
                tableOfWeekday[weekday] = weekdayTables.count
                weekdayTables.append(table)
            }
        }
        let firstWeekday = stayRules.firstWeekday
        // Each check-in's weekday (0 = Monday), its bit and its rule table.
        let weekdayOfCheckIn = checkIns.map { (firstWeekday + firstOffset + $0) % 7 }
        let weekdayBits = weekdayOfCheckIn.map { UInt8(1) << UInt8($0) }
        // Scratch for the word loop, in plain memory (no copy-on-write checks in the loop).
        let slotWidths = checkIns.map { tally.slotWidths[$0] }
        let scratch = CalendarScratch(checkIns: checkInCount, span: span, tables: weekdayTables, slotWidths: slotWidths)
        defer { scratch.deallocate() }
        let tables = scratch.tables, rulesAllow = scratch.rulesAllow, tableCount = weekdayTables.count
        let tableOfCheckIn = scratch.tableOfCheckIn
        for position in 0..<checkInCount { tableOfCheckIn[position] = tableOfWeekday[weekdayOfCheckIn[position]] }
        // Per check-in: the bookable candidates, then those totalled word by word, and what they added.
        let stays = scratch.stays, nightBits = scratch.nightBits, valid = scratch.valid, inBracket = scratch.inBracket
        let counts = scratch.counts, below = scratch.below, least = scratch.least
        // A row's running sums and nights, stay by stay (plain memory: no copy-on-write checks in the loop).
        let sums = UnsafeMutablePointer<Int64>.allocate(capacity: span + 1), prices = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, span))
        sums.initialize(repeating: 0, count: span + 1)
        defer {
            sums.deallocate()
            prices.deallocate()
        }
        // The copied nights of rows whose price changes (lane-major per night), and the word's totals.
        let matrix = scratch.matrix, wordTotals = scratch.wordTotals
        let bracketLow = scratch.bracketLow, bracketHigh = scratch.bracketHigh
        for position in 0..<checkInCount {
            bracketLow[position] = tally.bracketLow[checkIns.lowerBound + position]
            bracketHigh[position] = tally.bracketHigh[checkIns.lowerBound + position]
        }
        let cheapest = tally.cheapest, slotShift = tally.slotShift
        // While every check-in counts its bracket by unit (no totals kept), a month's rows are totalled row by
        // row from their stays over the span (each row's stays for all its check-ins at once, only the rows
        // that must be read); a longer range's lanes are held across words.
        let countedByUnit = (0..<checkInCount).allSatisfy { scratch.slots[$0] != nil }
        let byRows = countedByUnit && checkInCount <= Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS) && span <= SpanPrices.longestSummedSpan
        let batch = countedByUnit && !byRows ? scratch.batch : nil
        let sumSlots = spanPrices.sumSlots.base, rowStays = spanPrices.stays.base, stayStride = spanPrices.stayStride
        let stayLows16 = spanPrices.stayLows16.base, stayHighs16 = spanPrices.stayHighs16.base
        let totalledRows = spanPrices.totalledRows.base, onePriceRows = spanPrices.onePriceRows.base
        if byRows {
            staysearch_calendar_rows_prepare(scratch.rowsPlan, nights, checkInCount, lowestUnits, highestUnits, bracketLow, bracketHigh, cheapest,
                                             slotShift)
        }
        var leastOfCents = [Int64](repeating: .max, count: checkInCount)
        // With fees or a service fee, a stay's total is its trip price: the rows it changes are read stay by
        // stay (every row with a service fee, else the rows with fees).
        let serviceFee = Int64(query.serviceFeeBasisPoints)
        let tripFees: FeeTable? = !feeTable.isEmpty || serviceFee > 0 ? feeTable : nil
        let feeRowBits = feeTable.rows
        let runs = nightPrices.runs, dense = nightPrices.dense.base, denseRows = nightPrices.denseRows
        let stayLows = spanPrices.stayLows.base, stayHighs = spanPrices.stayHighs.base
        // For trip prices: the totals below every check-in's bracket and above it (minor units), the cut for
        // the least, and each weekday table's rows of the word.
        var belowEveryBracket = Int64.max, aboveEveryBracket = Int64.min
        for position in 0..<checkInCount {
            belowEveryBracket = min(belowEveryBracket, Int64(bracketLow[position]) &* unit)
            aboveEveryBracket = max(aboveEveryBracket, CalendarTally.upperEnd(ofUnits: bracketHigh[position], unit: unit))
        }
        let leastCut = CalendarTally.upperEnd(ofUnits: cheapest, unit: unit)
        // Without a service fee, rows whose trip price is their nights' sum and fees of whole units (no discount
        // for the stay) are totalled row by row with them: each word's stay bounds and fees in one of two sets
        // of three lines of 64 (the kernel reads a word's while it takes the next).
        let feeLines = byRows && tripFees != nil && serviceFee == 0 ? UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * 3 * 64) : nil
        defer { feeLines?.deallocate() }
        var feeLineSet = 0
        // Rows whose trip price is not that (a discount for the stay, a service fee) among those totalled row by row:
        // counted by their trip prices, a row's check-ins at once (`staysearch_calendar_trip_rows`); the trip prices
        // inside a bracket that are not whole units come back in `tripCents`.
        let tripPlan = byRows && tripFees != nil ? UnsafeMutablePointer<staysearch_calendar_trip_plan>.allocate(capacity: 1) : nil
        let tripCents = tripPlan != nil ? UnsafeMutablePointer<UInt64>.allocate(capacity: 64 * Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)) : nil
        defer {
            tripPlan?.deallocate()
            tripCents?.deallocate()
        }
        if let tripPlan {
            staysearch_calendar_trip_prepare(tripPlan, checkInCount, Int(scale), nights, guests, serviceFee, lowest, highest, bracketLow,
                                             bracketHigh, cheapest, slotShift)
        }
        var allowedByTable = [UInt64](repeating: 0, count: tableCount)
        let hasSpanStays = spanPrices.stays.count > 0 && checkInCount <= stayStride
        let exactSlots = spanPrices.exactSlots.base, hasExactStays = spanPrices.checkIns == checkInCount
        for range in ranges where !range.isEmpty {
            let lastWord = (range.upperBound - 1) >> 6
            // The words read: every one, or those whose number is a multiple of `sampleEvery`.
            let firstWord = ((range.lowerBound >> 6) + sampleEvery - 1) / sampleEvery * sampleEvery
            for word in stride(from: firstWord, through: lastWord, by: sampleEvery) {
                let base = word << 6
                // The next word's nights are one stream a day, in the bit sets and in the dense prices: more
                // streams than the hardware prefetcher follows. Asked for now, they arrive while this word is
                // totalled.
                if readsBlocksFirst || (byRows && sampleEvery == 1), word == range.lowerBound >> 6 || word % Self.calendarBlockWords == 0 {
                    // A month's nights read a word at a time are 30-odd streams together, which the memory
                    // delivers at a third of its bandwidth (11–12 against 25–32 GB/s read stripe after stripe).
                    let end = min(lastWord + 1, (word / Self.calendarBlockWords + 1) * Self.calendarBlockWords)
                    staysearch_touch_stripes(bookable + (spanStart &* wordsPerDay &+ word), wordsPerDay &* 8, span, (end - word) &* 8)
                    if !byRows, let rank = runs.values[Int(runs.offsets[word << 6])].denseIndex {
                        let rows = min((end - word) &* 64, denseRows - rank)
                        staysearch_touch_stripes(dense + (spanStart &* denseRows &+ rank), denseRows &* 2, span &+ 1, rows &* 2)
                    }
                }
                let next = word &+ sampleEvery
                if next <= lastWord {
                    // A line of a day's bit set holds eight words.
                    if next & 7 == 0 { staysearch_prefetch_stripes(bookable + (spanStart &* wordsPerDay &+ next), wordsPerDay &* 8, span, 1) }
                    if !byRows, let rank = runs.values[Int(runs.offsets[next << 6])].denseIndex {
                        staysearch_prefetch_stripes(dense + (spanStart &* denseRows &+ rank), denseRows &* 2, span &+ 1, 3)
                    }
                }
                var candidates: UInt64 = ~0
                if base < range.lowerBound { candidates &= ~0 << UInt64(range.lowerBound - base) }
                if base + 64 > range.upperBound { candidates &= ~(~0 << UInt64(range.upperBound - base)) }
                let wholeWord = base + 64 <= rowCount
                if wholeWord {
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
                if filter.checksRows {
                    var rows = candidates
                    while rows != 0 {
                        let bit = rows.trailingZeroBitCount
                        rows &= rows &- 1
                        if !filter.passes(row: base + bit) { candidates &= ~(1 << UInt64(bit)) }
                    }
                }
                guard candidates != 0 else { continue }
                // The rows totalled word by word: whole words' rows that read in the calendar's units and whose rules
                // have a class; any other row stay by stay below.
                let rowPrices = spanPrices.prices.base + base
                var fast: UInt64 = 0
                // The rows that may be counted without their nights (neither irregular nor with rules read run
                // by run), and each weekday table's rows before `fast` narrows them (with trip prices).
                var boundable: UInt64 = 0
                // The rows with fees totalled row by row with them (see `feeLines`).
                var feeLanes: UInt64 = 0
                // The rows counted by their trip prices (see `tripPlan`).
                var tripLanes: UInt64 = 0
                if wholeWord {
                    let irregular = staysearch_int32_in_range(rowPrices, SpanPrices.irregular, SpanPrices.irregular)
                    var ruleRunRows: UInt64 = 0
                    for table in 0..<tableCount {
                        rulesAllow[table] = staysearch_verdict_bits(columns.ruleClasses + base, tables + table &* 32, &ruleRunRows)
                    }
                    // Row by row (without trip prices) irregular rows go to the kernel too: it totals none of them, but
                    // settles those whose bounds, rounded out to units, lie outside every bracket (in won priced to the
                    // ₩10, 2.5 % of the rows) and hands back the rest.
                    fast = (byRows && tripFees == nil ? ~0 : ~irregular) & ~ruleRunRows
                    boundable = fast
                    for table in 0..<tableCount { allowedByTable[table] = rulesAllow[table] }
                    if let feeLines, let feeWord = feeRowBits?[word], feeWord & candidates & totalledRows[word] != 0 {
                        let lines = feeLines + feeLineSet &* 192
                        (lines + 128).update(repeating: 0, count: 64)
                        feeLanes = tripFees!.wholeUnitFees(word: word, lanes: candidates & totalledRows[word], nights: Int64(nights),
                                                           guests: guests, unit: unit, highs: stayHighs16 + base,
                                                           largest: Int64(STAYSEARCH_CALENDAR_ROWS_LARGEST), into: lines + 128)
                    }
                    if tripFees != nil {
                        let changed = serviceFee > 0 ? ~0 : (feeRowBits?[word] ?? 0) & ~feeLanes
                        if tripPlan != nil { tripLanes = changed & fast & totalledRows[word] }
                        fast &= ~changed | tripLanes
                    }
                    for table in 0..<tableCount { rulesAllow[table] &= fast }
                } else {
                    for table in 0..<tableCount { rulesAllow[table] = 0 }
                }
                // Which candidates can book each check-in's nights (each night's bits read once, runs of nights
                // ANDed by doubling, a stay the AND of the two runs that cover it), and those of them totalled
                // word by word that its weekday's rules allow.
                let any = staysearch_calendar_stays(bookable + (spanStart &* wordsPerDay &+ word), wordsPerDay, span, nights, checkInCount,
                                                    candidates, rulesAllow, tableCount == 1 ? nil : UnsafePointer(tableOfCheckIn),
                                                    nightBits, stays, valid)
                guard any != 0 else { continue }
                var slow = any
                if wholeWord {
                    let lanes = any & fast
                    if lanes != 0, byRows {
                        slow = any & ~lanes
                        var lows = stayLows16 + base, highs = stayHighs16 + base
                        var added: UnsafePointer<UInt16>? = nil
                        if lanes & feeLanes != 0, let feeLines {
                            // The bounds of the rows with fees raised by them; the set taken stays as it is until
                            // the kernel has read it (the next word's goes to the other set).
                            // (Every lane's: the fees of a lane without are 0.)
                            let lines = feeLines + feeLineSet &* 192
                            for lane in 0..<64 {
                                lines[lane] = lows[lane] &+ lines[128 &+ lane]
                                lines[64 &+ lane] = highs[lane] &+ lines[128 &+ lane]
                            }
                            (lows, highs, added) = (UnsafePointer(lines), UnsafePointer(lines + 64), UnsafePointer(lines + 128))
                            feeLineSet ^= 1
                        }
                        // Rows too dear for 16 bits are settled by their 32-bit bounds in the kernel, but not with trip
                        // prices (those lanes' bounds are of their nights).
                        slow |= staysearch_calendar_rows(scratch.rowsPlan, lows, highs, tripFees == nil ? stayLows + base : nil,
                                                         tripFees == nil ? stayHighs + base : nil,
                                                         totalledRows[word] & ~tripLanes, onePriceRows[word], added,
                                                         sumSlots + base, rowStays, stayStride, valid, counts, below, least, scratch.slots)
                            & ~tripLanes
                        if lanes & tripLanes != 0, let tripPlan, let tripCents {
                            var kept = 0
                            let feeWord = feeRowBits?[word] ?? 0
                            let entries = feeWord == 0 ? nil : tripFees!.entries.map { $0 + Int(tripFees!.ranks![word]) }
                            slow |= staysearch_calendar_trip_rows(tripPlan, lanes & tripLanes, valid, stayLows16 + base, stayHighs16 + base,
                                                                  onePriceRows[word], sumSlots + base, rowStays, stayStride, feeWord, entries,
                                                                  tripFees!.count, counts, below, least, scratch.slots, tripCents, &kept)
                            for entry in UnsafeBufferPointer(start: tripCents, count: kept) {
                                let position = Int(entry >> 32), total = Int64(UInt32(truncatingIfNeeded: entry))
                                if total <= leastCut { leastOfCents[position] = min(leastOfCents[position], total) }
                                if total >= Int64(bracketLow[position]) &* unit, total <= CalendarTally.upperEnd(ofUnits: bracketHigh[position], unit: unit) {
                                    scratch.addInside(total, at: position, bracketLow: bracketLow[position], unit: unit, slotShift: slotShift)
                                }
                            }
                        }
                    } else if lanes != 0 {
                        slow = any & ~lanes
                        let varying = lanes & staysearch_int32_in_range(rowPrices, Int32.min, SpanPrices.dense)
                        var denseStart: UnsafePointer<UInt16>? = nil
                        if varying != 0 {
                            let firstRank = runs.values[Int(runs.offsets[base])].denseIndex
                            let lastRank = runs.values[Int(runs.offsets[base + 63])].denseIndex
                            // In place when the word is 64 dense rows in the calendar's unit (a row of another unit is
                            // copied into the span's nights).
                            if let firstRank, let lastRank, lastRank == firstRank + 63,
                               varying & staysearch_int32_in_range(rowPrices, Int32.min, -4) == 0 {
                                denseStart = dense + spanStart * denseRows + firstRank
                            } else {
                                // Copy each one's nights: from the span prices, or decoded.
                                var copied = varying
                                while copied != 0 {
                                    let bit = copied.trailingZeroBitCount
                                    copied &= copied &- 1
                                    let code = rowPrices[bit]
                                    if code <= -4 {
                                        let from = spanNights + Int(-4 - code) &* span
                                        for night in 0..<span { matrix[night &* 64 &+ bit] = from[night] }
                                    } else if let rank = runs.values[Int(runs.offsets[base + bit])].denseIndex {
                                        // Dense nights in the calendar's unit, each the difference of two running
                                        // sums (a night without a calendar row is 0, and never bookable).
                                        var sums = dense + (spanStart &* denseRows &+ rank)
                                        for night in 0..<span {
                                            matrix[night &* 64 &+ bit] = Int32(sums[denseRows] &- sums[0])
                                            sums += denseRows
                                        }
                                    }
                                }
                            }
                        }
                        staysearch_calendar_word(rowPrices, spanPrices.lows.base + base, spanPrices.highs.base + base, denseStart, denseRows, matrix, span, nights, checkInCount, valid,
                                                 lowestUnits, highestUnits, bracketLow, bracketHigh, cheapest, counts, below,
                                                 least, inBracket, wordTotals, scratch.slots, Int32(slotShift), batch)
                        // The totals kept in the brackets (none when lanes are held in a batch).
                        if batch == nil {
                            for position in 0..<checkInCount where inBracket[position] != 0 {
                                var bits = inBracket[position]
                                while bits != 0 {
                                    scratch.keepInside(Int64(wordTotals[position &* 64 &+ bits.trailingZeroBitCount]) &* unit, at: position)
                                    bits &= bits &- 1
                                }
                            }
                        }
                    }
                }
                // The rows whose least and greatest totals (trip prices, with fees) lie below every check-in's
                // bracket, or above, inside the price range and above the cut for the least, are counted for
                // every check-in that can book them without reading their nights; those wholly outside the
                // range are left out (rows with trip prices, and those whose stays are too dear for 16-bit
                // lanes: in won, stays above ₩6.5M).
                if slow & boundable != 0 {
                    var settledBelow: UInt64 = 0, settledAbove: UInt64 = 0, outside: UInt64 = 0
                    var rest = slow & boundable
                    while rest != 0 {
                        let bit = rest.trailingZeroBitCount
                        rest &= rest &- 1
                        let row = base &+ bit
                        guard stayLows[row] >= 0 else { continue }
                        let terms = tripFees?.terms(ofRow: row, nights: Int64(nights), guests: guests, serviceFee: serviceFee)
                        // A row the kernel could total has its bounds over the stays a search could find.
                        let narrowed = totalledRows[word] >> UInt64(bit) & 1 != 0
                        let leastNights = Int64(narrowed ? Int32(stayLows16[row]) : stayLows[row]) &* unit
                        let greatestNights = Int64(narrowed ? Int32(stayHighs16[row]) : stayHighs[row]) &* unit
                        let least = terms?.tripPrice(leastNights) ?? leastNights, greatest = terms?.tripPrice(greatestNights) ?? greatestNights
                        if greatest < lowest || least > highest {
                            outside |= 1 &<< UInt64(bit)
                        } else if least >= lowest, greatest <= highest, least > leastCut {
                            if greatest < belowEveryBracket {
                                settledBelow |= 1 &<< UInt64(bit)
                            } else if least > aboveEveryBracket {
                                settledAbove |= 1 &<< UInt64(bit)
                            }
                        }
                    }
                    let settled = settledBelow | settledAbove
                    slow &= ~(settled | outside)
                    if settled != 0 {
                        for position in 0..<checkInCount {
                            let booked = stays[position] & allowedByTable[tableOfCheckIn[position]] & settled
                            counts[position] &+= UInt32(booked.nonzeroBitCount)
                            below[position] &+= UInt32((booked & settledBelow).nonzeroBitCount)
                        }
                    }
                }
                // Any other row stay by stay: its nights over the span priced once, a stay's total a
                // difference of running sums.
                while slow != 0 {
                    let bit = slow.trailingZeroBitCount
                    slow &= slow - 1
                    let row = base + bit
                    let weekdays = allowedWeekdays[Int(columns.ruleClasses[row])]
                    guard weekdays != 0 else { continue }
                    let mask: UInt64 = 1 << UInt64(bit)
                    if weekdays != 0xFF, stayLows[row] >= 0 {
                        // The row's least and greatest stays bound its totals (and its trip prices, which grow
                        // with the nights' sum): a row whose every stay lies outside the range, or inside it,
                        // above the cut for the least and outside every check-in's bracket, is counted without
                        // reading its nights — as the rows whose stays are too dear for 16-bit lanes mostly are
                        // (in won, stays above ₩6.5M: 4 % of the listings).
                        let terms = tripFees?.terms(ofRow: row, nights: Int64(nights), guests: guests, serviceFee: serviceFee)
                        // A row the kernel could total has its bounds over the stays a search could find.
                        let narrowed = totalledRows[word] >> UInt64(bit) & 1 != 0
                        let leastNights = Int64(narrowed ? Int32(stayLows16[row]) : stayLows[row]) &* unit
                        let greatestNights = Int64(narrowed ? Int32(stayHighs16[row]) : stayHighs[row]) &* unit
                        let least = terms?.tripPrice(leastNights) ?? leastNights, greatest = terms?.tripPrice(greatestNights) ?? greatestNights
                        if greatest < lowest || least > highest { continue }
                        if least >= lowest, greatest <= highest, least > leastCut,
                           Self.settles(least: least, greatest: greatest, stays: stays, mask: mask, weekdays: weekdays,
                                        weekdayBits: weekdayBits, bracketLow: bracketLow, bracketHigh: bracketHigh, unit: unit,
                                        checkIns: checkInCount, counts: counts, below: below) {
                            continue
                        }
                    }
                    let rowTerms = tripFees?.terms(ofRow: row, nights: Int64(nights), guests: guests, serviceFee: serviceFee)
                    // With trip prices, a row's stays' sums from its one price over the span, or from its stays
                    // worked out for the span when each is below 2^16 units, rather than from its nights.
                    var onePriceTotal: Int64 = -1
                    var spanStays: UnsafePointer<UInt16>? = nil
                    // An irregular row's stays, worked out with the span (minor units).
                    var exactStays: UnsafePointer<Int64>? = nil
                    if rowTerms != nil, wholeWord, rowPrices[bit] >= 0 {
                        onePriceTotal = Int64(rowPrices[bit]) &* Int64(nights) &* unit
                    } else if rowTerms != nil, wholeWord, hasSpanStays, sumSlots[row] >= 0, stayHighs[row] >= 0, stayHighs[row] <= 0xFFFF {
                        spanStays = rowStays + Int(sumSlots[row]) &* stayStride
                    } else if hasExactStays, exactSlots[row] >= 0 {
                        exactStays = spanPrices.exactStays.base + Int(exactSlots[row]) &* checkInCount
                    } else {
                        nightPrices.values(row: row, from: spanStart, to: spanEnd, into: prices)
                        for night in 0..<span { sums[night + 1] = sums[night] &+ max(0, nightPrices.amount(ofStored: prices[night])) }
                    }
                    for position in 0..<checkInCount where stays[position] & mask != 0 {
                        if weekdays == 0xFF {
                            guard Scan.allowsStay(row: row, nights: nights, from: spanStart + position, weekday: weekdayOfCheckIn[position],
                                                  columns: columns)
                            else { continue }
                        } else if weekdays & weekdayBits[position] == 0 {
                            continue
                        }
                        var total: Int64
                        if onePriceTotal >= 0 {
                            total = onePriceTotal
                        } else if let spanStays {
                            total = Int64(spanStays[position]) &* unit
                        } else if let exactStays {
                            total = exactStays[position]
                        } else {
                            total = sums[position + nights] - sums[position]
                        }
                        if let rowTerms { total = rowTerms.tripPrice(total) }
                        guard total >= lowest, total <= highest else { continue }
                        counts[position] &+= 1
                        // A total above the cut is never taken as a day's least (its day is tallied again).
                        if total <= leastCut {
                            if total % unit == 0, total / unit <= Int64(Int32.max) {
                                least[position] = min(least[position], Int32(total / unit))
                            } else {
                                leastOfCents[position] = min(leastOfCents[position], total)
                            }
                        }
                        if total < Int64(bracketLow[position]) &* unit {
                            below[position] &+= 1
                        } else if total <= CalendarTally.upperEnd(ofUnits: bracketHigh[position], unit: unit) {
                            scratch.addInside(total, at: position, bracketLow: bracketLow[position], unit: unit, slotShift: slotShift)
                        }
                    }
                }
            }
        }
        if byRows {
            // The last word's rows, left for a next word to be totalled behind.
            staysearch_calendar_rows_finish(scratch.rowsPlan, rowStays, stayStride, counts, below, least, scratch.slots)
        }
        if let batch {
            staysearch_calendar_flush(batch, span, nights, checkInCount, lowestUnits, highestUnits, bracketLow, bracketHigh, cheapest,
                                      counts, below, least, wordTotals, scratch.slots, Int32(slotShift))
        }
        for position in 0..<checkInCount {
            let day = checkIns.lowerBound + position
            tally.counts[day] &+= counts[position]
            tally.below[day] &+= below[position]
            tally.least[day] = min(tally.least[day], least[position])
            tally.inside[day].append(contentsOf: scratch.inside(at: position))
            tally.addSlots(scratch.slots(at: position, width: slotWidths[position]), day: day)
            tally.leastOfCents[day] = min(tally.leastOfCents[day], leastOfCents[position])
        }
    }

    /// Counts a row whose stays' trip prices all lie between `least` and `greatest` (minor units, inside the
    /// price range and above the cut for the least) for every check-in that can book it (its bit `mask` in
    /// `stays`, its rules allowing the check-in's weekday), when each check-in's bracket lies wholly above or
    /// below them; returns false, counting nothing, when one does not.
    private static func settles(least: Int64, greatest: Int64, stays: UnsafePointer<UInt64>, mask: UInt64, weekdays: UInt8,
                                weekdayBits: [UInt8], bracketLow: UnsafePointer<Int32>, bracketHigh: UnsafePointer<Int32>, unit: Int64, checkIns: Int,
                                counts: UnsafeMutablePointer<UInt32>, below: UnsafeMutablePointer<UInt32>) -> Bool {
        for position in 0..<checkIns where stays[position] & mask != 0 && weekdays & weekdayBits[position] != 0 {
            guard greatest < Int64(bracketLow[position]) &* unit || least > CalendarTally.upperEnd(ofUnits: bracketHigh[position], unit: unit) else {
                return false
            }
        }
        for position in 0..<checkIns where stays[position] & mask != 0 && weekdays & weekdayBits[position] != 0 {
            counts[position] &+= 1
            if greatest < Int64(bracketLow[position]) &* unit { below[position] &+= 1 }
        }
        return true
    }
}
