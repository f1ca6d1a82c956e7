import StaySearchKernels

extension ListingIndex {
    /// The page of the `recommended` order: every match (a value kept by the scan whose price is in the
    /// query's range, with its row beside it in `slots`) scored by ``RecommendedScore`` against the median
    /// of the matches' prices, best first, ties by id.
    ///
    /// The median comes from the price slots the scan counted, when they tell it (else by selection over a
    /// copy of the matches' prices); then one pass offers the matches to a bounded heap. Each frozen row's
    /// quality part is read from a column worked out once per index (``QualityCache``): once the page is
    /// full, a match whose quality with the most its price part can add (bounded without a division) and
    /// the most nearness can add cannot enter it is passed over at once, eight at a time in AVX2
    /// (`staysearch_quality_candidates`), without its price part's division or its distance.
    /// - Parameters:
    ///   - matches: how many of `values` are in the query's price range.
    ///   - bounds: the smallest and largest of `values`.
    ///   - priceSlots: the slot counts of every kept value and their bounds, when the scan counted them.
    ///   - overlay: a live index's changed listings (rows from ``count`` on are its rows).
    ///   - hiddenRatings: the ratings of frozen rows a live index hides, by city (negative tallies).
    ///   - knownMedian: the median of every match's price, when the caller knows it (`values` then need not
    ///     hold every match).
    ///   - threads: how many threads the median and the scores may use (parts of at least 65,536 values).
    func recommendedPage(_ query: SearchQuery, values: UnsafeBufferPointer<Int64>, matches: Int, bounds: ClosedRange<Int64>?, slots: ValueRowSlots,
                         priceSlots: (slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64], bounds: ClosedRange<Int64>)? = nil,
                         knownMedian: Int64? = nil, overlay: ListingIndex?, hiddenRatings: [String: RatingTally]?,
                         threads: Int = 1) -> [RankedRow] {
        let pageSize = query.offset + query.limit
        guard pageSize > 0, !values.isEmpty else { return [] }
        let nights = Int64(query.nights ?? 1)
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * nights
        let highest = query.maximumPrice.map { $0.minorUnits * nights } ?? Int64.max
        guard let median = knownMedian ?? priceSlots.flatMap({ $0.slots.median(of: values, matches: matches, from: lowest, through: highest,
                                                                 counts: $0.counts, between: $0.between, bounds: $0.bounds,
                                                                 threads: threads) })
                ?? ListingIndex.median(of: values, from: lowest, through: highest, matches: query.isFlexible ? nil : matches,
                                       bounds: query.isFlexible ? nil : bounds,
                                       wholeUnits: overlay == nil && valuesAreWholeUnits(query), threads: threads) else { return [] }

        // Each city's mean rating as the listings are now: the frozen rows', less the hidden ones', plus the
        // overlay's.
        var tallies = cityRatings
        var touched = Set<String>()
        for (city, tally) in hiddenRatings ?? [:] {
            tallies[city, default: RatingTally()].sum += tally.sum
            tallies[city, default: RatingTally()].count += tally.count
            touched.insert(city)
        }
        for (city, tally) in overlay?.cityRatings ?? [:] {
            tallies[city, default: RatingTally()].sum += tally.sum
            tallies[city, default: RatingTally()].count += tally.count
            touched.insert(city)
        }
        var changedMeans: [String: Int64] = [:]
        for city in touched {
            let mean = tallies[city]?.meanHundredths ?? 0
            if mean != cityRatings[city]?.meanHundredths ?? 0 { changedMeans[city] = mean }
        }
        let qualities = qualities(changedMeans: changedMeans)
        let overlayMeans = overlay?.meanRatingByNode(tallies) ?? [0]
        let centre = RecommendedScore.centre(of: query)
        // The most the price and nearness parts add to a match's quality.
        let mostAdded = RecommendedScore.pricePoints + (centre == nil ? 0 : RecommendedScore.nearnessPoints)
        // The median the candidates' kernel bounds each match's price part with (0: quality alone), when its
        // products are exact: the median and every value in the range below 2^31.
        let boundingMedian = median > 0 && median < 1 << 31 && min(highest, bounds?.upperBound ?? Int64.max) < 1 << 31 ? median : 0

        let parts = ParallelPasses.partCount(values: values.count, threads: threads)
        let pages = PartPages(count: parts)
        qualities.withUnsafeBufferPointer { qualities in
            overlayMeans.withUnsafeBufferPointer { overlayMeans in
                // Plain pointers into both indexes' columns, taken once: nothing is retained per match.
                let base = RecommendedColumns(self, qualities: qualities.baseAddress!, cityMeans: nil)
                let changed = overlay.map { RecommendedColumns($0, qualities: nil, cityMeans: overlayMeans.baseAddress!) } ?? base
                let rowCount = count
                let shared = KeptValues(buffer: values)
                ParallelPasses.run(parts: parts) { part in
                    let values = shared.buffer
                    var page = BoundedHeap<RankedRow>(capacity: pageSize)
                    var cutoff = Int64.max
                    // The least quality a match needs to enter the page, when full: its key is −score.
                    var needed = Int64.min
                    let rows = slots.rows, frozenQualities = base.qualities!
                    let stretch = ParallelPasses.stretch(part, of: parts, count: values.count)
                    let positions = UnsafeMutablePointer<Int32>.allocate(capacity: ListingIndex.candidateChunk)
                    defer { positions.deallocate() }
                    // Chunks that grow from the page's size: the first (tested against nothing) offers all
                    // its matches to the page, the next ones are tested against what it needs by then (a
                    // first chunk of 512 cost about 60 µs a query of its offers).
                    var start = stretch.lowerBound, chunkSize = max(1, min(pageSize, ListingIndex.candidateChunk))
                    while start < stretch.upperBound {
                        let chunk = min(chunkSize, stretch.upperBound - start)
                        chunkSize = min(2 * chunkSize, ListingIndex.candidateChunk)
                        // One less than needed: the price part truncates toward zero, so it may lie up to one
                        // above the kernel's bound (quality − needed) × median ÷ median when negative.
                        let kernelNeeded = needed == Int64.min ? Int32.min : Int32(clamping: needed - 1)
                        // The chunk's matches in the price range whose quality may enter the page (rows of the
                        // overlay are all taken); the least quality needed may rise while they are scored.
                        let found = staysearch_quality_candidates(values.baseAddress! + start, rows + start, chunk, frozenQualities,
                                                                    Int32(rowCount), lowest, highest, kernelNeeded,
                                                                    boundingMedian, Int32(RecommendedScore.pricePoints), positions)
                        start += chunk
                        for position in 0..<found {
                            let slot = start - chunk + Int(positions[position])
                            let value = values[slot]
                            let row = Int(rows[slot])
                            let quality = row < rowCount ? Int64(frozenQualities[row]) : changed.quality(row: row - rowCount)
                            guard quality >= needed else { continue }
                            let (columns, indexRow) = row < rowCount ? (base, row) : (changed, row - rowCount)
                            var score = quality + RecommendedScore.price(value: value, median: median)
                            if let centre {
                                guard -(score + RecommendedScore.nearnessPoints) <= cutoff else { continue }
                                let point = GeoPoint(latitude: Double(columns.latitudes[indexRow]) / 1e7,
                                                     longitude: Double(columns.longitudes[indexRow]) / 1e7)
                                score += RecommendedScore.nearness(metres: Int64((centre.kilometres(to: point) * 1000).rounded(.down)))
                            }
                            guard -score <= cutoff else { continue }
                            page.offer(RankedRow(key: -score, id: columns.ids[indexRow], row: Int32(row), value: value,
                                                 checkIn: slots.checkIns?[slot] ?? 0))
                            if let worst = page.largestWhenFull {
                                cutoff = worst.key
                                needed = -cutoff - mostAdded
                            }
                        }
                    }
                    pages.store(page.sorted(), at: part)
                }
            }
        }
        return withExtendedLifetime(overlay) {
            parts == 1 ? pages.pages[0] : Array(pages.pages.joined().sorted().prefix(pageSize))
        }
    }

    /// The lower median of the matches' prices for the `recommended` page of `query`, found with the
    /// histogram's default high end (kept in `outcome`) by one counting pass over the kept values `values`
    /// (``PriceHistogram/defaultHighUnits(_:bounds:unit:threads:valueAtRank:wholeUnits:)``): the median is
    /// the value at rank (values below the price range) + (matches − 1) ÷ 2 of them all. Nil, and nothing
    /// kept, when the scan counted price slots (they tell the median themselves), for flexible dates, or
    /// when the histogram's high end is asked for.
    /// - Parameter wholeUnits: every value is a multiple of 100 minor units.
    func medianWithHistogramEnd(_ query: SearchQuery, outcome: inout ScanOutcome, values: UnsafeBufferPointer<Int64>,
                                wholeUnits: Bool) -> Int64? {
        guard outcome.countedSlots == nil, !query.isFlexible, query.histogramMaximum == nil, outcome.total > 0,
              !values.isEmpty, let bounds = outcome.bounds, bounds.lowerBound >= 0 else { return nil }
        let nights = Int64(query.nights ?? 1)
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * nights
        let below = lowest > bounds.lowerBound ? staysearch_count_in_range(values.baseAddress!, values.count, Int64.min, lowest - 1) : 0
        let (units, median) = PriceHistogram.defaultHighUnits(values, bounds: bounds, unit: nights * 100, threads: outcome.threads,
                                                              valueAtRank: below + (outcome.total - 1) / 2, wholeUnits: wholeUnits)
        outcome.defaultHighUnits = units
        return median
    }

    /// The lower median of the values of `values` from `lowest` through `highest`; nil when none is in the
    /// range. One thread: by the values' leading bits (``RadixSelection``: for the 17,470 matches of a
    /// neighbourhood's query without dates, 88 µs by quickselect's buckets and 23 µs so); more: by selection over a
    /// copy of them, its passes shared by the threads.
    static func median(of values: UnsafeBufferPointer<Int64>, from lowest: Int64, through highest: Int64,
                       matches: Int? = nil, bounds: ClosedRange<Int64>? = nil, wholeUnits: Bool = false, threads: Int) -> Int64? {
        if threads == 1 || values.count < 2 * ParallelPasses.minimumPerPart {
            return RadixSelection.lowerMedian(of: values, from: lowest, through: highest, count: matches, bounds: bounds,
                                              wholeUnits: wholeUnits)
        }
        let prices = ScratchPool.shared.take(Int64.self, count: values.count)
        defer { ScratchPool.shared.giveBack(prices) }
        var priced = 0
        for value in values where value >= lowest && value <= highest {
            prices[priced] = value
            priced += 1
        }
        guard priced > 0 else { return nil }
        let middle = (priced - 1) / 2
        return Selection.elements(atRanks: (middle, middle, middle), in: UnsafeMutableBufferPointer(rebasing: prices[0..<priced]),
                                  threads: threads, unit: 100) { _ in nil }.exact!.0
    }

    /// Each row's quality part of the score with the frozen cities' mean ratings, except those of
    /// `changedMeans` (by city name).
    package func qualities(changedMeans: [String: Int64]) -> [Int32] {
        qualityCache.qualities(changedMeans: changedMeans, makeFrozen: frozenQualities, adjust: { qualities, changedMeans in
            var tallies = cityRatings
            for (city, mean) in changedMeans { tallies[city] = RatingTally(sum: mean, count: 1) }
            let frozenMeans = meanRatingByNode(cityRatings), means = meanRatingByNode(tallies)
            means.withUnsafeBufferPointer { means in
                let columns = RecommendedColumns(self, qualities: nil, cityMeans: means.baseAddress!)
                let nodes = storage.regionNodes
                for row in 0..<count where means[Int(nodes[row])] != frozenMeans[Int(nodes[row])] {
                    qualities[row] = Int32(columns.quality(row: row))
                }
            }
        })
    }

    /// Each row's quality part of the score with the frozen cities' mean ratings, worked out.
    func frozenQualities() -> [Int32] {
        meanRatingByNode(cityRatings).withUnsafeBufferPointer { means in
            let columns = RecommendedColumns(self, qualities: nil, cityMeans: means.baseAddress!)
            return (0..<count).map { Int32(columns.quality(row: $0)) }
        }
    }

    /// How many kept values the recommended order's pass hands to ``staysearch_quality_candidates`` at once.
    static let candidateChunk = 512

    /// For each region node, the mean rating of its city in `tallies` (by city name).
    private func meanRatingByNode(_ tallies: [String: RatingTally]) -> [Int64] {
        var meanOfCityNode: [Int32: Int64] = [:]
        return cityNodeOfNode.map { city in
            if let mean = meanOfCityNode[city] { return mean }
            let mean = tallies[regions.nodes[Int(city)].name]?.meanHundredths ?? 0
            meanOfCityNode[city] = mean
            return mean
        }
    }
}

/// The columns the recommended order reads of one index, as plain pointers (valid while the index lives; read
/// by several threads at once, written by none).
private struct RecommendedColumns: @unchecked Sendable {
    let ratings: UnsafePointer<Int16>
    let reviewCounts: UnsafePointer<Int32>
    let recentReviewCounts: UnsafePointer<UInt16>
    let superhosts: UnsafePointer<UInt64>
    let regionNodes: UnsafePointer<Int32>
    let ids: UnsafePointer<Int64>
    let latitudes: UnsafePointer<Int32>
    let longitudes: UnsafePointer<Int32>
    /// Each row's quality, when worked out ahead; else the mean rating of each region node's city.
    let qualities: UnsafePointer<Int32>?
    let cityMeans: UnsafePointer<Int64>?

    init(_ index: ListingIndex, qualities: UnsafePointer<Int32>?, cityMeans: UnsafePointer<Int64>?) {
        let storage = index.storage
        ratings = storage.ratings.base
        reviewCounts = storage.reviewCounts.base
        recentReviewCounts = storage.recentReviewCounts.base
        superhosts = storage.superhosts.base
        regionNodes = storage.regionNodes.base
        ids = storage.ids.base
        latitudes = storage.latitudes.base
        longitudes = storage.longitudes.base
        self.qualities = qualities
        self.cityMeans = cityMeans
    }

    /// Row `row`'s rating, recent reviews and superhost part of the score.
    @inline(__always)
    func quality(row: Int) -> Int64 {
        if let qualities { return Int64(qualities[row]) }
        let rating = ratings[row]
        return RecommendedScore.quality(
            ratingHundredths: rating == ListingIndex.noRating ? nil : Int64(rating), reviews: Int64(reviewCounts[row]),
            recentReviews: Int64(recentReviewCounts[row]), isSuperhost: superhosts[row >> 6] >> UInt64(row & 63) & 1 == 1,
            cityMeanHundredths: cityMeans![Int(regionNodes[row])])
    }
}

/// Each part's best rows; each slot is written by one thread, and read after all have finished.
private final class PartPages: @unchecked Sendable {
    private(set) var pages: [[RankedRow]]

    init(count: Int) { pages = Array(repeating: [], count: count) }

    func store(_ page: [RankedRow], at part: Int) {
        pages.withUnsafeMutableBufferPointer { $0[part] = page }
    }
}

/// The values a scan kept, read by the parts' threads at once (nobody writes them meanwhile).
private struct KeptValues: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Int64>
}
