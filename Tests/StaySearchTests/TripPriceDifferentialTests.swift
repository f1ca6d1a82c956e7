import StaySearch
import StaySearchTestSupport
import Testing

/// Trip prices (SPEC, "What a guest pays") against the brute-force reference: random fees, discounts,
/// service fees, stays of 1–40 nights around the 7- and 28-night boundaries, guests above and below those
/// included, both kinds of pricing, one thread and several, with and without price slots.
@Suite struct TripPriceDifferentialTests {
    /// Every fourth seed with wide prices (up to 1,000,000,000.00 a night) beside its fees.
    @Test(arguments: 0..<40)
    func engineAgreesWithReference(seed: Int) throws {
        let drawn = TestDataset.random(seed: UInt64(seed)).withRandomFees(seed: UInt64(seed))
        let data = seed % 4 == 1 ? drawn.withWidePrices(seed: UInt64(seed)) : drawn
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed) &* 6_151)
        for queryNumber in 0..<40 {
            let query = data.randomTripQuery(using: &random)
            let expected = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data) }
            let actual = Result { () throws(QueryError) in ReferenceAnswer(try index.search(query)) }
            let threads = queryNumber % 3 + 2
            switch (expected, actual) {
            case let (.success(want), .success(got)):
                #expect(got == want, "seed \(seed) query \(queryNumber): \(query)\n got \(got)\nwant \(want)")
                let parallel = try ReferenceAnswer(index.search(query, threads: threads, minimumRowsPerPart: 1))
                #expect(parallel == want, "seed \(seed) query \(queryNumber), \(threads) threads")
                let counted = try ReferenceAnswer(index.search(query, threads: threads, minimumRowsPerPart: 1, minimumRowsForPriceSlots: 0))
                #expect(counted == want, "seed \(seed) query \(queryNumber), price slots")
            case (.failure, .failure):
                break
            default:
                Issue.record("seed \(seed) query \(queryNumber): \(query)\n got \(actual)\nwant \(expected)")
            }
        }
    }

    /// The random data and queries reach what the rules distinguish.
    @Test func randomStaysReachEveryRule() throws {
        var weekly = 0, monthly = 0, extraGuests = 0, serviceFees = 0, dated = 0, withFees = 0
        for seed in 0..<40 {
            let data = TestDataset.random(seed: UInt64(seed)).withRandomFees(seed: UInt64(seed))
            let byID = Dictionary(uniqueKeysWithValues: data.listings.map { ($0.id, $0) })
            var random = SeededGenerator(seed: UInt64(seed) &* 6_151)
            for _ in 0..<40 {
                let query = data.randomTripQuery(using: &random)
                guard let answer = try? ReferenceSearch.search(query, in: data), let nights = answer.nights else { continue }
                for id in answer.ids {
                    dated += 1
                    guard let fees = byID[id]?.fees else { continue }
                    withFees += 1
                    if nights >= 28, fees.monthlyDiscountBasisPoints > 0 { monthly += 1 }
                    if nights >= 7, nights < 28, fees.weeklyDiscountBasisPoints > 0 { weekly += 1 }
                    if query.adults + query.children > fees.guestsIncluded, (fees.extraGuestFee?.minorUnits ?? 0) > 0 { extraGuests += 1 }
                    if query.serviceFeeBasisPoints > 0 { serviceFees += 1 }
                }
            }
        }
        #expect(dated > 1_000)
        #expect(withFees > 500)
        #expect(weekly > 50)
        #expect(monthly > 20)
        #expect(extraGuests > 50)
        #expect(serviceFees > 200)
    }

    /// The trip price of a model stay, line by line as SPEC writes it.
    @Test func theLinesOfAStay() {
        // 8 nights of $149.75 on average, a weekly price of $900 against $163 a night, a $95 cleaning fee,
        // 14.2 % service fee, 6.63 % tax.
        let fees = ListingFees(cleaningFee: Money(minorUnits: 9_500), guestsIncluded: 2, extraGuestFee: Money(minorUnits: 5_000),
                               weeklyDiscountBasisPoints: ListingFees.discount(nightlyPrice: Money(minorUnits: 16_300), priceFor: 7,
                                                                               is: Money(minorUnits: 90_000)),
                               securityDeposit: Money(minorUnits: 50_000))
        #expect(fees.weeklyDiscountBasisPoints == 2_112)
        let trip = TripPrice(nightlySubtotal: 119_800, nights: 8, guests: 3, fees: fees, serviceFee: 1_420, tax: 663)
        #expect(trip.discount?.kind == .weekly)
        #expect(trip.discount?.amount == 25_302)            // 119,800 × 21.12 %, half up
        #expect(trip.extraGuests?.guests == 1)
        #expect(trip.extraGuests?.amount == 40_000)          // 1 guest × $50 × 8 nights
        #expect(trip.serviceFee == 20_448)                   // (119,800 − 25,302 + 40,000 + 9,500) × 14.2 % = 20,447.7
        #expect(trip.tripPrice == 164_446)
        #expect(trip.taxes == 10_903)                        // 164,446 × 6.63 % = 10,902.8
        #expect(trip.totalWithTaxes == 175_349)
        #expect(ReferenceSearch.tripPrice(nightsSum: 119_800, nights: 8, guests: 3, fees: fees, serviceFee: 1_420) == trip.tripPrice)
        // The boundaries: 6 nights take no discount, 27 the weekly one, 28 the monthly one when there is one.
        var both = fees
        both.monthlyDiscountBasisPoints = 3_000
        #expect(TripPrice(nightlySubtotal: 10_000, nights: 6, guests: 1, fees: both).discount == nil)
        #expect(TripPrice(nightlySubtotal: 10_000, nights: 27, guests: 1, fees: both).discount?.kind == .weekly)
        #expect(TripPrice(nightlySubtotal: 10_000, nights: 28, guests: 1, fees: both).discount?.kind == .monthly)
        #expect(TripPrice(nightlySubtotal: 10_000, nights: 28, guests: 1, fees: fees).discount?.kind == .weekly)
        // Guests up to those included pay no extra.
        #expect(TripPrice(nightlySubtotal: 10_000, nights: 3, guests: 2, fees: fees).extraGuests == nil)
        // No fees and no service fee: the nights' sum.
        #expect(TripPrice(nightlySubtotal: 12_345, nights: 3, guests: 4, fees: nil).tripPrice == 12_345)
        // A discount: none unless the stay's price is below the nights', at most 99 %.
        #expect(ListingFees.discount(nightlyPrice: Money(minorUnits: 10_000), priceFor: 7, is: Money(minorUnits: 70_000)) == 0)
        #expect(ListingFees.discount(nightlyPrice: Money(minorUnits: 10_000), priceFor: 7, is: Money(minorUnits: 80_000)) == 0)
        #expect(ListingFees.discount(nightlyPrice: Money(minorUnits: 10_000), priceFor: 30, is: Money(minorUnits: 100)) == 9_900)
    }
}
