import StaySearch
import StaySearchTestSupport
import Testing

/// The builder's compact night values against plain arrays: codes, the side table of exact prices, the
/// availability bits, and emptied for reuse.
@Suite struct NightValuesTests {
    @Test(arguments: 0..<40)
    func holdWhatWasAppended(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        func randomValues() -> (NightValues, [Int32], [Bool]) {
            var values = NightValues()
            var prices: [Int32] = [], available: [Bool] = []
            for _ in 0..<Int.random(in: 0...200, using: &random) {
                let price: Int32 = random.pick([-1, 0, 100, 7_000, 12_345, 6_553_200, 6_553_300, 2_147_483_600, 99])
                let isAvailable = random.chance(0.5)
                let count = random.pick([1, 1, 1, 3, 64, 70])
                values.append(price: price, isAvailable: isAvailable, count: count)
                prices += repeatElement(price, count: count)
                available += repeatElement(isAvailable, count: count)
            }
            return (values, prices, available)
        }
        var (values, prices, available) = randomValues()
        if seed % 2 == 0 {
            // Emptied and filled again, as the builder reuses one for every listing.
            values.removeAll()
            #expect(values.count == 0)
            (prices, available) = ([], [])
            for _ in 0..<Int.random(in: 0...100, using: &random) {
                let price: Int32 = random.pick([-1, 300, 99, 2_147_483_600])
                let isAvailable = random.chance(0.5)
                values.append(price: price, isAvailable: isAvailable)
                prices.append(price)
                available.append(isAvailable)
            }
        }
        #expect(values.count == prices.count)
        #expect((0..<values.count).map { values.price(at: $0) } == prices)
        #expect((0..<values.count).map { values.isAvailable(at: $0) } == available)
    }
}
