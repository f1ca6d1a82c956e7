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

    /// Runs a query with at most `threads` parts of at least `minimumRowsPerPart` rows each, counting
    /// price slots for the histogram from `minimumRowsForPriceSlots` rows, and answering a query that needs
    /// nothing but the prices without dates from their order from `minimumRowsForUndatedOrder` rows (tests
    /// cut small data into parts, count its slots and read its order with these).
    package func search(_ query: SearchQuery, threads: Int, minimumRowsPerPart: Int,
                        minimumRowsForPriceSlots: Int = PriceSlotTables.minimumRows,
                        minimumRowsForUndatedOrder: Int = ListingIndex.minimumRowsForUndatedOrder,
                        live: LiveParts? = nil) throws(QueryError) -> SearchResult {
        try query.validate()
        if live == nil, count >= minimumRowsForUndatedOrder, query.dependsOnlyOnPricesWithoutDates {
            // Every row's price is fixed without dates: once their order is at hand, the answer is read off it.
            let plan = try ScanPlan(query, index: self)
            let prices = undatedPrices(from: query.today.map { firstDay.distance(to: $0) } ?? 0)
            if let population = undatedPopulation(guests: query.guests, roomCode: plan.roomCode, prices: prices, ahead: false),
               let result = undatedResult(of: query, population: population) {
                return result
            }
        }
        let facets = query.facets
        let split = PartSplit(threads: threads, minimumRowsPerPart: minimumRowsPerPart, minimumRowsForPriceSlots: minimumRowsForPriceSlots)
        var (result, matchedRows) = try scan(query, split: split, collectsRows: !facets.isEmpty, live: live) { outcome, values in
            self.result(of: query, outcome: outcome, values: values, overlay: live?.overlay)
        }
        guard !facets.isEmpty else { return result }
        // A facet whose own filter is set counts over the matches of the query without it: one more scan.
        var rowsByFacet: [Facet: [Int32]] = [:]
        for facet in facets where facet.isFiltered(in: query) && rowsByFacet[facet] == nil {
            rowsByFacet[facet] = try matchingRows(facet.clearingFilter(of: query), split: split, live: live)
        }
        result.facets = facets.map { facet in
            let rows = rowsByFacet[facet] ?? matchedRows
            guard let overlay = live?.overlay else {
                return FacetCounts(facet: facet, tieOrdered: facetEntries(facet, rows: rows), limit: query.facetLimit)
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

    /// The rows that match every filter of `query` (validated), in row order (overlay rows numbered from
    /// ``count`` on): a scan that keeps no page and builds no histogram.
    func matchingRows(_ query: SearchQuery, split: PartSplit, live: LiveParts?) throws(QueryError) -> [Int32] {
        var noPage = query
        noPage.limit = 0
        noPage.offset = 0
        return try scan(noPage, split: split, collectsRows: true, live: live) { _, _ in }.rows
    }

    /// One pass of `query` (validated) over this index, or over a live index's visible rows and overlay:
    /// hands what it collected and the values buffer (valid only during the call) to `use`, and returns
    /// what `use` made of them with the rows that match every filter (when `collectsRows`).
    func scan<Answer>(_ query: SearchQuery, split: PartSplit, collectsRows: Bool, live: LiveParts?,
                      _ use: (ScanOutcome, UnsafeMutableBufferPointer<Int64>) -> Answer) throws(QueryError) -> (answer: Answer, rows: [Int32]) {
        if let live { return try scanWithOverlay(query, split: split, collectsRows: collectsRows, live: live, use) }
        return try scanFrozen(query, split: split, collectsRows: collectsRows, use)
    }

    /// ``scan(_:split:collectsRows:live:_:)`` over this frozen index alone. With `byTier`, a `recommended`
    /// query keeps only its upper tier's matches beside its values
    /// (``recommendedPageByTier(_:kept:count:outcome:values:threads:)``), and is scanned again keeping
    /// every match when the tier cannot tell the page.
    private func scanFrozen<Answer>(_ query: SearchQuery, split: PartSplit, collectsRows: Bool, byTier: Bool = true,
                                    _ use: (ScanOutcome, UnsafeMutableBufferPointer<Int64>) -> Answer) throws(QueryError) -> (answer: Answer, rows: [Int32]) {
        let plan = try ScanPlan(query, index: self)
        let rowCount = plan.rowCount
        let partCount = split.parts(of: rowCount)
        let slotTables = PriceSlotTables(query: query, rows: rowCount, parts: partCount, index: self, minimumRows: split.minimumRowsForPriceSlots)
        defer { slotTables?.giveBack() }
        let ranksRecommended = query.sort == .recommended && query.limit > 0
        let tier = byTier && ranksRecommended && canRankRecommendedByTier(query, countsSlots: slotTables != nil) ? recommendedTier() : nil
        // The recommended order ranks the matches after the scan: it keeps every value with its row (and
        // counts them into price slots too, for the histogram and the median), or only its upper tier's.
        let valueRows = ranksRecommended && tier == nil ? ValueRowSlots.allocate(capacity: rowCount, withCheckIns: query.isFlexible) : nil
        defer { valueRows?.deallocate() }
        let keepsValues = slotTables == nil || valueRows != nil
        let values = keepsValues ? ScratchPool.shared.take(Int64.self, count: rowCount) : UnsafeMutableBufferPointer(start: nil, count: 0)
        defer { if keepsValues { ScratchPool.shared.giveBack(values) } }
        // The tier's matches: at most its rows.
        let keptCapacity = tier?.qualities.count ?? 0
        let keptValues = tier == nil ? nil : ScratchPool.shared.take(Int64.self, count: keptCapacity)
        let keptRows = tier == nil ? nil : ScratchPool.shared.take(Int32.self, count: keptCapacity)
        let keptQualities = tier == nil ? nil : ScratchPool.shared.take(Int32.self, count: keptCapacity)
        // Each part's first matches of every row.
        let everyValues = tier == nil ? nil : ScratchPool.shared.take(Int64.self, count: partCount * KeptMatches.everyCapacity)
        let everyRows = tier == nil ? nil : ScratchPool.shared.take(Int32.self, count: partCount * KeptMatches.everyCapacity)
        defer {
            keptValues.map { ScratchPool.shared.giveBack($0) }
            keptRows.map { ScratchPool.shared.giveBack($0) }
            keptQualities.map { ScratchPool.shared.giveBack($0) }
            everyValues.map { ScratchPool.shared.giveBack($0) }
            everyRows.map { ScratchPool.shared.giveBack($0) }
        }
        // Room for every row that may match, when they are collected (a store per match, no array growth).
        let rowSlots = collectsRows ? ScratchPool.shared.take(Int32.self, count: rowCount) : nil
        defer { rowSlots.map { ScratchPool.shared.giveBack($0) } }
        return try withExtendedLifetime(tier) { () throws(QueryError) -> (answer: Answer, rows: [Int32]) in
            let kept = tier.map { tier in
                KeptMatches(tierWords: tier.words.withUnsafeBufferPointer { $0.baseAddress! },
                            tierRanks: tier.ranks.withUnsafeBufferPointer { $0.baseAddress! },
                            tierQualities: tier.qualities.withUnsafeBufferPointer { $0.baseAddress! }, threshold: tier.threshold,
                            values: keptValues!.baseAddress!, rows: keptRows!.baseAddress!, qualities: keptQualities!.baseAddress!,
                            everyValues: everyValues!.baseAddress!, everyRows: everyRows!.baseAddress!,
                            tierEnough: 4 * (query.offset + query.limit))
            }
            var outcome: ScanOutcome
            var keptCount = 0
            // How many matches of every row each part kept (past the capacity when they did not fit).
            var everyCounts: [Int] = []
            if partCount > 1 {
                // Parts scanned at once, every collector merged.
                let parts = ScanParts(ranges: plan.ranges, rowCount: rowCount, count: partCount)
                // Where each part keeps its tier's matches: after the tier rows of the parts before it.
                let tierStarts = tier.map { tier in parts.ranges.map { ranges in tier.rank(ofRow: ranges.first?.lowerBound ?? 0) } } ?? []
                let tierFirst = tierStarts.first ?? 0
                let scans = parts.scanInParallel(index: self, query: query, roomCode: plan.roomCode, filter: plan.filter, values: values,
                                                 rowSlots: rowSlots, valueRows: valueRows, slotTables: slotTables,
                                                 kept: kept, keptStarts: tierStarts.map { $0 - tierFirst })
                outcome = ScanOutcome(merging: zip(scans, parts.valueStarts).map { ScanOutcome.Part(scan: $0, start: $1) },
                                      values: values, rowSlots: rowSlots, valueRows: valueRows, threads: partCount)
                if let kept {
                    // Each part's tier side by side at the front.
                    for (scan, start) in zip(scans, tierStarts.map { $0 - tierFirst }) {
                        if start != keptCount {
                            (kept.values + keptCount).update(from: kept.values + start, count: scan.keptCount)
                            (kept.rows + keptCount).update(from: kept.rows + start, count: scan.keptCount)
                            (kept.qualities + keptCount).update(from: kept.qualities + start, count: scan.keptCount)
                        }
                        keptCount += scan.keptCount
                    }
                    everyCounts = scans.map(\.everyCount)
                }
            } else {
                var scan = Scan(index: self, query: query, roomCode: plan.roomCode, filter: plan.filter, values: values,
                                rowSlots: rowSlots?.baseAddress, valueRows: valueRows, slotTables: slotTables, kept: kept)
                scan.visit(plan.ranges)
                outcome = ScanOutcome(scan, rowSlots: rowSlots)
                keptCount = scan.keptCount
                if kept != nil { everyCounts = [scan.everyCount] }
            }
            if let kept {
                if keepsValues { outcome.gatherValues(in: values) }
                let every = keepsValues ? UnsafeBufferPointer(rebasing: values[0..<outcome.valueCount]) : nil
                if let page = recommendedPageByTier(query, kept: kept, count: keptCount, outcome: outcome, values: every,
                                                    threads: split.threads) {
                    TierOutcomes.shared.answered.add(1, ordering: .relaxed)
                    outcome.page = page
                } else if let page = recommendedPageFromEveryMatch(query, kept: kept, counts: everyCounts, outcome: outcome,
                                                                   threads: split.threads) {
                    TierOutcomes.shared.rankedFromEveryMatch.add(1, ordering: .relaxed)
                    outcome.page = page
                } else {
                    TierOutcomes.shared.scannedAgain.add(1, ordering: .relaxed)
                    return try scanFrozen(query, split: split, collectsRows: collectsRows, byTier: false, use)
                }
            } else if let valueRows {
                outcome.gatherValues(in: values)
                let kept = UnsafeBufferPointer(rebasing: values[0..<outcome.valueCount])
                let median = medianWithHistogramEnd(query, outcome: &outcome, values: kept, wholeUnits: valuesAreWholeUnits(query))
                outcome.page = recommendedPage(query, values: kept, matches: outcome.total, bounds: outcome.bounds, slots: valueRows,
                                               priceSlots: outcome.countedSlots, knownMedian: median, overlay: nil, hiddenRatings: nil,
                                               threads: split.threads)
            }
            if slotTables != nil, !outcome.countHistogram(of: query), !keepsValues {
                // The slots could not tell the histogram, and the values were not kept: the scan again, keeping them.
                var keeping = split
                keeping.minimumRowsForPriceSlots = Int.max
                return try scanFrozen(query, split: keeping, collectsRows: collectsRows, use)
            }
            return (use(outcome, values), outcome.matchedRows)
        }
    }

    /// The answer from what the scan collected: the histogram the outcome counted, or else that of its
    /// values (the front of `values` once gathered), and the page cut from its best rows (rows past this
    /// index's own are rows of `overlay`); the histogram's passes over the values use as many threads as
    /// the scan did.
    func result(of query: SearchQuery, outcome: ScanOutcome, values: UnsafeMutableBufferPointer<Int64>,
                overlay: ListingIndex? = nil) -> SearchResult {
        let page = outcome.page
        let nights = Int64(query.nights ?? 1)
        var histogram: PriceHistogram
        if let counted = outcome.histogram {
            histogram = counted
        } else {
            var outcome = outcome
            outcome.gatherValues(in: values)
            histogram = PriceHistogram.make(values: UnsafeMutableBufferPointer(rebasing: values[0..<outcome.valueCount]),
                                            sum: outcome.valueSum, bounds: outcome.bounds, nights: nights, bins: query.bins,
                                            lo: query.histogramMinimum, hi: query.histogramMaximum, threads: outcome.threads,
                                            defaultHighUnits: outcome.defaultHighUnits)
        }
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
        return SearchResult(total: outcome.total, nights: query.nights, matches: matches, histogram: histogram)
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
