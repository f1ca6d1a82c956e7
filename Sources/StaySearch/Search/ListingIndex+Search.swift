extension ListingIndex {
    /// The four room types Inside Airbnb uses; a query may name them even where the data has none.
    public static let standardRoomTypes = ["Entire home/apt", "Hotel room", "Private room", "Shared room"]

    /// Room type names a query may use: those in the index and the standard four.
    public var knownRoomTypes: [String] {
        Array(Set(roomTypeNames).union(ListingIndex.standardRoomTypes)).sorted()
    }

    /// Runs a query.
    ///
    /// One pass over the candidate rows (the region's row ranges, intersected with the bit sets of
    /// the stay's nights) feeds every collector: rows that pass all filters but price go to the
    /// histogram; rows that also pass the price range are counted and offered to a bounded heap
    /// that keeps the page. With `threads` > 1 and enough rows, the rows are split into that many
    /// parts scanned at once, and the parts' collectors merged: the answer is the same.
    /// - Parameter threads: how many threads one query may use (1: the caller's only). A server
    ///   answering many queries at once leaves it at 1; a batch of queries run one by one can use
    ///   every core.
    /// - Throws: ``QueryError`` for an invalid query, an unknown region or room type.
    /// - Complexity: O(*r* + *w*·*n* + *c* log *k*) for *r* region ranges, *w* bit-set words in
    ///   them, *n* nights, *c* candidates and a page ending at *k*.
    public func search(_ query: SearchQuery, threads: Int = 1) throws(QueryError) -> SearchResult {
        try search(query, threads: threads, minimumRowsPerPart: ListingIndex.rowsPerParallelPart)
    }

    /// Runs a query with at most `threads` parts of at least `minimumRowsPerPart` rows each (tests cut
    /// small data into parts with this).
    package func search(_ query: SearchQuery, threads: Int, minimumRowsPerPart: Int, live: LiveParts? = nil) throws(QueryError) -> SearchResult {
        try query.validate()
        let facets = query.facets
        var (result, matchedRows) = try scan(query, threads: threads, minimumRowsPerPart: minimumRowsPerPart,
                                             collectsRows: !facets.isEmpty, live: live)
        guard !facets.isEmpty else { return result }
        // A facet whose own filter is set counts over the matches of the query without it: one more scan.
        var rowsByFacet: [Facet: [Int32]] = [:]
        for facet in facets where facet.isFiltered(in: query) && rowsByFacet[facet] == nil {
            var relaxed = facet.clearingFilter(of: query)
            relaxed.limit = 0
            relaxed.offset = 0
            relaxed.bins = 1
            relaxed.histogramMinimum = Money(minorUnits: 0)
            relaxed.histogramMaximum = Money(minorUnits: 100)
            relaxed.facets = []
            rowsByFacet[facet] = try scan(relaxed, threads: threads, minimumRowsPerPart: minimumRowsPerPart, collectsRows: true,
                                          live: live).1
        }
        result.facets = facets.map { facet in
            let rows = rowsByFacet[facet] ?? matchedRows
            guard let overlay = live?.overlay else {
                return FacetCounts(facet: facet, counted: facetEntries(facet, rows: rows), limit: query.facetLimit)
            }
            // A live index's changed listings are rows past this index's own, counted in its overlay.
            let baseRows = rows.filter { Int($0) < count }
            let overlayRows = rows.compactMap { Int($0) >= count ? $0 - Int32(count) : nil }
            return FacetCounts(facet: facet, counted: FacetCounts.merging(facetEntries(facet, rows: baseRows),
                                                                          overlay.facetEntries(facet, rows: overlayRows)),
                               limit: query.facetLimit)
        }
        matchedRows = []
        return result
    }

    /// One pass of `query` (validated): the result without facets, and when `collectsRows`, the rows
    /// that match every filter.
    func scan(_ query: SearchQuery, threads: Int, minimumRowsPerPart: Int,
              collectsRows: Bool, live: LiveParts? = nil) throws(QueryError) -> (SearchResult, [Int32]) {
        if let live { return try scan(query, threads: threads, minimumRowsPerPart: minimumRowsPerPart, collectsRows: collectsRows, live: live) }
        let plan = try ScanPlan(query, index: self)
        let ranges = plan.ranges, roomCode = plan.roomCode, filter = plan.filter
        let rowCount = plan.rowCount
        let values = UnsafeMutableBufferPointer<Int64>.allocate(capacity: max(1, rowCount))
        defer { values.deallocate() }
        // Room for every row that may match, when they are collected (a store per match, no array growth).
        let rowSlots = collectsRows ? UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, rowCount)) : nil
        defer { rowSlots?.deallocate() }
        let partCount = max(1, min(threads, rowCount / max(1, minimumRowsPerPart)))
        guard partCount > 1 else {
            var scan = Scan(index: self, query: query, roomCode: roomCode, filter: filter, values: values,
                            rowSlots: rowSlots?.baseAddress)
            for range in ranges { scan.visit(range) }
            return (result(of: query, values: UnsafeMutableBufferPointer(rebasing: values[0..<scan.valueCount]),
                           valueSum: scan.valueSum, bounds: scan.bounds, total: scan.total, page: scan.page.sorted()),
                    rowSlots.map { Array($0.prefix(scan.total)) } ?? [])
        }
        // Parts scanned at once; their values moved together, every collector merged.
        let parts = ScanParts(ranges: ranges, rowCount: rowCount, count: partCount)
        let scans = parts.scanInParallel(index: self, query: query, roomCode: roomCode, filter: filter, values: values,
                                         rowSlots: rowSlots)
        var matchedRows: [Int32] = []
        var valueCount = 0
        var valueSum: Int128 = 0
        var total = 0
        var bounds: ClosedRange<Int64>?
        var page: [RankedRow] = []
        for (scan, start) in zip(scans, parts.valueStarts) {
            if start != valueCount, scan.valueCount > 0 {
                (values.baseAddress! + valueCount).update(from: values.baseAddress! + start, count: scan.valueCount)
            }
            valueCount += scan.valueCount
            valueSum += scan.valueSum
            total += scan.total
            if let part = scan.bounds {
                bounds = bounds.map { min($0.lowerBound, part.lowerBound)...max($0.upperBound, part.upperBound) } ?? part
            }
            page += scan.page.sorted()
            if let rowSlots { matchedRows += rowSlots[start..<(start + scan.total)] }
        }
        page.sort()
        return (result(of: query, values: UnsafeMutableBufferPointer(rebasing: values[0..<valueCount]), valueSum: valueSum,
                       bounds: bounds, total: total, page: page, threads: partCount),
                matchedRows)
    }

    /// The answer from what the scan collected: the histogram of `values` (whose smallest and largest
    /// are `bounds`), and the page cut from `page` (the best rows, best first; rows past this index's own
    /// are rows of `overlay`); the histogram's passes over `values` use up to `threads` threads.
    func result(
        of query: SearchQuery, values: UnsafeMutableBufferPointer<Int64>, valueSum: Int128, bounds: ClosedRange<Int64>?,
        total: Int, page: [RankedRow], overlay: ListingIndex? = nil, threads: Int = 1
    ) -> SearchResult {
        let nights = Int64(query.nights ?? 1)
        let histogram = PriceHistogram.make(values: values, sum: valueSum, bounds: bounds, nights: nights, bins: query.bins,
                                            lo: query.histogramMinimum, hi: query.histogramMaximum, threads: threads)
        let flexibleNights = query.isFlexible ? query.nights : nil
        let matches = page.prefix(query.offset + query.limit).dropFirst(query.offset).map { ranked in
            var match: ListingMatch
            if let overlay, Int(ranked.row) >= count {
                match = overlay.match(row: Int(ranked.row) - count, value: ranked.value, nights: query.nights, near: query.near)
                match.row = Int(ranked.row)
            } else {
                match = self.match(row: Int(ranked.row), value: ranked.value, nights: query.nights, near: query.near)
            }
            if let flexibleNights {
                match.checkIn = firstDay.advanced(by: Int(ranked.checkIn))
                match.checkOut = firstDay.advanced(by: Int(ranked.checkIn) + flexibleNights)
            }
            return match
        }
        return SearchResult(total: total, nights: query.nights, matches: matches, histogram: histogram)
    }

    /// The fewest rows worth a thread of their own: below about this many, starting a thread costs more
    /// than it saves.
    static let rowsPerParallelPart = 32_768

    /// The match record of one row for a stay of `nights` (or none) whose price is `value`, with its
    /// distance from `near` when given.
    func match(row: Int, value: Int64, nights: Int?, near: GeoPoint? = nil) -> ListingMatch {
        let path = regionPath(ofRow: row)
        let rating = storage.ratings[row]
        return ListingMatch(
            row: row, id: storage.ids[row], name: names[row], region: path,
            roomType: roomTypeNames[Int(storage.roomTypes[row])], accommodates: Int(storage.accommodates[row]),
            nightlyPrice: Money.average(of: value, over: Int64(nights ?? 1)),
            totalPrice: nights == nil ? nil : Money(minorUnits: value),
            ratingHundredths: rating == ListingIndex.noRating ? nil : Int32(rating), reviewCount: storage.reviewCounts[row],
            latitude: latitude(ofRow: row), longitude: longitude(ofRow: row),
            distanceKilometres: near.map { $0.kilometres(to: GeoPoint(latitude: latitude(ofRow: row), longitude: longitude(ofRow: row))) })
    }
}

/// The state of one pass over candidate rows.
struct Scan {
    let index: ListingIndex
    let guests: Int
    let roomCode: Int
    let sort: SortOrder
    let pageSize: Int
    /// The stay as day offsets, or nil without dates; `isImpossible` when it leaves the calendar.
    let stayStart: Int
    let stayEnd: Int
    let hasDates: Bool
    let isImpossible: Bool
    let nights: Int64
    /// The weekday of the check-in day, 0 = Monday: the slot of weekly stay rule patterns.
    let checkInWeekday: Int
    /// Flexible dates: every check-in the stay may start on, as day offsets inside the calendar,
    /// earliest first (at most 62); empty for exact dates.
    let checkIns: [Int32]
    let isFlexible: Bool
    /// Flexible dates: for each check-in *k* and word of the current block, the rows bookable for the
    /// stay starting there (`stayBlocks[k × blockWords + word]`); `spanWords` is scratch for them.
    var stayBlocks: [UInt64] = []
    var spanWords: [UInt64] = []
    /// Flexible dates: for each weekday slot of the stay rule patterns, the check-ins that fall on it.
    var checkInsByWeekday: [UInt64] = []
    /// Flexible dates: whether the check-ins are consecutive days; scratch for each row's check-ins.
    var checkInsAreConsecutive = false
    /// Flexible dates with consecutive check-ins: whether a dense row's stays are found by one sliding sum
    /// over all the check-ins (rather than summed one by one), decided once for the query.
    var slidesConsecutiveStays = false
    var rowCheckIns: [UInt64] = []
    /// Flexible dates: what ``loadDensePricesAhead(ofWordAfter:)`` read, kept so that its loads stay.
    var loadedAhead: UInt16 = 0
    let lowestValue: Int64
    let highestValue: Int64

    /// The values of the rows that pass every filter but price, room for every row visited (owned by
    /// the caller).
    let values: UnsafeMutableBufferPointer<Int64>
    var tally = ScanTally()
    var valueSum: Int128 = 0
    var page: BoundedHeap<RankedRow>
    /// The sort key a row must not exceed to enter the full page; `Int64.max` until it is full.
    var pageCutoff = Int64.max
    var block: [UInt64]
    /// The columns read per candidate.
    let columns: ScanColumns
    /// The listing-detail filters.
    let filter: ListingFilter
    /// Where the rows that pass every filter go, one after another (for facets), when they are kept.
    let rowSlots: UnsafeMutablePointer<Int32>?

    static let blockWords = 64

    init(index: ListingIndex, query: SearchQuery, roomCode: Int, filter: ListingFilter, values: UnsafeMutableBufferPointer<Int64>,
         rowSlots: UnsafeMutablePointer<Int32>? = nil) {
        self.values = values
        self.filter = filter
        self.rowSlots = rowSlots
        self.index = index
        self.guests = query.guests
        self.roomCode = roomCode
        self.sort = query.sort
        self.pageSize = query.offset + query.limit
        self.page = BoundedHeap(capacity: query.offset + query.limit)
        if query.isFlexible, let nights = query.nights {
            let offsets = query.candidateCheckIns.map { index.firstDay.distance(to: $0) }
                .filter { $0 >= 0 && $0 + nights <= index.dayCount }
            checkIns = offsets.map { Int32($0) }
            isFlexible = true
            hasDates = true
            stayStart = offsets.first ?? 0
            stayEnd = stayStart + nights
            isImpossible = offsets.isEmpty
        } else if let checkIn = query.checkIn, let checkOut = query.checkOut {
            checkIns = []
            isFlexible = false
            hasDates = true
            stayStart = index.firstDay.distance(to: checkIn)
            stayEnd = index.firstDay.distance(to: checkOut)
            isImpossible = stayStart < 0 || stayEnd > index.dayCount
        } else {
            checkIns = []
            isFlexible = false
            hasDates = false
            stayStart = 0
            stayEnd = 1
            isImpossible = false
        }
        let nights = Int64(stayEnd - stayStart)
        self.nights = nights
        checkInWeekday = (index.stayRules.firstWeekday + max(0, stayStart)) % 7
        lowestValue = (query.minimumPrice?.minorUnits ?? 0) * nights
        if let maximum = query.maximumPrice { highestValue = maximum.minorUnits * nights } else { highestValue = Int64.max }
        block = [UInt64](repeating: 0, count: Scan.blockWords)
        columns = ScanColumns(index)
        if isFlexible, !isImpossible {
            stayBlocks = [UInt64](repeating: 0, count: checkIns.count * Scan.blockWords)
            spanWords = [UInt64](repeating: 0, count: (Int(checkIns.last!) - stayStart + Int(nights)) * Scan.blockWords)
            checkInsAreConsecutive = Int(checkIns.last!) - Int(checkIns[0]) == checkIns.count - 1
            slidesConsecutiveStays = checkIns.count * Int(nights) > checkIns.count - 1 + Int(nights)
            rowCheckIns = [UInt64](repeating: 0, count: 64)
            checkInsByWeekday = [UInt64](repeating: 0, count: 7)
            for (k, checkIn) in checkIns.enumerated() {
                checkInsByWeekday[(index.stayRules.firstWeekday + Int(checkIn)) % 7] |= 1 << UInt64(k)
            }
        }
    }

    /// How many values the scan has written.
    var valueCount: Int { tally.valueCount }

    /// How many rows passed every filter.
    var total: Int { tally.total }

    /// The smallest and largest value written, if any.
    var bounds: ClosedRange<Int64>? { tally.valueCount == 0 ? nil : tally.smallest...tally.largest }

    mutating func visit(_ range: Range<Int>) {
        guard !range.isEmpty, !isImpossible else { return }
        // For a stay, each rule class's verdict on it (on the stack: no allocation per query).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { verdicts in
            if isFlexible {
                // For flexible dates, each class's allowed check-ins (2 KiB, also on the stack).
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 256) { masks in
                    fillClassCheckIns(masks)
                    visit(range, stayVerdicts: UnsafePointer(verdicts.baseAddress!), classCheckIns: UnsafePointer(masks.baseAddress!))
                }
            } else {
                if hasDates { fillStayVerdicts(verdicts) }
                visit(range, stayVerdicts: UnsafePointer(verdicts.baseAddress!), classCheckIns: nil)
            }
        }
    }

    /// Sets `verdicts[c]` to 1 when stay rule class *c* allows the stay, 0 when it does not, and 2 for
    /// ``RuleClasses/checkRow`` (the row's rule runs decide).
    private func fillStayVerdicts(_ verdicts: UnsafeMutableBufferPointer<UInt8>) {
        verdicts.initialize(repeating: 0)
        let nights = Int(self.nights)
        for (ruleClass, value) in index.ruleClasses.values.enumerated() {
            var packed = value
            if let pattern = packed.patternIndex { packed = columns.rulePatterns[pattern &* 7 &+ checkInWeekday] }
            verdicts[ruleClass] = StayRule(packed: packed).allows(nights: nights) ? 1 : 0
        }
        verdicts[Int(RuleClasses.checkRow)] = 2
    }

    private mutating func visit(_ range: Range<Int>, stayVerdicts: UnsafePointer<UInt8>, classCheckIns: UnsafePointer<UInt64>?) {
        let firstWord = range.lowerBound >> 6
        let endWord = (range.upperBound + 63) >> 6
        var word = firstWord
        while word < endWord {
            let blockEnd = min(word + Scan.blockWords, endWord)
            if isFlexible { fillFlexibleCandidates(words: word..<blockEnd) } else { fillCandidates(words: word..<blockEnd) }
            keepGuestsAndRoomType(words: word..<blockEnd)
            if word == firstWord { block[0] &= ~0 << UInt64(range.lowerBound & 63) }
            if blockEnd == endWord, range.upperBound & 63 != 0 {
                block[blockEnd - word - 1] &= (1 << UInt64(range.upperBound & 63)) &- 1
            }
            for position in 0..<(blockEnd - word) where block[position] != 0 {
                if isFlexible {
                    visitFlexibleStays(word: word + position, position: position, candidates: block[position],
                                       classCheckIns: classCheckIns!)
                } else if hasDates {
                    visitStay(word: word + position, candidates: block[position], verdicts: stayVerdicts)
                } else {
                    visitWithoutDates(word: word + position, candidates: block[position])
                }
            }
            valueSum += Int128(tally.blockSum)
            tally.blockSum = 0
            word = blockEnd
        }
    }

    /// Considers the candidates of one word for a stay: listing filters, the check-in day's stay rule,
    /// then the stay's total. Everything the loop reads is taken into locals first and the counters are
    /// stored once per word, so that the compiler need not reload them from `self` (a row that enters the
    /// page is the only call out); non-flat calendars are priced through the scan's column pointers.
    /// (callgrind, 20 no-region queries on 1M calibrated listings: 669 → 563 million instructions.)
    /// - Parameter verdicts: each stay rule class's verdict on the stay (``fillStayVerdicts(_:)``).
    private mutating func visitStay(word: Int, candidates: UInt64, verdicts: UnsafePointer<UInt8>) {
        let checksDetails = filter.checksRows
        let columns = self.columns
        let values = self.values.baseAddress!
        let nights = self.nights, nightCount = Int(nights)
        let stayStart = self.stayStart, stayEnd = self.stayEnd, checkInWeekday = self.checkInWeekday
        let denseStart = stayStart &* columns.denseRows
        let lowest = lowestValue, highest = highestValue
        let rowSlots = self.rowSlots, pageSize = self.pageSize
        var valueCount = tally.valueCount, blockSum = tally.blockSum, total = tally.total
        var smallest = tally.smallest, largest = tally.largest
        var pageCutoff = self.pageCutoff
        let base = word << 6
        // The candidates whose stay rule allows the stay: a byte and a table load per row, no branch on
        // the verdict (a quarter of the rows refused at random mispredicted); a row whose rules change
        // over the year reads its runs.
        var bits: UInt64 = 0
        var rest = candidates
        while rest != 0 {
            let bit = rest.trailingZeroBitCount
            rest &= rest &- 1
            let verdict = verdicts[Int(columns.ruleClasses[base &+ bit])]
            if verdict > 1 {
                if Scan.allowsStay(row: base &+ bit, nights: nightCount, from: stayStart, weekday: checkInWeekday, columns: columns) {
                    bits |= 1 &<< UInt64(bit)
                }
            } else {
                bits |= UInt64(verdict) &<< UInt64(bit)
            }
        }
        while bits != 0 {
            let row = base &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            if checksDetails, !filter.passes(row: row) { continue }
            let first = Int(columns.priceOffsets[row])
            let reference = columns.priceValues[first]
            let value: Int64
            if let rank = reference.denseIndex {
                var code = columns.dense + (denseStart &+ rank)
                var units: Int64 = 0
                for _ in 0..<nightCount {
                    units &+= Int64(code.pointee)
                    code += columns.denseRows
                }
                value = units &* 100
            } else {
                let end = Int(columns.priceOffsets[row &+ 1])
                if reference >= 0, end &- first == 1 {
                    value = Int64(reference) &* nights          // one price all year
                } else {
                    value = columns.runPriceTotal(runs: first..<end, from: stayStart, to: stayEnd)
                }
            }
            // What ``collect(row:value:checkIn:into:)`` does, on the locals.
            values[valueCount] = value
            valueCount &+= 1
            blockSum &+= value
            smallest = min(smallest, value)
            largest = max(largest, value)
            guard value >= lowest, value <= highest else { continue }
            total &+= 1
            if let rowSlots { rowSlots[total &- 1] = Int32(truncatingIfNeeded: row) }
            guard pageSize > 0 else { continue }
            let key = key(row: row, value: value)
            guard key <= pageCutoff else { continue }
            pageCutoff = offerToPage(RankedRow(key: key, id: columns.ids[row], row: Int32(row), value: value))
        }
        tally.valueCount = valueCount
        tally.blockSum = blockSum
        tally.total = total
        tally.smallest = smallest
        tally.largest = largest
    }

    /// Offers `ranked` to the page; the key a row must not exceed to enter it from now on.
    @inline(never)
    private mutating func offerToPage(_ ranked: RankedRow) -> Int64 {
        page.offer(ranked)
        if let worst = page.largestWhenFull { pageCutoff = worst.key }
        return pageCutoff
    }

    /// Considers the candidates of one word without dates: listing filters, then the price without dates.
    private mutating func visitWithoutDates(word: Int, candidates: UInt64) {
        var tally = tally
        let base = word << 6
        var bits = candidates
        while bits != 0 {
            let row = base &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            guard passesDetailFilters(row: row) else { continue }
            collect(row: row, value: Int64(columns.basePrices[row]), into: &tally)
        }
        self.tally = tally
    }

    /// Whether row `row` passes the listing-detail filters that are tested row by row (the guests and
    /// room type were tested for the whole block by ``keepGuestsAndRoomType(words:)``).
    @inline(__always)
    func passesDetailFilters(row: Int) -> Bool {
        !filter.checksRows || filter.passes(row: row)
    }

    /// Narrows `block` (the candidates of `words`) to rows that take the guests and have the room type
    /// asked for, 64 rows a word without a branch per row.
    private mutating func keepGuestsAndRoomType(words: Range<Int>) {
        let rowCount = index.count
        let accommodates = columns.accommodates, roomTypes = columns.roomTypes
        let guests = self.guests, roomCode = self.roomCode
        block.withUnsafeMutableBufferPointer { block in
            for i in 0..<words.count where block[i] != 0 {
                let base = (words.lowerBound &+ i) &<< 6
                var mask: UInt64 = 0
                if base &+ 64 <= rowCount {
                    mask = ByteMasks.atLeast(guests, in: accommodates + base)
                    if roomCode >= 0 { mask &= ByteMasks.equal(to: roomCode, in: roomTypes + base) }
                } else {
                    // The last word: its bytes end with the column.
                    for bit in 0..<(rowCount &- base) where Int(accommodates[base &+ bit]) >= guests
                        && (roomCode < 0 || Int(roomTypes[base &+ bit]) == roomCode) {
                        mask |= 1 &<< UInt64(bit)
                    }
                }
                block[i] &= mask
            }
        }
    }

    /// Whether the stay rule of row `row` for a check-in on day offset `start` (weekday `weekday`, 0 =
    /// Monday, the slot of weekly patterns) allows a stay of `nights` nights.
    @inline(__always)
    static func allowsStay(row: Int, nights: Int, from start: Int, weekday: Int, columns: ScanColumns) -> Bool {
        var run = Int(columns.ruleOffsets[row])
        let end = Int(columns.ruleOffsets[row &+ 1])
        if end &- run > 1 { run = ScanColumns.run(holding: start, in: run..<end, starts: columns.ruleStarts) }
        var packed = columns.ruleValues[run]
        if let pattern = packed.patternIndex { packed = columns.rulePatterns[pattern &* 7 &+ weekday] }
        return StayRule(packed: packed).allows(nights: nights)
    }

    /// Puts into `block` the candidate bits of `words`: rows bookable for every night of the stay,
    /// or without dates, rows with a price without dates.
    private mutating func fillCandidates(words: Range<Int>) {
        let count = words.count
        let wordsPerDay = index.wordsPerDay
        block.withUnsafeMutableBufferPointer { block in
            if !hasDates {
                index.storage.pricedWithoutDates.withUnsafeBufferPointer { priced in
                    for i in 0..<count { block[i] = priced[words.lowerBound + i] }
                }
            } else {
                index.storage.bookable.withUnsafeBufferPointer { bookable in
                    var start = stayStart * wordsPerDay + words.lowerBound
                    for i in 0..<count { block[i] = bookable[start + i] }
                    for _ in (stayStart + 1)..<max(stayStart + 1, stayEnd) {
                        start += wordsPerDay
                        for i in 0..<count { block[i] &= bookable[start + i] }
                    }
                }
            }
            for set in filter.bitSets {
                let words = set + words.lowerBound
                for i in 0..<count { block[i] &= words[i] }
            }
        }
    }

    /// Keeps the value of a row that passes every filter but price for the histogram, and counts and
    /// offers it to the page when its price is in range.
    @inline(__always)
    mutating func collect(row: Int, value: Int64, checkIn: Int32 = 0, into tally: inout ScanTally) {
        values[tally.valueCount] = value
        tally.valueCount &+= 1
        tally.blockSum &+= value
        tally.smallest = min(tally.smallest, value)
        tally.largest = max(tally.largest, value)
        guard value >= lowestValue, value <= highestValue else { return }
        tally.total &+= 1
        if let rowSlots { rowSlots[tally.total &- 1] = Int32(truncatingIfNeeded: row) }
        let key = key(row: row, value: value)
        guard key <= pageCutoff, pageSize > 0 else { return }
        page.offer(RankedRow(key: key, id: columns.ids[row], row: Int32(row), value: value, checkIn: checkIn))
        if let worst = page.largestWhenFull { pageCutoff = worst.key }
    }

    private func key(row: Int, value: Int64) -> Int64 {
        switch sort {
        case .price: return value
        case .priceDescending: return -value
        case .rating: return -((Int64(columns.ratings[row]) + 1) << 32 | Int64(columns.reviewCounts[row]))
        case .reviews: return -Int64(columns.reviewCounts[row])
        case .distance: return Int64(bitPattern: filter.distance(row: row).bitPattern)   // ≥ 0: bits order as values
        }
    }
}
