/// The columns one query's scan reads, as plain pointers taken once per query, so that the loop over
/// candidates does bare loads: no reference counting and no copies of the index's column structs.
///
/// Valid only while the index that lent them is alive; a scan runs inside ``ListingIndex/search(_:threads:)``,
/// which holds it. The index invariants guarantee every load the scan makes stays inside its column.
struct ScanColumns {
    let accommodates: UnsafePointer<UInt8>
    let roomTypes: UnsafePointer<UInt8>
    let ids: UnsafePointer<Int64>
    let ratings: UnsafePointer<Int16>
    let reviewCounts: UnsafePointer<Int32>
    let basePrices: UnsafePointer<Int32>
    let ruleOffsets: UnsafePointer<UInt32>
    let ruleStarts: UnsafePointer<Int32>
    let ruleValues: UnsafePointer<UInt32>
    let rulePatterns: UnsafePointer<UInt32>
    /// Each row's stay rule class (``RuleClasses``).
    let ruleClasses: UnsafePointer<UInt8>
    /// Per block of 2^``SortKeyBlocks/blockShift`` rows, the best rating-order and reviews-order keys.
    let ratingBlockKeys: UnsafePointer<Int64>
    let reviewBlockKeys: UnsafePointer<Int64>
    /// Each row's price shape (``PriceShapes``).
    let priceShapes: UnsafePointer<UInt8>
    let priceOffsets: UnsafePointer<UInt32>
    let priceStarts: UnsafePointer<Int32>
    let priceValues: UnsafePointer<Int32>
    let pricePatterns: UnsafePointer<Int32>
    /// The wide prices stored values from ``WidePrices/firstReference`` on refer to.
    let widePrices: UnsafePointer<Int64>
    /// The weekday of day offset 0, 0 = Monday: the slot of weekly patterns.
    let firstWeekday: Int
    /// Day-major running sums of the dense price rows, the number of dense rows (their stride), and each
    /// dense row's dearest and cheapest night (``NightPrices``).
    let dense: UnsafePointer<UInt16>
    let denseRows: Int
    let denseMaxima: UnsafePointer<UInt16>
    let denseMinima: UnsafePointer<UInt16>
    /// The carries of the dense rows that have them and their stride (``NightPrices/denseCarries``).
    let denseCarries: UnsafePointer<UInt8>
    let carriedRows: Int
    /// A bit per carried dense row, and the carried rows before each word of them (``NightPrices/carriedBits``).
    let carriedBits: UnsafePointer<UInt64>
    let carriedBefore: UnsafePointer<UInt32>
    /// Each dense row's scale, and the unit of each scale in minor units (``NightPrices/denseScales``).
    let denseScales: UnsafePointer<UInt8>
    let unitsOfScales: UnsafePointer<Int64>
    /// Each dense row's base, and a bit per dense row whose base is not 0 (``NightPrices/denseBases``); nil when
    /// every row's base is 0.
    let denseBases: UnsafePointer<UInt32>?
    let basedBits: UnsafePointer<UInt64>?
    /// The dearest night of all dense rows, and of each group of 64 (``NightPrices/dearestDenseNight``).
    let dearestDenseNight: Int
    let denseGroupMaxima: UnsafePointer<UInt16>
    /// Per word of rows, its dense rows and the first one's rank (``NightPrices/denseWordMasks``).
    let denseWordMasks: UnsafePointer<UInt64>
    let denseWordRanks: UnsafePointer<UInt32>
    /// The index's rows.
    let rowCount: Int

    /// - Parameter basePrices: the prices without dates to use, when not the stored ones (kept alive by the caller).
    init(_ index: ListingIndex, basePrices: Column<Int32>? = nil) {
        let storage = index.storage
        accommodates = storage.accommodates.base
        roomTypes = storage.roomTypes.base
        ids = storage.ids.base
        ratings = storage.ratings.base
        reviewCounts = storage.reviewCounts.base
        self.basePrices = (basePrices ?? storage.basePrices).base
        widePrices = storage.widePrices.base
        ruleOffsets = storage.ruleRunOffsets.base
        ruleStarts = storage.ruleRunStarts.base
        ruleValues = storage.ruleRunValues.base
        rulePatterns = storage.rulePatterns.base
        ruleClasses = index.ruleClasses.classes.base
        ratingBlockKeys = index.sortKeyBlocks.ratingKeys.base
        reviewBlockKeys = index.sortKeyBlocks.reviewKeys.base
        priceShapes = index.priceShapes.shapes.base
        priceOffsets = storage.priceRunOffsets.base
        priceStarts = storage.priceRunStarts.base
        priceValues = storage.priceRunValues.base
        pricePatterns = storage.pricePatterns.base
        firstWeekday = index.nightPrices.runs.firstWeekday
        dense = storage.densePrices.base
        denseRows = index.nightPrices.denseRows
        denseMaxima = storage.denseMaxima.base
        denseMinima = index.nightPrices.denseMinima.base
        denseScales = index.nightPrices.denseScales.base
        denseBases = index.nightPrices.denseBases.count == 0 ? nil : index.nightPrices.denseBases.base
        basedBits = index.nightPrices.basedBits.count == 0 ? nil : index.nightPrices.basedBits.base
        denseCarries = index.nightPrices.denseCarries.base
        carriedRows = index.nightPrices.carriedRows
        carriedBits = index.nightPrices.carriedBits.base
        carriedBefore = index.nightPrices.carriedBefore.base
        unitsOfScales = NightPrices.unitsOfScales
        dearestDenseNight = index.nightPrices.dearestDenseNight
        denseGroupMaxima = index.nightPrices.denseGroupMaxima.base
        denseWordMasks = index.nightPrices.denseWordMasks.base
        denseWordRanks = index.nightPrices.denseWordRanks.base
        rowCount = index.count
    }

    /// Dense row `rank`'s unit in minor units.
    @inline(__always)
    func denseUnit(ofRank rank: Int) -> Int64 { unitsOfScales[Int(denseScales[rank])] }

    /// Dense row `rank`'s base times `nights`, in its unit: what a stay's codes count from (0 for most rows).
    @inline(__always)
    func baseTotal(ofRank rank: Int, nights: Int) -> Int64 {
        guard let denseBases else { return 0 }
        return Int64(denseBases[rank]) &* Int64(nights)
    }

    /// Which of the dense rows of ranks `firstRank ..< firstRank + 64` count from a base: bit k for rank
    /// `firstRank` + k (none past the last dense row).
    @inline(__always)
    func basedRanks(from firstRank: Int) -> UInt64 {
        guard let basedBits else { return 0 }
        let group = firstRank &>> 6, shift = UInt64(firstRank & 63)
        var bits = basedBits[group] &>> shift
        if shift != 0 { bits |= basedBits[group &+ 1] &<< (64 &- shift) }
        return bits
    }

    /// Dense row `rank`'s codes over the day offsets `start ..< end`, whatever its spread
    /// (``NightPrices/denseSum(sums:stride:rank:from:to:maximum:minimum:carries:carriedRows:carryRank:)``).
    @inline(__always)
    func denseSum(rank: Int, from start: Int, to end: Int) -> Int64 {
        NightPrices.denseSum(sums: dense, stride: denseRows, rank: rank, from: start, to: end, maximum: Int(denseMaxima[rank]),
                             minimum: Int(denseMinima[rank]), carries: denseCarries, carriedRows: carriedRows,
                             carryRank: NightPrices.carryRank(bits: carriedBits, before: carriedBefore, rank: rank))
    }

    /// The run among `runs` (one row's, the first starting at day offset 0) that holds `dayOffset`. Runs start
    /// on strictly later days, so the run *k* places after the first starts *k* days after it at the earliest:
    /// a row of many runs is first looked up there, which finds a row whose price changes every day (in dong,
    /// a dear listing's calendar past what a dense row holds) in one load rather than a search through its
    /// year of runs, a cache miss a step.
    @inline(__always)
    static func run(holding dayOffset: Int, in runs: Range<Int>, starts: UnsafePointer<Int32>) -> Int {
        var low = runs.lowerBound, high = runs.upperBound      // the answer is in low ..< high
        let target = Int32(truncatingIfNeeded: dayOffset)
        if high &- low > DayRuns<Int32>.guessedRuns {
            let guess = low &+ max(0, dayOffset &- Int(starts[low]))
            if guess < high {
                if starts[guess] == target { return guess }
                high = guess
            }
        }
        while high &- low > 1 {
            let middle = (low &+ high) &>> 1
            if starts[middle] <= target { low = middle } else { high = middle }
        }
        return low
    }

    /// Whether a stay of `nights` nights on each of the dense rows of ranks `ranks` (not empty) costs less
    /// than 65,536 units, so that its total is the difference of two running sums: at once when every dense
    /// row's is, else by the groups of 64 holding them, else by the rows' own dearest nights.
    @inline(__always)
    func staysAreExact(ranks: Range<Int>, nights: Int) -> Bool {
        if dearestDenseNight &* nights <= 0xFFFF { return true }
        var dearest: UInt16 = 0
        for group in (ranks.lowerBound &>> NightPrices.denseGroupShift)...((ranks.upperBound &- 1) &>> NightPrices.denseGroupShift) {
            dearest = max(dearest, denseGroupMaxima[group])
        }
        if Int(dearest) &* nights <= 0xFFFF { return true }
        dearest = 0
        for rank in ranks { dearest = max(dearest, denseMaxima[rank]) }
        return Int(dearest) &* nights <= 0xFFFF
    }

    /// The sum of the prices of a row priced by runs (not densely), over the day offsets `start ..< end`,
    /// every night of which is priced: what ``NightPrices/sum(row:from:to:)`` gives, read through the
    /// scan's pointers. Only here are a row's wide prices (``WidePrices``) resolved: a row of runs holding one has
    /// no shape, so every path prices it here.
    /// - Parameter runs: the row's price runs.
    @inline(__always)
    func runPriceTotal(runs: Range<Int>, from start: Int, to end: Int) -> Int64 {
        var run = ScanColumns.run(holding: start, in: runs, starts: priceStarts)
        var total: Int64 = 0
        var day = start
        while day < end {
            let stop = run &+ 1 < runs.upperBound ? min(Int(priceStarts[run &+ 1]), end) : end
            let value = priceValues[run]
            if let pattern = value.patternIndex {
                total &+= weeklyPriceSum(pattern: pattern, from: day, count: stop &- day)
            } else {
                total &+= WidePrices.amount(ofStored: value, in: widePrices) &* Int64(stop &- day)
            }
            day = stop
            run &+= 1
        }
        return total
    }

    /// ``runPriceTotal(runs:from:to:)`` of row `row`'s runs, out of line (the scan's loop stays small).
    @inline(never)
    func runPriceTotal(row: Int, from start: Int, to end: Int) -> Int64 {
        runPriceTotal(runs: Int(priceOffsets[row])..<Int(priceOffsets[row &+ 1]), from: start, to: end)
    }

    /// The total of a stay for row `row`, whose price shape's plan sums the segments of the runs the stay
    /// crosses (`plans`): each plain run's price times its nights, each weekly pattern's prices times
    /// its nights on their weekday.
    @inline(never)
    func segmentsTotal(row: Int, plans: PricePlans) -> Int64 {
        let shape = Int(priceShapes[row]), first = Int(priceOffsets[row])
        var total: Int64 = 0
        for segment in Int(plans.segmentOffsets[shape])..<Int(plans.segmentOffsets[shape &+ 1]) {
            let words = plans.segments + segment &* PricePlans.segmentWords
            let value = priceValues[first &+ Int(words[0])]
            if let pattern = value.patternIndex {
                let base = pattern &* 7
                for slot in 0..<7 { total &+= Int64(pricePatterns[base &+ slot]) &* Int64(words[2 &+ slot]) }
            } else {
                total &+= Int64(value) &* Int64(words[1])
            }
        }
        return total
    }

    /// The sum of weekly price pattern `pattern` over `count` days from day offset `day`.
    func weeklyPriceSum(pattern: Int, from day: Int, count: Int) -> Int64 {
        let base = pattern &* 7
        var week: Int64 = 0
        for slot in 0..<7 { week &+= Int64(pricePatterns[base &+ slot]) }
        var total = week &* Int64(count / 7)
        var weekday = (firstWeekday &+ day) % 7
        for _ in 0..<(count % 7) {
            total &+= Int64(pricePatterns[base &+ weekday])
            weekday = weekday == 6 ? 0 : weekday &+ 1
        }
        return total
    }
}
