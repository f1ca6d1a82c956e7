extension ListingIndex {
    /// The fewest rows a search must cover to be answered from the order of prices without dates: below
    /// this a scan costs less than working out the order once.
    static let minimumRowsForUndatedOrder = 65_536

    /// The rows of `guests` and `roomCode` in the order of `prices`, worked out once (the order once per day
    /// of prices, each population in one pass over it) and kept for the next search: made now when `ahead`,
    /// else in the background once worth it (nil until then; see ``UndatedOrderCache``).
    func undatedPopulation(guests: Int, roomCode: Int, prices: UndatedPrices, ahead: Bool) -> UndatedPopulation? {
        let index = self
        return undatedOrderCache.population(dayOffset: prices.dayOffset, guests: guests, roomCode: roomCode, ahead: ahead,
                                            makeOrder: { UndatedOrder(of: index, prices: prices) },
                                            make: { UndatedPopulation(of: $0, in: index, prices: prices, guests: guests, roomCode: roomCode) })
    }

    /// Works out ahead the order of the prices without dates as of each query's today, and the rows of its
    /// guests and room type, for those of `queries` it answers (``SearchQuery/dependsOnlyOnPricesWithoutDates``):
    /// a server does this for a traveller's first search when it loads, `batch` for its queries.
    public func prepareUndatedOrder(for queries: [SearchQuery]) {
        for query in queries where query.dependsOnlyOnPricesWithoutDates {
            guard let plan = try? ScanPlan(query, index: self) else { continue }
            let prices = undatedPrices(from: query.today.map { firstDay.distance(to: $0) } ?? 0)
            _ = undatedPopulation(guests: query.guests, roomCode: plan.roomCode, prices: prices, ahead: true)
            if query.sort == .recommended { _ = undatedQualityOrder(prices: prices, ahead: true) }
        }
    }

    /// The answer to `query` (validated, ``SearchQuery/dependsOnlyOnPricesWithoutDates``) read off `population` by binary
    /// searches: the same as a scan's. Nil when its `recommended` page needs every row by quality and that is
    /// not at hand yet (it is then made in the background).
    /// - Complexity: O(*b* log *n* + *k*) for *b* bins, *n* rows of the population and a page ending at *k*.
    func undatedResult(of query: SearchQuery, population: UndatedPopulation) -> SearchResult? {
        let count = population.values.count
        let value = { (position: Int) -> Int64 in Int64(population.values[position]) }
        let unit: Int64 = 100
        let bounds = count == 0 ? nil : value(0)...value(count - 1)
        let (lo, hi) = PriceHistogram.ends(lo: query.histogramMinimum, hi: query.histogramMaximum, bounds: bounds, unit: unit) { _ in
            let (q1, q3, p95) = PriceHistogram.highEndRanks(count: count)
            let fence = value(q3) + PriceHistogram.outlierFenceWidth * (value(q3) - value(q1))
            return (min(value(p95), fence) + unit - 1) / unit
        }!
        // Bin k holds the values from lo + ⌈k · width / bins⌉ on (``ExactBinning``), the last bin up to hi.
        let width = max(1, hi - lo), bins = max(1, query.bins)
        let underflow = population.count(below: lo)
        let overflow = count - population.count(atMost: lo + width)
        var counts = [Int](repeating: 0, count: bins)
        var start = underflow
        for bin in 0..<bins {
            let end = bin == bins - 1
                ? count - overflow
                : population.count(below: lo + Int64((Int128(bin + 1) * Int128(width) + Int128(bins) - 1) / Int128(bins)))
            counts[bin] = end - start
            start = end
        }
        let average = count == 0 ? nil : Money(minorUnits: Int64((2 * Int128(population.sum) + Int128(count)) / (2 * Int128(count))))
        let histogram = PriceHistogram(lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: counts, underflow: underflow,
                                       overflow: overflow, count: count, averageNightlyPrice: average)
        // The matches: the values within the price range.
        let first = population.count(below: query.minimumPrice?.minorUnits ?? 0)
        let end = max(first, population.count(atMost: query.maximumPrice?.minorUnits ?? Int64.max))
        let page: [(row: Int, value: Int64)]
        switch query.sort {
        case .price:
            page = ascendingPage(first: first, end: end, offset: query.offset, limit: query.limit).map { (Int(population.rows[$0]), value($0)) }
        case .recommended:
            guard let recommended = recommendedPage(query, population: population, first: first, end: end) else { return nil }
            page = recommended
        default:
            page = descendingPage(population, first: first, end: end, offset: query.offset, limit: query.limit)
                .map { (Int(population.rows[$0]), value($0)) }
        }
        let matches = page.map { match(row: $0.row, value: $0.value, nights: nil, near: nil) }
        return SearchResult(total: end - first, nights: nil, matches: matches, histogram: histogram)
    }

    /// Every row by the quality part of the `recommended` score, highest first, with `prices` (worked out once
    /// per day of prices and kept): made now when `ahead`, else in the background (nil until it is kept).
    func undatedQualityOrder(prices: UndatedPrices, ahead: Bool) -> UndatedQualityOrder? {
        let index = self
        return undatedOrderCache.qualityOrder(dayOffset: prices.dayOffset, ahead: ahead) {
            UndatedQualityOrder(of: index, qualities: index.qualities(changedMeans: [:]), prices: prices)
        }
    }

    /// The page of the `recommended` order among positions `first ..< end` of `population` (the matches),
    /// scored with their price part against the matches' lower median. When the matches are many, rows are
    /// offered by quality, highest first, until the page is full and no row left could reach its last score
    /// (a price part adds at most 20 points); when they are few (under an eighth of the rows), every match is.
    /// Nil when the matches are many and the rows by quality are not at hand yet.
    private func recommendedPage(_ query: SearchQuery, population: UndatedPopulation, first: Int, end: Int) -> [(row: Int, value: Int64)]? {
        let pageSize = query.offset + query.limit
        guard end > first, pageSize > 0 else { return [] }
        let many = (end - first) * 8 >= count
        let order = many ? undatedQualityOrder(prices: undatedPrices(from: population.dayOffset), ahead: false) : nil
        if many, order == nil { return nil }
        let median = Int64(population.values[first + (end - first - 1) / 2])
        let qualities = qualities(changedMeans: [:])
        var page = BoundedHeap<RankedRow>(capacity: pageSize)
        qualities.withUnsafeBufferPointer { qualities in
            storage.ids.withUnsafeBufferPointer { ids in
                guard let order else {
                    for position in first..<end {
                        let row = Int(population.rows[position]), value = Int64(population.values[position])
                        let score = Int64(qualities[row]) + RecommendedScore.price(value: value, median: median)
                        page.offer(RankedRow(key: -score, id: ids[row], row: Int32(row), value: value))
                    }
                    return
                }
                let lowest = query.minimumPrice?.minorUnits ?? 0, highest = query.maximumPrice?.minorUnits ?? Int64.max
                let guests = population.guests, roomCode = population.roomCode
                // The page's last score once it is full: a row scoring less cannot enter it.
                var cutoff = Int64.min
                for position in order.rows.indices {
                    let quality = Int64(order.qualities[position])
                    if quality + RecommendedScore.pricePoints < cutoff { break }
                    let value = Int64(order.values[position])
                    guard value >= 0, value >= lowest, value <= highest, Int(order.accommodates[position]) >= guests,
                          roomCode < 0 || Int(order.roomTypes[position]) == roomCode else { continue }
                    let score = quality + RecommendedScore.price(value: value, median: median)
                    guard score >= cutoff else { continue }
                    let row = Int(order.rows[position])
                    page.offer(RankedRow(key: -score, id: ids[row], row: Int32(row), value: value))
                    if let last = page.largestWhenFull { cutoff = -last.key }
                }
            }
        }
        return page.sorted().dropFirst(query.offset).map { (Int($0.row), $0.value) }
    }

    /// The positions of a page in price order among positions `first ..< end`.
    private func ascendingPage(first: Int, end: Int, offset: Int, limit: Int) -> [Int] {
        let pageStart = min(end, first + offset)
        return Array(pageStart..<min(end, pageStart + limit))
    }

    /// The positions of a page in descending price order among positions `first ..< end` of `population`:
    /// equal prices keep ascending ids, so the order walks down group by group and up within each.
    private func descendingPage(_ population: UndatedPopulation, first: Int, end: Int, offset: Int, limit: Int) -> [Int] {
        var positions: [Int] = []
        var skip = offset
        var groupEnd = end
        while groupEnd > first, positions.count < limit {
            let groupStart = max(first, population.count(below: Int64(population.values[groupEnd - 1])))
            let size = groupEnd - groupStart
            if skip >= size {
                skip -= size
            } else {
                let taken = min(size - skip, limit - positions.count)
                positions.append(contentsOf: (groupStart + skip)..<(groupStart + skip + taken))
                skip = 0
            }
            groupEnd = groupStart
        }
        return positions
    }
}
