import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar's span prices worked out for a few rows (a region's calendar on a span not worked
/// out for every row) equal those worked out for every row, on every row of the words they cover; each row's
/// stay bounds are its least and greatest stay where its running sums are kept, else nights × its night bounds;
/// an irregular row's stays from each check-in are the sums of its nights (a month of check-ins or fewer).
@Suite struct SpanPricesTests {
    @Test(arguments: 0..<12)
    func aFewRowsArePricedAsEveryRow(seed: Int) {
        let data = TestDataset.random(seed: UInt64(seed) + 9_100, maximumListings: 1_500)
        let index = data.makeIndex().index
        guard index.count > 0, index.dayCount > 1 else { return }
        var random = SeededGenerator(seed: UInt64(seed) + 9_200)
        // Every seed's prices of cents give irregular rows (160–990 checked a seed).
        var irregularRows = 0
        defer { #expect(irregularRows > 0, "seed \(seed): no irregular row checked") }
        for round in 0..<10 {
            let start = Int.random(in: 0..<(index.dayCount - 1), using: &random)
            let end = min(index.dayCount, start + Int.random(in: 1...40, using: &random))
            let nights = Int.random(in: 1...(end - start), using: &random)
            let every = SpanPrices(of: index, from: start, to: end, nights: nights)
            let ranges = (0..<Int.random(in: 1...3, using: &random)).map { _ -> Range<Int> in
                let low = Int.random(in: 0..<index.count, using: &random)
                return low..<Int.random(in: low...min(index.count, low + 300), using: &random)
            }
            let few = SpanPrices(of: index, from: start, to: end, nights: nights, rows: ranges)
            let context = "seed \(seed) round \(round): \(start)..<\(end), rows \(ranges)"
            #expect(few.covers(ranges) && every.covers(ranges), "\(context)")
            let span = end - start
            let checkIns = span - nights + 1
            // Kept for a month of check-ins or fewer while the irregular rows are few (here always).
            let coveredRows = few.rows!.flatMap { $0 }
            let irregularCount = coveredRows.filter { few.prices[$0] == SpanPrices.irregular }.count
            let staysKept = checkIns <= Int(STAYSEARCH_CALENDAR_ROWS_CHECKINS)
                && irregularCount <= max(SpanPrices.irregularRowsAlwaysKept, coveredRows.count / SpanPrices.mostIrregularShare)
            #expect(few.checkIns == checkIns && every.checkIns == checkIns, "\(context)")
            for range in few.rows! {
                for row in range {
                    guard few.prices[row] == SpanPrices.irregular, staysKept else {
                        #expect(few.exactSlots[row] == -1, "\(context) row \(row): a regular row has no exact stays")
                        continue
                    }
                    let slot = Int(few.exactSlots[row])
                    #expect(slot >= 0, "\(context) row \(row)")
                    guard slot >= 0 else { continue }
                    let amounts = index.nightPrices.amounts(row: row, dayCount: index.dayCount)
                    let expected = (0..<checkIns).map { first in
                        (start + first..<start + first + nights).reduce(Int64(0)) { $0 + max(0, amounts[$1]) }
                    }
                    #expect((0..<checkIns).map { few.exactStays[slot * checkIns + $0] } == expected, "\(context) row \(row): exact stays")
                    irregularRows += 1
                }
            }
            for range in few.rows! {
                #expect(range.lowerBound % 64 == 0 && (range.upperBound % 64 == 0 || range.upperBound == index.count), "\(context)")
                for row in range {
                    let (code, expected) = (few.prices[row], every.prices[row])
                    if expected <= -4 {
                        // Copied nights: their own place in each, the same nights.
                        #expect(code <= -4, "\(context) row \(row)")
                        guard code <= -4 else { continue }
                        let mine = (0..<span).map { few.nights[Int(-4 - code) * span + $0] }
                        let theirs = (0..<span).map { every.nights[Int(-4 - expected) * span + $0] }
                        #expect(mine == theirs, "\(context) row \(row)")
                    } else {
                        #expect(code == expected, "\(context) row \(row)")
                    }
                    #expect(few.lows[row] == every.lows[row] && few.highs[row] == every.highs[row], "\(context) row \(row)")
                    #expect(few.stayLows[row] == every.stayLows[row] && few.stayHighs[row] == every.stayHighs[row], "\(context) row \(row)")
                    #expect(few.stayLows[row] == expectedStayBounds(index, row: row, start: start, end: end, nights: nights, span: few).low
                            && few.stayHighs[row] == expectedStayBounds(index, row: row, start: start, end: end, nights: nights, span: few).high,
                            "\(context) row \(row) nights \(nights): stay bounds")
                }
            }
            // Rows past the covered words are not claimed.
            if let last = few.rows!.last, last.upperBound < index.count {
                #expect(!few.covers([last.upperBound..<(last.upperBound + 1)]), "\(context)")
            }
        }
    }

    /// The row kernel's 16-bit bounds of a row whose stays it reads hold exactly the stays a search could find
    /// over the span — every night bookable, a weekday the row's rule class allows — (or, with none, every
    /// stay), in both versions of the kernel; a row restored after nights opened holds every stay again.
    @Test(arguments: 0..<12)
    func theKernelsBoundsAreThoseOfTheStaysASearchCouldFind(seed: Int) {
        let data = TestDataset.random(seed: UInt64(seed) + 9_300, maximumListings: 1_500)
        let index = data.makeIndex().index
        guard index.count > 0, index.dayCount > 2 else { return }
        var random = SeededGenerator(seed: UInt64(seed) + 9_400)
        var narrowed = 0
        for round in 0..<8 {
            let nights = random.pick([1, 2, 3, 7])
            let windows = Int.random(in: 1...32, using: &random)
            guard index.dayCount >= windows + nights else { continue }
            let start = Int.random(in: 0...(index.dayCount - windows - nights), using: &random)
            let end = start + windows - 1 + nights
            let fast = SpanPrices(of: index, from: start, to: end, nights: nights)
            staysearch_calendar_use_portable(1)
            let portable = SpanPrices(of: index, from: start, to: end, nights: nights)
            staysearch_calendar_use_portable(0)
            let allowed = index.weekdaysOfRuleClasses(allowing: nights)
            let context = "seed \(seed) round \(round): \(start)..<\(end), \(nights) nights"
            var restored: [Int] = []
            for row in 0..<index.count {
                #expect(fast.stayLows16[row] == portable.stayLows16[row] && fast.stayHighs16[row] == portable.stayHighs16[row],
                        "\(context) row \(row): AVX2 and portable")
                let word = row >> 6, bit = UInt64(1) << UInt64(row & 63)
                guard fast.totalledRows[word] & bit != 0, fast.onePriceRows[word] & bit == 0 else { continue }
                let slot = Int(fast.sumSlots[row])
                let weekdays = allowed[Int(index.ruleClasses.classes[row])]
                let findable = (0..<windows).filter { p in
                    let weekday = (index.stayRules.firstWeekday + start + p) % 7
                    return weekdays >> UInt8(weekday) & 1 == 1
                        && (0..<nights).allSatisfy { index.isBookable(row: row, day: index.firstDay.advanced(by: start + p + $0)) }
                }.map { fast.stays[slot * fast.stayStride + $0] }
                let expected = findable.isEmpty ? (UInt16(fast.stayLows[row]), UInt16(fast.stayHighs[row])) : (findable.min()!, findable.max()!)
                #expect(fast.stayLows16[row] == expected.0 && fast.stayHighs16[row] == expected.1, "\(context) row \(row)")
                if expected != (UInt16(fast.stayLows[row]), UInt16(fast.stayHighs[row])) { narrowed += 1 }
                if random.chance(0.1) { restored.append(row) }
            }
            for row in restored {
                fast.restoreStayBounds(ofRow: row)
                #expect(fast.stayLows16[row] == UInt16(fast.stayLows[row]) && fast.stayHighs16[row] == UInt16(fast.stayHighs[row]),
                        "\(context) row \(row): restored")
            }
        }
        #expect(narrowed > 0, "seed \(seed): some row's bounds narrowed")
    }

    /// Nights opened in a live index widen the bounds its kept span prices narrowed to the stays that could be
    /// booked (the next calendar of that span reads them).
    @Test(arguments: 0..<6)
    func nightsOpenedInALiveIndexWidenItsKeptBounds(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 9_500, maximumListings: 1_500)
        let live = LiveIndex(data.makeIndex().index)
        let index = live.index
        guard index.count > 0, index.dayCount > 12 else { return }
        let (start, end, nights) = (2, 12, 3)
        let kept = index.spanPrices(from: start, to: end, nights: nights, rows: [0..<index.count])
        let narrowed = (0..<index.count).filter { row in
            let word = row >> 6, bit = UInt64(1) << UInt64(row & 63)
            return kept.totalledRows[word] & bit != 0 && kept.onePriceRows[word] & bit == 0
                && (kept.stayLows16[row], kept.stayHighs16[row]) != (UInt16(kept.stayLows[row]), UInt16(kept.stayHighs[row]))
        }
        var checked = 0
        for row in narrowed.prefix(20) {
            // Each night of the span opened where the row has a calendar row for it.
            let opened = (start..<end).filter { night in
                let day = index.firstDay.advanced(by: night)
                return (try? live.apply(.availability(id: index.listingID(ofRow: row), from: day, to: day.advanced(by: 1), available: true))) != nil
            }
            guard !opened.isEmpty else { continue }
            checked += 1
            let again = index.spanPrices(from: start, to: end, nights: nights, rows: [0..<index.count])
            #expect(again.stayLows16[row] == UInt16(again.stayLows[row]) && again.stayHighs16[row] == UInt16(again.stayHighs[row]),
                    "seed \(seed) row \(row)")
        }
        #expect(checked > 0 || narrowed.isEmpty, "seed \(seed): nights opened")
    }

    /// Row `row`'s stay bounds summed here night by night (a night without a price counts as 0).
    func expectedStayBounds(_ index: ListingIndex, row: Int, start: Int, end: Int, nights: Int, span: SpanPrices) -> (low: Int32, high: Int32) {
        let (low, high) = (span.lows[row], span.highs[row])
        guard low >= 0 else { return (-1, -1) }
        guard span.sumSlots[row] >= 0, Int(high) * nights <= Int(STAYSEARCH_CALENDAR_ROWS_LARGEST) else {
            return (low * Int32(nights), high * Int32(nights))
        }
        var prices = [Int32](repeating: 0, count: end - start)
        prices.withUnsafeMutableBufferPointer { index.nightPrices.values(row: row, from: start, to: end, into: $0.baseAddress!) }
        let units = prices.map { max(0, $0) / 100 }
        let totals = (0...(end - start - nights)).map { p in units[p..<(p + nights)].reduce(0, +) }
        return (totals.min()!, totals.max()!)
    }
}
