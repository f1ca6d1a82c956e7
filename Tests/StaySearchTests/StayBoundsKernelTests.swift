import StaySearchKernels
import StaySearchTestSupport
import Testing

/// `staysearch_stay_bounds`, fastest and portable, against every stay summed here: day-major codes of rows that
/// are not a multiple of eight, nights without a price (rare, or most of them), stays of one night to 120 (the
/// fastest version counts the missing nights of stays over 63 apart), and prices up to the largest code.
@Suite struct StayBoundsKernelTests {
    @Test(arguments: 0..<24)
    func boundsAreTheCheapestAndDearestWholeStays(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 977 + 5)
        let limit: UInt16 = 0xFFFE
        let rows = Int.random(in: 1...5_000, using: &random)
        let stride = rows + Int.random(in: 0...9, using: &random)
        let nights = seed % 3 == 0 ? Int.random(in: 64...120, using: &random) : Int.random(in: 1...14, using: &random)
        let span = nights + Int.random(in: 0...40, using: &random)
        let unpricedShare = [0.0, 0.002, 0.05, 0.9][seed % 4]
        let dearest = seed % 5 == 0 ? Int(limit) - 1 : 3_000
        var codes = [UInt16](repeating: 0, count: span * stride)
        for night in 0..<span {
            for row in 0..<rows {
                codes[night * stride + row] = Double.random(in: 0..<1, using: &random) < unpricedShare
                    ? [limit, 0xFFFF][row % 2] : UInt16(Int.random(in: 0...dearest, using: &random))
            }
        }
        var expectedLows = [Int32](repeating: .max, count: rows), expectedHighs = [Int32](repeating: -1, count: rows)
        for row in 0..<rows {
            for first in 0...(span - nights) {
                let stay = (first..<(first + nights)).map { codes[$0 * stride + row] }
                guard stay.allSatisfy({ $0 < limit }) else { continue }
                let total = stay.reduce(Int32(0)) { $0 + Int32($1) }
                expectedLows[row] = min(expectedLows[row], total)
                expectedHighs[row] = max(expectedHighs[row], total)
            }
        }
        for portable in [0, 1] {
            var lows = [Int32](repeating: 7, count: rows), highs = [Int32](repeating: 7, count: rows)
            staysearch_calendar_use_portable(Int32(portable))
            staysearch_stay_bounds(codes, stride, rows, span, nights, limit, &lows, &highs)
            staysearch_calendar_use_portable(0)
            let wrong = (0..<rows).first { lows[$0] != expectedLows[$0] || highs[$0] != expectedHighs[$0] }
            #expect(wrong == nil, "seed \(seed), portable \(portable), \(rows) rows, \(nights) nights over \(span): row \(wrong ?? -1) \(wrong.map { "\(lows[$0])...\(highs[$0]), expected \(expectedLows[$0])...\(expectedHighs[$0])" } ?? "")")
        }
    }
}
