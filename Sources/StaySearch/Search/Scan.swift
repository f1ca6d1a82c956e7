import StaySearchKernels

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
    var rowCheckIns: [UInt64] = []
    /// Flexible dates: what ``loadDensePricesAhead(ofWordAfter:)`` read, kept so that its loads stay.
    var loadedAhead: UInt16 = 0
    let lowestValue: Int64
    let highestValue: Int64
    /// With dates, when some listing has fees or the query a service fee: the fees that turn a stay's
    /// nights' sum into its trip price (``TripPrice``), which every value then is; else nil.
    let tripFees: FeeTable?
    let serviceFee: Int64
    /// With ``tripFees``: the query's terms for them.
    var tripTerms: staysearch_trip_terms

    /// The values of the rows that pass every filter but price, room for every row visited (owned by
    /// the caller); empty when the values are counted into price slots and not kept.
    let values: UnsafeMutableBufferPointer<Int64>
    /// Where value *i* of the scan is written: the front of `values`, or with price slots a block's
    /// buffer, less the values settled before the block (so that the block's first value lands at its
    /// start; nothing before it is read).
    private var valueBase: UnsafeMutablePointer<Int64>
    /// With price slots, the block's buffer (room for a block's values), else nil.
    private let blockValues: UnsafeMutablePointer<Int64>?
    var tally = ScanTally()
    var valueSum: Int128 = 0
    var page: BoundedHeap<RankedRow>
    /// The sort key a row must not exceed to enter the full page; `Int64.max` until it is full.
    var pageCutoff = Int64.max
    /// How many of the values written have been counted by ``settle(pending:)``.
    var settledCount = 0
    /// The rows of the index.
    let rowCount: Int
    var block: [UInt64]
    /// The columns read per candidate.
    let columns: ScanColumns
    /// Without dates: the prices the scan uses, as of the query's today (``ListingIndex/undatedPrices(from:)``).
    let undated: UndatedPrices?
    /// The listing-detail filters.
    let filter: ListingFilter
    /// Where the rows that pass every filter go, one after another (for facets), when they are kept.
    let rowSlots: UnsafeMutablePointer<Int32>?
    /// For the `recommended` order, which ranks after the scan: the row of each value written, beside it.
    let valueRows: UnsafeMutablePointer<Int32>?
    /// For the `recommended` order with flexible dates: the check-in of each value written, beside it.
    let valueCheckIns: UnsafeMutablePointer<Int32>?
    /// Where the values are counted into price slots as they are settled, for the histogram
    /// (``PriceSlotTables``); nil when the histogram will read the values.
    let priceSlots: PriceSlots?
    let slotCounts: UnsafeMutablePointer<Int32>?
    /// By granule, where the values between granules are kept (``PriceSlotTables/betweenValues(_:)``).
    let slotBetween: UnsafeMutableBufferPointer<Int64>?
    /// For the `recommended` order ranked from its upper tier: where the tier's matches are kept.
    let kept: KeptMatches?
    /// How many matches ``kept`` holds.
    var keptCount = 0
    /// How many matches of every row ``kept`` holds (``KeptMatches/everyCapacity`` + 1 once they did not fit).
    var everyCount = 0

    static let blockWords = 64
    /// The candidates a word of dense rows needs for every row's stay (``staysearch_dense_word_totals``), or with
    /// flexible dates its cheapest stay (``staysearch_dense_word_cheapest``), to be worked out at once rather
    /// than row by row.
    static let denseWordCandidates = 8

    init(index: ListingIndex, query: SearchQuery, roomCode: Int, filter: ListingFilter, values: UnsafeMutableBufferPointer<Int64>,
         rowSlots: UnsafeMutablePointer<Int32>? = nil, valueRows: ValueRowSlots? = nil,
         slotTables: PriceSlotTables? = nil, kept: KeptMatches? = nil, part: Int = 0) {
        self.values = values
        self.kept = kept
        priceSlots = slotTables?.slots
        slotCounts = slotTables?.zeroedTable(part)
        slotBetween = slotTables?.betweenValues(part)
        // Values also kept for the recommended order go to `values`, not a block's buffer.
        blockValues = valueRows == nil ? slotTables?.blockValues(part) : nil
        valueBase = blockValues ?? values.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Int64>.alignment)!
        self.filter = filter
        self.rowSlots = rowSlots
        self.valueRows = valueRows?.rows
        self.valueCheckIns = valueRows?.checkIns
        self.index = index
        rowCount = index.count
        self.guests = query.guests
        self.roomCode = roomCode
        self.sort = query.sort
        // The recommended order keeps no page during the scan: its score needs the matches' median price.
        self.pageSize = query.sort == .recommended ? 0 : query.offset + query.limit
        self.page = BoundedHeap(capacity: pageSize)
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
        tripFees = hasDates && (!index.feeTable.isEmpty || query.serviceFeeBasisPoints > 0) ? index.feeTable : nil
        serviceFee = Int64(query.serviceFeeBasisPoints)
        tripTerms = FeeTable.terms(nights: nights, guests: guests, serviceFee: serviceFee)
        if hasDates {
            undated = nil
        } else {
            undated = index.undatedPrices(from: query.today.map { index.firstDay.distance(to: $0) } ?? 0)
        }
        columns = ScanColumns(index, basePrices: undated?.prices)
        if isFlexible, !isImpossible {
            stayBlocks = [UInt64](repeating: 0, count: checkIns.count * Scan.blockWords)
            spanWords = [UInt64](repeating: 0, count: (Int(checkIns.last!) - stayStart + Int(nights)) * Scan.blockWords)
            checkInsAreConsecutive = Int(checkIns.last!) - Int(checkIns[0]) == checkIns.count - 1
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
        visit([range])
    }

    /// Visits each of `ranges` (in row order), with what a visit sets up (stay rule verdicts, price plans)
    /// made once for them all.
    mutating func visit(_ ranges: [Range<Int>]) {
        guard ranges.contains(where: { !$0.isEmpty }), !isImpossible else { return }
        // For a stay, each rule class's verdict on it (on the stack: no allocation per query).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256 + 32) { verdicts in
            if isFlexible {
                // For flexible dates, each class's allowed check-ins (2 KiB, also on the stack).
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 256) { masks in
                    fillClassCheckIns(masks)
                    for range in ranges where !range.isEmpty {
                        visit(range, stayVerdicts: UnsafePointer(verdicts.baseAddress!), classCheckIns: UnsafePointer(masks.baseAddress!),
                              pending: nil, plans: nil)
                    }
                }
            } else {
                if hasDates { fillStayVerdicts(verdicts) }
                // The rows of a block's values until they are settled (16 KiB), then room for the price
                // plans: one allocation a scan, as temporary allocations stay on the stack only up to 1 KiB.
                let pendingCount = Scan.blockWords * 64
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: pendingCount + PricePlans.wordCount) { memory in
                    let pending = memory.baseAddress!
                    let plans = hasDates
                        ? PricePlans(shapes: index.priceShapes, from: stayStart, to: stayEnd,
                                     firstWeekday: index.nightPrices.runs.firstWeekday, memory: pending + pendingCount)
                        : nil
                    for range in ranges where !range.isEmpty {
                        visit(range, stayVerdicts: UnsafePointer(verdicts.baseAddress!), classCheckIns: nil, pending: pending, plans: plans)
                    }
                }
            }
        }
    }

    /// Sets `verdicts[c]` to 1 when stay rule class *c* allows the stay, 0 when it does not, and 2 for
    /// ``RuleClasses/checkRow`` (the row's rule runs decide); then, in the 32 bytes from `verdicts[256]`,
    /// bit *c* mod 8 of byte *c* ÷ 8 set for each class that allows it.
    private func fillStayVerdicts(_ verdicts: UnsafeMutableBufferPointer<UInt8>) {
        verdicts.initialize(repeating: 0)
        let nights = Int(self.nights)
        for (ruleClass, value) in index.ruleClasses.values.enumerated() {
            var packed = value
            if let pattern = packed.patternIndex { packed = columns.rulePatterns[pattern &* 7 &+ checkInWeekday] }
            verdicts[ruleClass] = StayRule(packed: packed).allows(nights: nights) ? 1 : 0
        }
        verdicts[Int(RuleClasses.checkRow)] = 2
        // After the 256 verdicts, the classes that allow the stay as 256 bits (for a word at once).
        for byte in 0..<32 {
            var packed: UInt8 = 0
            for bit in 0..<8 where verdicts[byte &* 8 &+ bit] == 1 { packed |= 1 << UInt8(bit) }
            verdicts[256 &+ byte] = packed
        }
    }

    private mutating func visit(_ range: Range<Int>, stayVerdicts: UnsafePointer<UInt8>, classCheckIns: UnsafePointer<UInt64>?,
                                pending: UnsafeMutablePointer<Int32>?, plans: PricePlans?) {
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
                    visitStay(word: word + position, candidates: block[position], verdicts: stayVerdicts, pending: pending!, plans: plans!)
                } else {
                    visitWithoutDates(word: word + position, candidates: block[position], pending: pending!)
                }
            }
            if !isFlexible { settle(pending: pending!) }
            valueSum += Int128(tally.blockSum)
            tally.blockSum = 0
            word = blockEnd
        }
    }

    /// Considers the candidates of one word for a stay: listing filters, the check-in day's stay rule,
    /// then the stay's total, written to `values` with the row beside it in `pending`. Counting, the
    /// price range and the page are left to ``settle(pending:)``, once per block (callgrind, the 100
    /// no-region queries of the mix on 1M calibrated listings: 75 instructions a value written when one
    /// loop did everything).
    /// - Parameters:
    ///   - verdicts: each stay rule class's verdict on the stay (``fillStayVerdicts(_:)``).
    ///   - pending: the rows of the values written since the last ``settle(pending:)``, from its start.
    ///   - plans: how each price shape's rows take the stay's total.
    private mutating func visitStay(word: Int, candidates: UInt64, verdicts: UnsafePointer<UInt8>,
                                    pending: UnsafeMutablePointer<Int32>, plans: PricePlans) {
        let columns = self.columns
        let nights = self.nights, nightCount = Int(nights)
        let stayStart = self.stayStart, checkInWeekday = self.checkInWeekday
        let base = word << 6
        // The candidates whose stay rule allows the stay: a byte and a table load per row, no branch on
        // the verdict (a quarter of the rows refused at random mispredicted); a row whose rules change
        // over the year reads its runs. (callgrind, the same queries: 12 instructions a candidate one by
        // one, about 8 with a word's verdicts at once.)
        var bits: UInt64 = 0
        if candidates.nonzeroBitCount >= 4, base &+ 64 <= rowCount {
            // Many candidates: the whole word's verdicts at once (a table lookup per byte, 32 bytes a step).
            var check: UInt64 = 0
            bits = staysearch_verdict_bits(columns.ruleClasses + base, verdicts + 256, &check) & candidates
            check &= candidates
            while check != 0 {
                let bit = check.trailingZeroBitCount
                check &= check &- 1
                if Scan.allowsStay(row: base &+ bit, nights: nightCount, from: stayStart, weekday: checkInWeekday, columns: columns) {
                    bits |= 1 &<< UInt64(bit)
                }
            }
        } else {
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
        }
        if filter.checksRows {
            var rest = bits
            while rest != 0 {
                let bit = rest.trailingZeroBitCount
                rest &= rest &- 1
                if !filter.passes(row: base &+ bit) { bits &= ~(1 &<< UInt64(bit)) }
            }
        }
        guard bits != 0 else { return }
        let valueCount = tally.valueCount
        let written = Scan.price(rows: bits, base: base, columns: columns, plans: plans, nights: nights,
                                 from: stayStart, to: stayEnd, into: valueBase + valueCount, rows: pending + (valueCount &- settledCount))
        if let tripFees { tripFees.tripPrices(valueBase + valueCount, written: bits, word: word, terms: &tripTerms) }
        tally.valueCount &+= written
        if let kept {
            keptCount = kept.keep(word: word, candidates: bits, written: valueBase + valueCount, lowest: lowestValue,
                                  highest: highestValue, after: keptCount)
        }
    }

    /// Writes the stay's total of each row of `bits` (rows `base` + bit) to `values`, and the row to `rows`,
    /// in row order; returns how many. A row whose price shape has one run holding the whole stay
    /// (`plans`, by shape) is priced from that run: one price all year, or a season's (callgrind, the
    /// no-region queries of the mix on 1M calibrated listings: rows whose price changes by season took
    /// about 60 instructions each when their runs were searched); a dense row by the difference of its
    /// running sums at the stay's ends, two loads whatever the stay's length (``NightPrices``); any other
    /// out of line. Apart from the caller so that its few locals stay in registers (33 → 20 instructions a
    /// row with one price all year).
    @inline(never)
    private static func price(rows bits: UInt64, base: Int, columns: ScanColumns, plans: PricePlans,
                              nights: Int64, from stayStart: Int, to stayEnd: Int,
                              into values: UnsafeMutablePointer<Int64>, rows: UnsafeMutablePointer<Int32>) -> Int {
        let shapes = columns.priceShapes, offsets = columns.priceOffsets, references = columns.priceValues, byShape = plans.plans
        // A word with many dense candidates: every dense row's total at once, in 32 bits (a night below 2^16 units
        // times at most 32,767 nights), the word's other rows priced alone (in dong, a dear listing's calendar past
        // what a dense row holds stands in a fifth of the words).
        if bits.nonzeroBitCount >= Scan.denseWordCandidates, base &+ 64 <= columns.rowCount, nights <= 32_767 {
            let dense = columns.denseWordMasks[base &>> 6], firstRank = Int(columns.denseWordRanks[base &>> 6])
            if (bits & dense).nonzeroBitCount >= Scan.denseWordCandidates, firstRank &+ 64 <= columns.denseRows {
                return priceDenseWord(rows: bits, base: base, firstRank: firstRank, dense: dense, columns: columns, plans: plans,
                                      nights: Int(nights), from: stayStart, to: stayEnd, into: values, rows: rows)
            }
        }
        let stride = columns.denseRows, before = columns.dense + stayStart &* stride, after = columns.dense + stayEnd &* stride
        let maxima = columns.denseMaxima, minima = columns.denseMinima, groupMaxima = columns.denseGroupMaxima, nightCount = Int(nights)
        // Whether every dense row's stay is exact as a difference of sums (the common case), so that no
        // row's dearest night need be read.
        let everyStayExact = columns.dearestDenseNight &* nightCount <= 0xFFFF
        var bits = bits, written = 0
        while bits != 0 {
            let row = base &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            let plan = Int(byShape[Int(shapes[row])])
            let first = Int(offsets[row])
            let value: Int64
            if plan >= 0 {
                value = Int64(references[first &+ plan]) &* nights      // one run holds the stay
            } else if let rank = references[first].denseIndex {
                // A price most days: the difference of the running sums at the stay's ends, exact when the
                // dearest night of every row (or of the row's group of 64) times the nights is below 2^16, in
                // the row's unit; else from the row's cheapest night while its spread allows (no branch on
                // whether the row's own dearest night would do: in won half the rows' would, at random), in
                // line (in dong a group's dearest night passes 21,845 codes of ₫1,000 in most groups: every
                // row of such a group out here at 3 nights); else from 24-bit sums or in stretches
                // (``NightPrices/denseSum``).
                // Codes, above the row's base (``NightPrices/denseBases``: 0 but for a row too dear for codes alone).
                let codes: Int64
                if everyStayExact || Int(groupMaxima[rank &>> NightPrices.denseGroupShift]) &* nightCount <= 0xFFFF {
                    codes = Int64(after[rank] &- before[rank])
                } else if (Int(maxima[rank]) &- Int(minima[rank])) &* nightCount <= 0xFFFF {
                    let least = Int(minima[rank]) &* nightCount
                    let rest = after[rank] &- before[rank] &- UInt16(truncatingIfNeeded: least)
                    codes = Int64(least &+ Int(rest))
                } else {
                    codes = columns.denseSum(rank: rank, from: stayStart, to: stayEnd)
                }
                value = (codes &+ columns.baseTotal(ofRank: rank, nights: nightCount)) &* columns.denseUnit(ofRank: rank)
            } else if plan == Int(PricePlans.bySegments) {
                value = columns.segmentsTotal(row: row, plans: plans)
            } else {
                value = columns.runPriceTotal(row: row, from: stayStart, to: stayEnd)
            }
            values[written] = value
            rows[written] = Int32(truncatingIfNeeded: row)
            written &+= 1
        }
        return written
    }

    /// ``price(rows:base:columns:plans:nights:from:to:into:rows:)`` for a word whose dense rows are `dense` (a bit per
    /// row), the k-th of rank `firstRank` + k (``NightPrices/denseWordMasks``): lane k. Every lane's total from its
    /// running sums and its cheapest night at once (`staysearch_dense_word_totals`, no branch on a row); the
    /// candidates' lanes whose nights' spread is too wide for a 16-bit difference again, from 24-bit sums with their
    /// carries (``NightPrices/carriedSum``), found from the word's bits of carried rows, not a column a row; then the
    /// candidates' totals in their units, in row order, each row that is not dense priced alone where it stands.
    /// In won, whose ₩100 codes are 13 times a dollar's, half the rows' dearest night times a fortnight passes
    /// 65,536 codes at random, so a branch per row on it mispredicted.
    private static func priceDenseWord(rows candidates: UInt64, base: Int, firstRank: Int, dense: UInt64, columns: ScanColumns,
                                       plans: PricePlans, nights: Int, from stayStart: Int, to stayEnd: Int,
                                       into values: UnsafeMutablePointer<Int64>, rows: UnsafeMutablePointer<Int32>) -> Int {
        // The dense candidates' lanes: their places among the word's dense rows (their places in the word, when all are).
        // The candidates between two rows apart move down by the rows apart below them (a step a row apart: no bit
        // count, which baseline x86-64 does in a dozen instructions).
        var bits = candidates
        if dense != UInt64.max {
            var rest = candidates & dense, apart = ~dense, passed: UInt64 = 0
            bits = 0
            while apart != 0 {
                let below = (apart & (0 &- apart)) &- 1
                bits |= (rest & below) &>> passed
                rest &= ~below
                apart &= apart &- 1
                passed &+= 1
            }
            bits |= rest &>> passed
        }
        let stride = columns.denseRows
        let before = columns.dense + (stayStart &* stride &+ firstRank), after = columns.dense + (stayEnd &* stride &+ firstRank)
        let minima = columns.denseMinima + firstRank, maxima = columns.denseMaxima + firstRank
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { totals -> Int in
            let totals = totals.baseAddress!
            let wide = staysearch_dense_word_totals(before, after, minima, maxima, nights, totals) & bits
            if wide != 0 {
                // The word's carried rows (bit i: rank firstRank + i) and the carried rows before the first: their
                // carries are the next ones, in rank order. Totals in the rows' units, below 2^24 from carries, and
                // below 2^31 summed in stretches (a spread below 2^16 times at most 32,767 nights).
                let group = firstRank &>> 6, shift = UInt64(firstRank & 63)
                var carried = columns.carriedBits[group] &>> shift
                if shift != 0 { carried |= columns.carriedBits[group &+ 1] &<< (64 &- shift) }
                let carriedBefore = Int(columns.carriedBefore[group]) &+ (columns.carriedBits[group] & ((1 &<< shift) &- 1)).nonzeroBitCount
                let carries = columns.denseCarries + (stayStart &* columns.carriedRows &+ carriedBefore)
                // With at most 256 nights a carried row's spread (below 2^16) times the nights is below 2^24.
                if nights > 256 { carried = 0 }
                var wideRows = staysearch_carried_word_totals(before, after, carries, carries + nights &* columns.carriedRows, minima,
                                                              nights, carried, wide, totals)
                while wideRows != 0 {
                    let bit = wideRows.trailingZeroBitCount
                    wideRows &= wideRows &- 1
                    totals[bit] = Int32(truncatingIfNeeded: columns.denseSum(rank: firstRank &+ bit, from: stayStart, to: stayEnd))
                }
            }
            // The candidates' lanes counted from a base (in dong, listings past ₫65,535,000 a night): their totals are
            // the codes' plus the base times the nights, added where each was written (the candidates before it).
            let based = columns.basedRanks(from: firstRank) & bits
            @inline(__always) func addBases() {
                var lanes = based
                while lanes != 0 {
                    let lane = lanes.trailingZeroBitCount
                    lanes &= lanes &- 1
                    var rowsBefore = dense          // the lane-th dense row of the word
                    for _ in 0..<lane { rowsBefore &= rowsBefore &- 1 }
                    let bit = UInt64(rowsBefore.trailingZeroBitCount)
                    values[(candidates & ((1 &<< bit) &- 1)).nonzeroBitCount] &+=
                        columns.baseTotal(ofRank: firstRank &+ lane, nights: nights) &* columns.denseUnit(ofRank: firstRank &+ lane)
                }
            }
            var written = 0
            if dense == UInt64.max {
                var rest = bits
                while rest != 0 {
                    let bit = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    values[written] = Int64(totals[bit]) &* columns.denseUnit(ofRank: firstRank &+ bit)
                    rows[written] = Int32(truncatingIfNeeded: base &+ bit)
                    written &+= 1
                }
                if based != 0 { addBases() }
                return written
            }
            var rest = candidates, apart = ~dense, passed = 0
            while rest != 0 {
                let bit = rest.trailingZeroBitCount
                rest &= rest &- 1
                while apart != 0, apart.trailingZeroBitCount < bit {
                    apart &= apart &- 1
                    passed &+= 1
                }
                guard dense &>> UInt64(bit) & 1 != 0 else {
                    written &+= price(rows: 1 &<< UInt64(bit), base: base, columns: columns, plans: plans, nights: Int64(nights),
                                      from: stayStart, to: stayEnd, into: values + written, rows: rows + written)
                    continue
                }
                let lane = bit &- passed
                values[written] = Int64(totals[lane]) &* columns.denseUnit(ofRank: firstRank &+ lane)
                rows[written] = Int32(truncatingIfNeeded: base &+ bit)
                written &+= 1
            }
            if based != 0 { addBases() }
            return written
        }
    }

    /// Counts the values written since the last settling (their rows in `pending`): their sum, smallest
    /// and largest, those in the price range, their rows when collected, and the page's offers, in the
    /// order the rows were written.
    private mutating func settle(pending: UnsafePointer<Int32>) {
        let start = settledCount, count = tally.valueCount &- start
        guard count > 0 else { return }
        settledCount = tally.valueCount
        let values = UnsafePointer(valueBase + start)
        // With price slots, the next block's values go to the start of the block's buffer again.
        if let blockValues { valueBase = blockValues - settledCount }
        if let valueRows { (valueRows + start).update(from: pending, count: count) }
        var sum: Int64 = 0
        staysearch_fold(values, count, &sum, &tally.smallest, &tally.largest)
        valueSum += Int128(sum)
        if let slotCounts { priceSlots!.add(values, count: count, to: slotCounts, between: slotBetween) }
        let lowest = lowestValue, highest = highestValue
        let totalBefore = tally.total
        if lowest <= tally.smallest, tally.largest <= highest {
            // Every value is in the price range.
            if let rowSlots { (rowSlots + tally.total).update(from: pending, count: count) }
            tally.total &+= count
        } else if let rowSlots {
            var total = tally.total
            for i in 0..<count where values[i] >= lowest && values[i] <= highest {
                rowSlots[total] = pending[i]
                total &+= 1
            }
            tally.total = total
        } else {
            tally.total &+= staysearch_count_in_range(values, count, lowest, highest)
        }
        if let kept, everyCount <= kept.everyCapacity {
            everyCount = keptCount >= kept.tierEnough ? kept.everyCapacity + 1
                : kept.keepEvery(values, rows: pending, count: count, matches: tally.total &- totalBefore, lowest: lowest,
                                 highest: highest, after: everyCount)
        }
        guard pageSize > 0 else { return }
        let columns = self.columns
        switch sort {
        case .price, .priceDescending: offerByPrice(values, pending, count, descending: sort == .priceDescending)
        case .rating:
            let ratings = columns.ratings, reviews = columns.reviewCounts
            offerByKey(values, pending, count, blockKeys: columns.ratingBlockKeys) { row in
                SortKeyBlocks.ratingKey(rating: ratings[row], reviews: reviews[row])
            }
        case .reviews:
            let reviews = columns.reviewCounts
            offerByKey(values, pending, count, blockKeys: columns.reviewBlockKeys) { SortKeyBlocks.reviewsKey(reviews: reviews[$0]) }
        default:
            let sort = self.sort, filter = self.filter
            offerByKey(values, pending, count, blockKeys: nil) { Scan.key(sort: sort, row: $0, value: 0, columns: columns, filter: filter) }
        }
    }

    /// Offers the settled values whose price is in the range and whose row's key (`key`, for an order
    /// that is not by price) does not exceed the page's cutoff. Once the page is full, values whose rows'
    /// blocks (`blockKeys`, per block of ``SortKeyBlocks``) have no key that could enter it are passed
    /// over at once: after the first blocks of a scan of many rows, nearly all of them (callgrind, the
    /// rating-ordered queries of the mix without a region: about 30 instructions a value when each was
    /// keyed).
    @inline(__always)
    private mutating func offerByKey(_ values: UnsafePointer<Int64>, _ rows: UnsafePointer<Int32>, _ count: Int,
                                     blockKeys: UnsafePointer<Int64>?, key: (Int) -> Int64) {
        if let blockKeys, pageCutoff != Int64.max {
            // Rows are in order: the blocks of the first and the last, and any between.
            var best = Int64.max
            for block in (Int(rows[0]) &>> SortKeyBlocks.blockShift)...(Int(rows[count &- 1]) &>> SortKeyBlocks.blockShift) {
                best = min(best, blockKeys[block])
            }
            if best > pageCutoff { return }
        }
        let lowest = lowestValue, highest = highestValue, ids = columns.ids
        var cutoff = pageCutoff
        for i in 0..<count where values[i] >= lowest && values[i] <= highest {
            let row = Int(rows[i])
            let key = key(row)
            if key <= cutoff { cutoff = offerToPage(RankedRow(key: key, id: ids[row], row: Int32(row), value: values[i])) }
        }
    }

    /// Offers the settled values whose price is in the range and whose key (the price, or its negation)
    /// does not exceed the page's cutoff: once the page is full, the values it may take lie in one range,
    /// skipped four lanes at a time to the next one inside it.
    private mutating func offerByPrice(_ values: UnsafePointer<Int64>, _ rows: UnsafePointer<Int32>, _ count: Int, descending: Bool) {
        var i = 0
        while true {
            // Keys: the price (ascending) or its negation, so a key ≤ cutoff is a price ≤ cutoff, or ≥ −cutoff.
            let cutoff = pageCutoff
            let low = descending ? max(lowestValue, -cutoff) : lowestValue      // keys are never below −Int64.max
            let high = descending ? highestValue : min(highestValue, cutoff)
            i = staysearch_first_in_range(values, i, count, low, high)
            guard i < count else { return }
            let value = values[i], row = Int(rows[i])
            _ = offerToPage(RankedRow(key: descending ? -value : value, id: columns.ids[row], row: Int32(row), value: value))
            i &+= 1
        }
    }

    /// Offers `ranked` to the page; the key a row must not exceed to enter it from now on.
    @inline(never)
    private mutating func offerToPage(_ ranked: RankedRow) -> Int64 {
        page.offer(ranked)
        if let worst = page.largestWhenFull { pageCutoff = worst.key }
        return pageCutoff
    }

    /// Considers the candidates of one word without dates: listing filters, then the price without
    /// dates, written to `values` with the row beside it in `pending`, settled with the block as a stay's
    /// totals are.
    private mutating func visitWithoutDates(word: Int, candidates: UInt64, pending: UnsafeMutablePointer<Int32>) {
        let base = word << 6
        var bits = candidates
        if filter.checksRows {
            var rest = bits
            while rest != 0 {
                let bit = rest.trailingZeroBitCount
                rest &= rest &- 1
                if !filter.passes(row: base &+ bit) { bits &= ~(1 &<< UInt64(bit)) }
            }
        }
        let prices = columns.basePrices, wide = columns.widePrices, values = valueBase, rows = pending - settledCount
        let start = tally.valueCount, passing = bits
        var written = start
        while bits != 0 {
            let row = base &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            values[written] = WidePrices.amount(ofStored: prices[row], in: wide)
            rows[written] = Int32(truncatingIfNeeded: row)
            written &+= 1
        }
        tally.valueCount = written
        if let kept {
            keptCount = kept.keep(word: word, candidates: passing, written: valueBase + start, lowest: lowestValue,
                                  highest: highestValue, after: keptCount)
        }
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
                (undated?.priced ?? index.storage.pricedWithoutDates).withUnsafeBufferPointer { priced in
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

    /// Keeps the value of a row that passes every filter but price for the histogram (its stay's nights'
    /// sum `sum`, or with fees its trip price), and counts and offers it to the page when its price is in range.
    @inline(__always)
    mutating func collect(row: Int, value sum: Int64, checkIn: Int32 = 0, into tally: inout ScanTally) {
        let value = tripFees.map { $0.tripPrice(sum, row: row, nights: nights, guests: guests, serviceFee: serviceFee) } ?? sum
        valueBase[tally.valueCount] = value
        if let valueRows {
            valueRows[tally.valueCount] = Int32(truncatingIfNeeded: row)
            valueCheckIns?[tally.valueCount] = checkIn
        }
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
        Scan.key(sort: sort, row: row, value: value, columns: columns, filter: filter)
    }

    /// The page's sort key of row `row` whose value is `value` (smaller first).
    @inline(__always)
    private static func key(sort: SortOrder, row: Int, value: Int64, columns: ScanColumns, filter: ListingFilter) -> Int64 {
        switch sort {
        case .price: return value
        case .priceDescending: return -value
        case .rating: return SortKeyBlocks.ratingKey(rating: columns.ratings[row], reviews: columns.reviewCounts[row])
        case .reviews: return SortKeyBlocks.reviewsKey(reviews: columns.reviewCounts[row])
        case .distance: return Int64(bitPattern: filter.distance(row: row).bitPattern)   // ≥ 0: bits order as values
        case .recommended: return 0                         // ranked after the scan (no page is kept during it)
        }
    }
}
