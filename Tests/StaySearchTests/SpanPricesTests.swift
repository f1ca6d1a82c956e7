@testable import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar's span prices worked out for a few rows (a region's calendar on a span not worked
/// out for every row) equal those worked out for every row, on every row of the words they cover; each row's
/// stay bounds are its least and greatest stay where its running sums are kept, else nights × its night bounds.
@Suite struct SpanPricesTests {
    @Test(arguments: 0..<12)
    func aFewRowsArePricedAsEveryRow(seed: Int) {
        let data = TestDataset.random(seed: UInt64(seed) + 9_100, maximumListings: 1_500)
        let index = data.makeIndex().index
        guard index.count > 0, index.dayCount > 1 else { return }
        var random = SeededGenerator(seed: UInt64(seed) + 9_200)
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
