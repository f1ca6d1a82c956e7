import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// The writer's calendar fields, made byte by byte, are the text the string path makes.
@Suite struct InsideAirbnbWriterTests {
    @Test func pricesAndCountsAreWrittenAsTheirText() {
        var random = SeededGenerator(seed: 9)
        var prices: [Int64] = [0, 1, 5, 99, 100, 999_99, 1_000_00, 1_000_01, 12_345_678, 100_000_000, 1_000_000_000, Int64(Int32.max),
                               -1, -250_00, -1_234_567]
        for _ in 0..<2_000 { prices.append(Int64.random(in: 0...10_000_000_000, using: &random)) }
        for minorUnits in prices {
            var bytes: [UInt8] = []
            InsideAirbnbWriter.appendPriceField(Money(minorUnits: minorUnits), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == InsideAirbnbWriter.csvField(Money(minorUnits: minorUnits).formatted()))
        }
        for value in [0, 9, 10, 99, 1_125, 2_147_483_647, Int64.max, -1, -90] + (0..<500).map({ _ in Int64.random(in: 0...Int64.max, using: &random) }) {
            var bytes: [UInt8] = []
            InsideAirbnbWriter.appendDecimal(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }
}
