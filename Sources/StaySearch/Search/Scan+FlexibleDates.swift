import StaySearchKernels

/// Flexible dates: each candidate row's cheapest bookable stay among several check-ins, found in the one
/// pass rather than one search per check-in.
///
/// - The rows bookable for each check-in come from the nights' bit sets by doubling: the AND of every
///   run of 1, 2, 4, … days over the span, so a stay of *n* nights is two runs' AND, and the whole window
///   costs about span × log₂ *n* word operations instead of check-ins × *n*.
/// - A candidate's bookable check-ins are a bit mask (at most 62 check-ins), narrowed by its stay rules
///   (a rule without runs or weekly patterns is decided once for every check-in).
/// - A dense row's total for each check-in is the difference of its running sums at the stay's ends (two
///   loads a check-in whatever the stay's length); a row with one price all year takes its earliest
///   bookable check-in.
extension Scan {
    /// Puts into `stayBlocks` the rows bookable for each check-in's stay, and into `block` their union
    /// narrowed by the listing-detail bit sets.
    mutating func fillFlexibleCandidates(words: Range<Int>) {
        let count = words.count
        let wordsPerDay = index.wordsPerDay
        let nights = Int(self.nights)
        let firstDay = stayStart
        let spanDays = Int(checkIns[checkIns.count - 1]) - firstDay + nights
        let stride = Scan.blockWords
        let checkIns = self.checkIns
        spanWords.withUnsafeMutableBufferPointer { span in
            index.storage.bookable.withUnsafeBufferPointer { bookable in
                for day in 0..<spanDays {
                    let source = (firstDay + day) * wordsPerDay + words.lowerBound
                    for i in 0..<count { span[day &* stride &+ i] = bookable[source &+ i] }
                }
            }
            // After this, span[d] holds the AND of days d ..< d + width (for every d where that fits).
            var width = 1
            while width * 2 <= nights {
                for day in 0..<(spanDays - width) {
                    let target = day &* stride, other = (day &+ width) &* stride
                    for i in 0..<count { span[target &+ i] &= span[other &+ i] }
                }
                width *= 2
            }
            stayBlocks.withUnsafeMutableBufferPointer { stays in
                block.withUnsafeMutableBufferPointer { block in
                    for i in 0..<count { block[i] = 0 }
                    for (k, checkIn) in checkIns.enumerated() {
                        let start = (Int(checkIn) - firstDay) * stride
                        let end = (Int(checkIn) - firstDay + nights - width) * stride
                        for i in 0..<count {
                            let bookable = span[start &+ i] & span[end &+ i]
                            stays[k &* stride &+ i] = bookable
                            block[i] |= bookable
                        }
                    }
                }
            }
        }
        block.withUnsafeMutableBufferPointer { block in
            for set in filter.bitSets {
                let words = set + words.lowerBound
                for i in 0..<count { block[i] &= words[i] }
            }
        }
    }

    /// Considers the candidates of one word (`position` in the block) for flexible dates: listing
    /// filters, the check-ins each row is bookable and allowed for, then its cheapest stay.
    /// - Parameter classCheckIns: for each stay rule class, the check-ins it allows the stay's length for
    ///   (``fillClassCheckIns(_:)``).
    mutating func visitFlexibleStays(word: Int, position: Int, candidates: UInt64, classCheckIns: UnsafePointer<UInt64>) {
        loadDensePricesAhead(ofWordAfter: word)
        var tally = tally
        var bits = candidates
        let base = word << 6
        let checkInCount = checkIns.count
        // Each row's check-ins: transposed for the whole word when many rows and check-ins, else bit by bit.
        let transposes = candidates.nonzeroBitCount &* checkInCount > 512
        if transposes {
            stayBlocks.withUnsafeBufferPointer { stays in
                rowCheckIns.withUnsafeMutableBufferPointer { matrix in
                    for k in 0..<64 { matrix[k] = k < checkInCount ? stays[k &* Scan.blockWords &+ position] : 0 }
                    BitMatrix.transpose(matrix.baseAddress!)
                }
            }
        }
        // First each candidate's allowed check-ins (into `rowCheckIns`, by bit), and the rows left with any:
        // a row whose stay rules allow none leaves without a branch on it.
        var kept: UInt64 = 0
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            let row = base &+ bit
            bits &= bits &- 1
            guard passesDetailFilters(row: row) else { continue }
            var mask: UInt64 = 0
            if transposes {
                mask = rowCheckIns[bit]
            } else {
                stayBlocks.withUnsafeBufferPointer { stays in
                    for k in 0..<checkInCount {
                        mask |= ((stays[k &* Scan.blockWords &+ position] &>> UInt64(bit)) & 1) &<< UInt64(k)
                    }
                }
            }
            let ruleClass = columns.ruleClasses[row]
            mask = ruleClass != RuleClasses.checkRow ? mask & classCheckIns[Int(ruleClass)] : allowedCheckIns(row: row, among: mask)
            rowCheckIns[bit] = mask
            kept |= UInt64(mask != 0 ? 1 : 0) &<< UInt64(bit)
        }
        // A whole word of dense rows (ranks 63 apart) with many rows left and consecutive check-ins: every
        // row's cheapest stay worked out at once, eight rows at a time.
        if checkInsAreConsecutive, kept.nonzeroBitCount >= Scan.denseWordCandidates, base &+ 64 <= columns.rowCount,
           let firstRank = columns.priceValues[Int(columns.priceOffsets[base])].denseIndex,
           columns.priceValues[Int(columns.priceOffsets[base &+ 63])].denseIndex == firstRank &+ 63,
           columns.staysAreExact(ranks: firstRank..<(firstRank &+ 64), nights: Int(nights)) {
            let sums = columns.dense + (Int(checkIns[0]) &* columns.denseRows &+ firstRank)
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 128) { scratch in
                let units = scratch.baseAddress!, picked = units + 64
                rowCheckIns.withUnsafeBufferPointer { allowed in
                    staysearch_dense_word_cheapest(sums, columns.denseRows, Int(nights), checkInCount, allowed.baseAddress!, kept, units, picked)
                }
                while kept != 0 {
                    let bit = kept.trailingZeroBitCount
                    kept &= kept &- 1
                    collect(row: base &+ bit, value: (Int64(units[bit]) &+ columns.baseTotal(ofRank: firstRank &+ bit, nights: Int(nights)))
                                &* columns.denseUnit(ofRank: firstRank &+ bit), checkIn: checkIns[Int(picked[bit])], into: &tally)
                }
            }
        }
        while kept != 0 {
            let bit = kept.trailingZeroBitCount
            kept &= kept &- 1
            let row = base &+ bit
            let (value, k) = cheapestStay(row: row, among: rowCheckIns[bit])
            collect(row: row, value: value, checkIn: checkIns[k], into: &tally)
        }
        self.tally = tally
    }

    /// Reads one running sum of the next word's dense rows on every day of the window and its stays' ends,
    /// before this word's rows are priced.
    ///
    /// A window's stays read each dense row's sums on every check-in and every stay's end, a day-major
    /// stream per day: up to 62 streams, more than the hardware prefetcher follows, so each new cache line
    /// was a miss waited on by the row that needed it. Read here, 64 rows ahead, the misses of all the days
    /// are in flight at once, and the rows of the next word find their lines in cache.
    private mutating func loadDensePricesAhead(ofWordAfter word: Int) {
        let next = (word &+ 1) &<< 6
        guard next < index.count, let rank = columns.priceValues[Int(columns.priceOffsets[next])].denseIndex else { return }
        let denseRows = columns.denseRows
        let last = min(rank &+ 32, denseRows &- 1)
        let end = Int(checkIns[checkIns.count &- 1]) &+ Int(nights)
        var code = columns.dense + (Int(checkIns[0]) &* denseRows)
        var loaded: UInt16 = 0
        for _ in Int(checkIns[0])...end {
            loaded ^= code[rank] ^ code[last]
            code += denseRows
        }
        loadedAhead ^= loaded
    }

    /// Sets `masks[c]` to the check-ins whose stay rule, for a row of stay rule class *c*, allows the stay's
    /// length: all or none for a plain rule, the allowed weekdays' check-ins for a weekly pattern.
    func fillClassCheckIns(_ masks: UnsafeMutableBufferPointer<UInt64>) {
        masks.initialize(repeating: 0)
        let nights = Int(self.nights)
        for (ruleClass, packed) in index.ruleClasses.values.enumerated() {
            guard let pattern = packed.patternIndex else {
                masks[ruleClass] = StayRule(packed: packed).allows(nights: nights) ? ~0 : 0
                continue
            }
            var allowed: UInt64 = 0
            for slot in 0..<7 where StayRule(packed: columns.rulePatterns[pattern &* 7 &+ slot]).allows(nights: nights) {
                allowed |= checkInsByWeekday[slot]
            }
            masks[ruleClass] = allowed
        }
    }

    /// The check-ins of `mask` whose stay rule allows the stay's length for row `row`.
    /// (`mutating` only so that `self`, a large struct, is passed by address rather than copied per row.)
    @inline(__always)
    private mutating func allowedCheckIns(row: Int, among mask: UInt64) -> UInt64 {
        let nights = Int(self.nights)
        let run = Int(columns.ruleOffsets[row])
        if Int(columns.ruleOffsets[row &+ 1]) &- run == 1 {
            let packed = columns.ruleValues[run]
            guard let pattern = packed.patternIndex else { return StayRule(packed: packed).allows(nights: nights) ? mask : 0 }
            var allowed: UInt64 = 0
            for slot in 0..<7 where StayRule(packed: columns.rulePatterns[pattern &* 7 &+ slot]).allows(nights: nights) {
                allowed |= checkInsByWeekday[slot]
            }
            return mask & allowed
        }
        var allowed: UInt64 = 0
        var bits = mask
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits &- 1
            let checkIn = Int(checkIns[k])
            var packed = columns.ruleValues[index.stayRules.run(row: row, dayOffset: checkIn)]
            if let pattern = packed.patternIndex {
                packed = columns.rulePatterns[pattern &* 7 &+ (index.stayRules.firstWeekday &+ checkIn) % 7]
            }
            if StayRule(packed: packed).allows(nights: nights) { allowed |= 1 &<< UInt64(k) }
        }
        return allowed
    }

    /// The lowest total among the stays starting at the check-ins of `mask` (not empty) for row `row`,
    /// and which check-in it is (the earliest of equal totals).
    /// (`mutating` only so that `self` is passed by address rather than copied per row.)
    @inline(__always)
    private mutating func cheapestStay(row: Int, among mask: UInt64) -> (value: Int64, checkIn: Int) {
        let nights = Int(self.nights)
        let lowest = mask.trailingZeroBitCount
        let first = Int(columns.priceOffsets[row])
        let reference = columns.priceValues[first]
        if reference >= 0, reference < WidePrices.firstReference, Int(columns.priceOffsets[row &+ 1]) &- first == 1 {
            return (Int64(reference) &* Int64(nights), lowest)          // one price all year
        }
        // Stays are compared by one key, total × 64 + check-in, and the smallest kept with `min` (no branch
        // on which stay is cheaper: prices that change day by day made those branches a coin toss); equal
        // totals keep the earliest check-in. Totals in whole units are below 2^40, so keys do not overflow.
        var bestKey = Int64.max
        guard let rank = reference.denseIndex else {
            let end = Int(columns.priceOffsets[row &+ 1])
            var bits = mask
            while bits != 0 {
                let k = bits.trailingZeroBitCount
                bits &= bits &- 1
                let checkIn = Int(checkIns[k])
                let total = columns.runPriceTotal(runs: first..<end, from: checkIn, to: checkIn &+ nights)
                bestKey = min(bestKey, total &<< 6 | Int64(k))
            }
            return (bestKey &>> 6, Int(bestKey & 63))
        }
        let denseRows = columns.denseRows
        let dense = columns.dense
        // A stay not in `mask` gets the key Int64.max: all ones but the sign bit ORed in (keys are ≥ 0).
        @inline(__always) func key(_ units: Int64, _ k: Int) -> Int64 {
            let notAllowed = Int64((mask &>> UInt64(k)) & 1) &- 1          // 0 when allowed, −1 when not
            return (units &<< 6 | Int64(k)) | (notAllowed & Int64.max)
        }
        // With consecutive check-ins (± days), every check-in is visited whatever the row's mask: a loop
        // whose length changed from row to row mispredicted about twice a row.
        var bits = checkInsAreConsecutive ? UInt64.max &>> UInt64(64 &- checkIns.count) : mask
        if checkInsAreConsecutive, columns.staysAreExact(ranks: rank..<(rank &+ 1), nights: nights) {
            // Each stay the difference of the running sums at its ends, check-in k on day checkIns[0] + k.
            var before = dense + (Int(checkIns[0]) &* denseRows &+ rank)
            let ends = nights &* denseRows
            for k in 0..<checkIns.count {
                bestKey = min(bestKey, key(Int64(before[ends] &- before[0]), k))
                before += denseRows
            }
        } else if columns.staysAreExact(ranks: rank..<(rank &+ 1), nights: nights) {
            while bits != 0 {
                let k = bits.trailingZeroBitCount
                bits &= bits &- 1
                let before = dense + (Int(checkIns[k]) &* denseRows &+ rank)
                bestKey = min(bestKey, key(Int64(before[nights &* denseRows] &- before[0]), k))
            }
        } else {
            while bits != 0 {
                let k = bits.trailingZeroBitCount
                bits &= bits &- 1
                let checkIn = Int(checkIns[k])
                let units = columns.denseSum(rank: rank, from: checkIn, to: checkIn &+ nights)
                bestKey = min(bestKey, key(units, k))
            }
        }
        return (((bestKey &>> 6) &+ columns.baseTotal(ofRank: rank, nights: nights)) &* columns.denseUnit(ofRank: rank), Int(bestKey & 63))
    }
}
