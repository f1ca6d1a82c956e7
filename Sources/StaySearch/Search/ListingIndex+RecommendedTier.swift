import StaySearchKernels

extension ListingIndex {
    /// Whether the `recommended` page of `query` may be ranked from the upper tier of its matches
    /// (``recommendedPageByTier(_:kept:count:outcome:values:)``): exact dates or none, and no point or box to
    /// be near (nearness would widen the bound by its own 20 points), a scan that counts its values into
    /// price slots (`countsSlots`) rather than keeping them, and every price of the index in whole units, so
    /// that the slots tell the median. (A smaller scan keeps every value for the histogram anyway, and its
    /// region's tier is often too thin to tell the page: about three in five of the mix's smaller scans
    /// were scanned again when it was tried.)
    package func canRankRecommendedByTier(_ query: SearchQuery, countsSlots: Bool) -> Bool {
        countsSlots && !query.isFlexible && RecommendedScore.centre(of: query) == nil && valuesAreWholeUnits(query)
    }

    /// Works out ahead what the `recommended` order reads of every row (each row's quality part of the score,
    /// 4 bytes a row, about 20 ms a million rows; the upper tier of qualities; whether every price is in whole
    /// units), so that the first such search does not pay for it.
    public func prepareRecommendedOrder() {
        _ = recommendedTier()
        _ = pricesAreWholeUnits
    }

    /// The tier of rows a `recommended` scan keeps: the best tenth by quality with the frozen cities' means
    /// (``QualityCache/tierShare``).
    func recommendedTier() -> QualityTier {
        qualityCache.frozenTier(makeFrozen: frozenQualities)
    }

    /// Whether every price the index holds — price runs, weekly patterns, listing prices, prices without
    /// dates, wide prices; day codes are whole units by construction — is a multiple of 100 minor units, so that every
    /// stay's total is too. Worked out once per index.
    var pricesAreWholeUnits: Bool {
        wholeUnitPrices.get {
            func whole(_ column: Column<Int32>) -> Bool {
                column.withUnsafeBufferPointer { values in
                    values.allSatisfy { $0 < 0 || $0 >= WidePrices.firstReference || $0 % 100 == 0 }
                }
            }
            return whole(storage.priceRunValues) && whole(storage.pricePatterns) && whole(storage.listingPrices)
                && whole(storage.basePrices) && storage.widePrices.withUnsafeBufferPointer { $0.allSatisfy { $0 % 100 == 0 } }
        }
    }

    /// Whether every value a scan of `query` writes is a multiple of 100 minor units: every price in whole
    /// units, and no trip price (fees or a service fee) with dates.
    func valuesAreWholeUnits(_ query: SearchQuery) -> Bool {
        pricesAreWholeUnits && !pricesIncludeFees(query)
    }

    /// The `recommended` page of `query` from the matches of the upper tier a scan kept (`count` of them in
    /// `kept`) and what it counted of every match (`outcome`: their number and price slots), or nil when
    /// these cannot tell it.
    ///
    /// A match's score is its quality plus a price part of at most ``RecommendedScore/pricePoints`` (no
    /// nearness here), so a row below the tier's threshold scores at most threshold − 1 + pricePoints.
    /// When the page ranked from the tier alone is full and its worst score is above that, no row outside
    /// the tier could enter it: it is the page of every match. The price part needs the median of every
    /// match: read from the price slots (``PriceSlots/median(matches:from:through:counts:bounds:wholeUnits:)``),
    /// or selected among `values`, every match's value, when the scan kept them.
    /// The tier's matches are ranked in one pass with their qualities beside them; once the page is full,
    /// a match whose quality with the whole price part cannot reach it is passed over without a division.
    func recommendedPageByTier(_ query: SearchQuery, kept: KeptMatches, count: Int, outcome: ScanOutcome,
                               values: UnsafeBufferPointer<Int64>?, threads: Int) -> [RankedRow]? {
        let pageSize = query.offset + query.limit
        guard count >= pageSize, let smallest = outcome.bounds?.lowerBound else { return nil }
        let nights = Int64(query.nights ?? 1)
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * nights
        let highest = query.maximumPrice.map { $0.minorUnits * nights } ?? Int64.max
        let median: Int64?
        if let values {
            median = ListingIndex.median(of: values, from: lowest, through: highest, threads: threads)
        } else if let counted = outcome.countedSlots {
            median = counted.slots.median(matches: outcome.total, from: lowest, through: highest, counts: counted.counts,
                                          between: counted.between, bounds: counted.bounds, wholeUnits: true)
        } else {
            median = nil
        }
        guard let median else { return nil }
        let ids = storage.ids.base
        var page = BoundedHeap<RankedRow>(capacity: pageSize)
        var needed = Int64.min, cutoff = Int64.max
        let positions = UnsafeMutablePointer<Int32>.allocate(capacity: ListingIndex.candidateChunk)
        defer { positions.deallocate() }
        // Chunks that grow from the page's size: the page fills from few matches, and each chunk is tested
        // against what the page needs after the one before (the first, tested against nothing, offers all).
        var start = 0, chunkSize = max(1, min(pageSize, ListingIndex.candidateChunk))
        // The kernel's products are exact when the median and every kept value are below 2^31.
        let exactInKernel = median > 0 && median < 1 << 31 && min(highest, outcome.bounds?.upperBound ?? Int64.max) < 1 << 31
        while start < count {
            let chunk = min(chunkSize, count - start)
            chunkSize = min(2 * chunkSize, ListingIndex.candidateChunk)
            let found = exactInKernel && needed > -(1 << 30) && needed < 1 << 30
                ? staysearch_tier_candidates(kept.qualities + start, kept.values + start, chunk, Int32(needed), median,
                                             Int32(RecommendedScore.pricePoints), positions)
                : ListingIndex.tierCandidates(qualities: kept.qualities + start, values: kept.values + start, count: chunk,
                                              needed: needed, median: median, into: positions)
            for k in 0..<found {
                let position = start + Int(positions[k])
                let value = kept.values[position], row = kept.rows[position]
                let score = Int64(kept.qualities[position]) + RecommendedScore.price(value: value, median: median)
                // The id (a load from anywhere in the column) only for a score the page may take.
                guard -score <= cutoff else { continue }
                page.offer(RankedRow(key: -score, id: ids[Int(row)], row: row, value: value))
                if let worst = page.largestWhenFull {
                    cutoff = worst.key
                    needed = -cutoff - RecommendedScore.pricePoints
                }
            }
            start += chunk
        }
        let ranked = page.sorted()
        // The most a match's price part can be: that of the least value in the range (the part falls as
        // the value rises), pricePoints without a lower end.
        let mostPricePart = RecommendedScore.price(value: max(lowest, smallest), median: median)
        guard ranked.count == pageSize, let worst = ranked.last,
              -worst.key > Int64(kept.threshold) - 1 + mostPricePart else { return nil }
        return withExtendedLifetime(self) { ranked }
    }

    /// The `recommended` page of `query` ranked from every match the scan's parts kept beside the tier
    /// (``KeptMatches``: `counts[p]` by part `p`, from `p` × ``KeptMatches/everyCapacity``), or nil when a
    /// part had more than it keeps. The parts' matches are moved side by side to the front (row order) and
    /// ranked as a smaller scan's are, the median from the price slots the scan counted when they tell it.
    func recommendedPageFromEveryMatch(_ query: SearchQuery, kept: KeptMatches, counts: [Int], outcome: ScanOutcome,
                                       threads: Int) -> [RankedRow]? {
        guard !counts.isEmpty, counts.allSatisfy({ $0 <= kept.everyCapacity }) else { return nil }
        var count = 0
        for (part, partCount) in counts.enumerated() {
            let start = part * kept.everyCapacity
            if start != count {
                (kept.everyValues + count).update(from: kept.everyValues + start, count: partCount)
                (kept.everyRows + count).update(from: kept.everyRows + start, count: partCount)
            }
            count += partCount
        }
        guard count == outcome.total else { return nil }
        guard count > 0 else { return [] }
        var sum: Int64 = 0, smallest = Int64.max, largest = Int64.min
        staysearch_fold(kept.everyValues, count, &sum, &smallest, &largest)
        let slots = ValueRowSlots(rows: kept.everyRows, checkIns: nil, capacity: count)
        return recommendedPage(query, values: UnsafeBufferPointer(start: kept.everyValues, count: count), matches: count,
                               bounds: smallest...largest, slots: slots, priceSlots: outcome.countedSlots, overlay: nil,
                               hiddenRatings: nil, threads: threads)
    }

    /// The positions below `count` (ascending) of the matches whose quality `qualities[i]` with the most their
    /// price `values[i]` can add reaches `needed` + pricePoints, the score the page needs (all of them when
    /// `needed` is `Int64.min`): the price part is at most pricePoints × (median − value) ÷ median, plus up to
    /// one for the truncation toward zero of a negative one. One compare a match, rarely true once the page
    /// is full, in a loop of its own so that its state stays in registers (the same test beside the page's
    /// offers ran at about 10 cycles a match).
    @inline(never)
    static func tierCandidates(qualities: UnsafePointer<Int32>, values: UnsafePointer<Int64>, count: Int, needed: Int64,
                               median: Int64, into positions: UnsafeMutablePointer<Int32>) -> Int {
        var found = 0
        if needed == Int64.min {
            for i in 0..<count { positions[i] = Int32(i) }
            return count
        }
        let points = RecommendedScore.pricePoints
        for i in 0..<count {
            let quality = Int64(qualities[i])
            // The price part is never below −pricePoints: a quality 2 × pricePoints above what is needed
            // reaches the page whatever the price.
            let reaches = median > 0
                ? (quality &- needed &+ 1) &* median >= points &* values[i] || quality &- needed >= 2 &* points
                : quality >= needed
            positions[found] = Int32(truncatingIfNeeded: i)
            found &+= reaches ? 1 : 0
        }
        return found
    }
}
