extension ListingIndex {
    /// The page of the `recommended` order: every match (a value kept by the scan whose price is in the
    /// query's range, with its row beside it in `slots`) scored by ``RecommendedScore`` against the median
    /// of the matches' prices, best first, ties by id.
    ///
    /// One pass over the kept values after the scan: the median by selection over a copy of the matches'
    /// prices, then a score per match offered to a bounded heap.
    /// - Parameters:
    ///   - overlay: a live index's changed listings (rows from ``count`` on are its rows).
    ///   - hiddenRatings: the ratings of frozen rows a live index hides, by city (negative tallies).
    ///   - threads: how many threads the median and the scores may use (parts of at least 65,536 values).
    func recommendedPage(_ query: SearchQuery, values: UnsafeBufferPointer<Int64>, slots: ValueRowSlots,
                         overlay: ListingIndex?, hiddenRatings: [String: RatingTally]?, threads: Int = 1) -> [RankedRow] {
        let pageSize = query.offset + query.limit
        guard pageSize > 0, !values.isEmpty else { return [] }
        let nights = Int64(query.nights ?? 1)
        let lowest = (query.minimumPrice?.minorUnits ?? 0) * nights
        let highest = query.maximumPrice.map { $0.minorUnits * nights } ?? Int64.max

        let prices = ScratchPool.shared.take(Int64.self, count: values.count)
        var priced = 0
        for value in values where value >= lowest && value <= highest {
            prices[priced] = value
            priced += 1
        }
        let middle = (priced - 1) / 2
        let median = priced == 0 ? 0 : Selection.elements(atRanks: (middle, middle, middle), in: UnsafeMutableBufferPointer(rebasing: prices[0..<priced]),
                                                           threads: threads).0
        ScratchPool.shared.giveBack(prices)
        guard priced > 0 else { return [] }

        // Each city's mean rating as the listings are now: the frozen rows', less the hidden ones', plus the
        // overlay's.
        var tallies = cityRatings
        for (city, tally) in hiddenRatings ?? [:] {
            tallies[city, default: RatingTally()].sum += tally.sum
            tallies[city, default: RatingTally()].count += tally.count
        }
        for (city, tally) in overlay?.cityRatings ?? [:] {
            tallies[city, default: RatingTally()].sum += tally.sum
            tallies[city, default: RatingTally()].count += tally.count
        }
        let baseMeans = meanRatingByNode(tallies)
        let overlayMeans = overlay?.meanRatingByNode(tallies) ?? []
        let centre = RecommendedScore.centre(of: query)

        let parts = ParallelPasses.partCount(values: values.count, threads: threads)
        let pages = PartPages(count: parts)
        baseMeans.withUnsafeBufferPointer { baseMeans in
            overlayMeans.withUnsafeBufferPointer { overlayMeans in
                // Plain pointers into both indexes' columns, taken once: nothing is retained per match.
                let base = RecommendedColumns(self, cityMeans: baseMeans.baseAddress!)
                let changed = overlay.map { RecommendedColumns($0, cityMeans: overlayMeans.baseAddress!) } ?? base
                let rowCount = count
                let shared = KeptValues(buffer: values)
                ParallelPasses.run(parts: parts) { part in
                    let values = shared.buffer
                    var page = BoundedHeap<RankedRow>(capacity: pageSize)
                    var cutoff = Int64.max
                    for slot in ParallelPasses.stretch(part, of: parts, count: values.count) {
                        let value = values[slot]
                        guard value >= lowest, value <= highest else { continue }
                        let row = Int(slots.rows[slot])
                        let (columns, indexRow) = row < rowCount ? (base, row) : (changed, row - rowCount)
                        var score = columns.quality(row: indexRow) + RecommendedScore.price(value: value, median: median)
                        if let centre {
                            let point = GeoPoint(latitude: Double(columns.latitudes[indexRow]) / 1e7,
                                                 longitude: Double(columns.longitudes[indexRow]) / 1e7)
                            score += RecommendedScore.nearness(metres: Int64((centre.kilometres(to: point) * 1000).rounded(.down)))
                        }
                        guard -score <= cutoff else { continue }
                        page.offer(RankedRow(key: -score, id: columns.ids[indexRow], row: Int32(row), value: value,
                                             checkIn: slots.checkIns?[slot] ?? 0))
                        if let worst = page.largestWhenFull { cutoff = worst.key }
                    }
                    pages.store(page.sorted(), at: part)
                }
            }
        }
        return withExtendedLifetime(overlay) {
            parts == 1 ? pages.pages[0] : Array(pages.pages.joined().sorted().prefix(pageSize))
        }
    }

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
    /// The mean rating of each region node's city.
    let cityMeans: UnsafePointer<Int64>

    init(_ index: ListingIndex, cityMeans: UnsafePointer<Int64>) {
        let storage = index.storage
        ratings = storage.ratings.base
        reviewCounts = storage.reviewCounts.base
        recentReviewCounts = storage.recentReviewCounts.base
        superhosts = storage.superhosts.base
        regionNodes = storage.regionNodes.base
        ids = storage.ids.base
        latitudes = storage.latitudes.base
        longitudes = storage.longitudes.base
        self.cityMeans = cityMeans
    }

    /// Row `row`'s rating, recent reviews and superhost part of the score.
    @inline(__always)
    func quality(row: Int) -> Int64 {
        let rating = ratings[row]
        return RecommendedScore.quality(
            ratingHundredths: rating == ListingIndex.noRating ? nil : Int64(rating), reviews: Int64(reviewCounts[row]),
            recentReviews: Int64(recentReviewCounts[row]), isSuperhost: superhosts[row >> 6] >> UInt64(row & 63) & 1 == 1,
            cityMeanHundredths: cityMeans[Int(regionNodes[row])])
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
