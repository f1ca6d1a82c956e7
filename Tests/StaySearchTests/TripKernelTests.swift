import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// A word's trip prices by the C kernel, both versions, from fee entries in planes, against ``TripPrice`` stay by stay: random words,
/// fees at their bounds, 1–40 nights across the 7 and 28 boundaries, guests above and below those included.
@Suite struct TripKernelTests {
    @Test(arguments: 0..<30)
    func aWordsTripPricesAgreeWithTheQuote(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 7_000)
        for _ in 0..<40 {
            let feeWord = random.next() & random.next() | (random.chance(0.3) ? ~0 : 0)
            let written = random.chance(0.2) ? ~0 : random.next() & random.next()
            var fees: [ListingFees?] = []
            var entries: [UInt32] = []
            for bit in 0..<64 where feeWord >> UInt64(bit) & 1 == 1 {
                let fee = ListingFees(
                    cleaningFee: random.chance(0.3) ? nil : Money(minorUnits: random.chance(0.1) ? Int64(Int32.max) : Int64.random(in: 1...90_000, using: &random)),
                    guestsIncluded: Int.random(in: 1...(random.chance(0.1) ? 255 : 4), using: &random),
                    extraGuestFee: random.chance(0.5) ? nil : Money(minorUnits: random.chance(0.1) ? (1 << 24) - 1 : Int64.random(in: 1...9_000, using: &random)),
                    weeklyDiscountBasisPoints: random.chance(0.5) ? 0 : Int.random(in: 1...9_900, using: &random),
                    monthlyDiscountBasisPoints: random.chance(0.5) ? 0 : Int.random(in: 1...9_900, using: &random),
                    securityDeposit: nil)
                fees.append(fee)
                let extra = UInt32(fee.extraGuestFee?.minorUnits ?? 0)
                entries += [UInt32(fee.cleaningFee?.minorUnits ?? 0), extra << 8 | UInt32(fee.guestsIncluded),
                            UInt32(fee.weeklyDiscountBasisPoints) | UInt32(fee.monthlyDiscountBasisPoints) << 16, 0]
            }
            // In planes, as the index keeps them: a word of each entry after another, plane after plane.
            let count = fees.count
            let planes = (0..<4 * count).map { entries[$0 % count * 4 + $0 / count] }
            let nights = random.pick([1, 2, 6, 7, 8, 27, 28, 29, 40, Int.random(in: 1...40, using: &random)])
            let guests = Int.random(in: 1...16, using: &random)
            let serviceFee = random.chance(0.5) ? 0 : Int.random(in: 1...10_000, using: &random)
            var sums: [Int64] = []
            var expected: [Int64] = []
            for bit in 0..<64 where written >> UInt64(bit) & 1 == 1 {
                let sum = random.chance(0.05) ? Int64(Int32.max) * Int64(nights) : Int64.random(in: 0...(Int64(nights) * 200_000), using: &random)
                sums.append(sum)
                let hasFees = feeWord >> UInt64(bit) & 1 == 1
                let rank = (feeWord & ((1 << UInt64(bit)) &- 1)).nonzeroBitCount
                expected.append(TripPrice(nightlySubtotal: sum, nights: nights, guests: guests, fees: hasFees ? fees[rank] : nil,
                                          serviceFee: serviceFee).tripPrice)
            }
            var terms = staysearch_trip_terms(nights: Int64(nights), guests: Int64(guests), service_fee: Int64(serviceFee),
                                              discount: nights >= 28 ? 2 : nights >= 7 ? 1 : 0)
            for portable in [false, true] {
                staysearch_trip_use_portable(portable ? 1 : 0)
                var values = sums
                planes.withUnsafeBufferPointer { planes in
                    staysearch_trip_prices(&values, written, feeWord, planes.baseAddress, count, &terms)
                }
                #expect(values == expected, "portable: \(portable), nights \(nights), guests \(guests), service fee \(serviceFee)")
            }
            staysearch_trip_use_portable(0)
        }
    }
}
