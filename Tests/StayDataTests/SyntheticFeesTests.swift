import StayData
import StaySearch
import Testing

/// Generated fees hold the shares docs/data-and-import.md states, and leave everything else of a listing as
/// the same seed makes it without fees.
struct SyntheticFeesTests {
    @Test func feesHoldTheStatedSharesAndLeaveTheListingsAsTheyWere() {
        let count = 20_000
        let plain = SyntheticDataset(listingCount: count, seed: 21)
        let priced = SyntheticDataset(listingCount: count, seed: 21, fees: true)
        #expect(priced.hasFees && !plain.hasFees)
        var withoutFees = priced.listings
        for position in withoutFees.indices { withoutFees[position].fees = nil }
        #expect(withoutFees == plain.listings)
        let fees = priced.listings.map(\.fees)
        func share(_ test: (ListingFees) -> Bool) -> Double { Double(fees.filter { $0.map(test) ?? false }.count) / Double(count) }
        #expect(abs(share { $0.cleaningFee != nil } - 0.68) < 0.02)
        #expect(abs(share { $0.extraGuestFee != nil } - 0.43) < 0.02)
        #expect(abs(share { $0.weeklyDiscountBasisPoints > 0 } - 0.30) < 0.02)
        #expect(abs(share { $0.monthlyDiscountBasisPoints > 0 } - 0.25) < 0.02)
        #expect(share { $0.securityDeposit != nil } == 0)
        #expect(fees.allSatisfy { fees in
            guard let fees else { return true }
            return fees.monthlyDiscountBasisPoints == 0 || fees.monthlyDiscountBasisPoints >= fees.weeklyDiscountBasisPoints
        })
        #expect(zip(priced.listings, fees).allSatisfy { listing, fees in (fees?.guestsIncluded ?? 1) <= max(1, listing.accommodates) })
        // Cleaning grows with capacity.
        func meanCleaning(_ capacity: ClosedRange<Int>) -> Double {
            let amounts = priced.listings.filter { capacity.contains($0.accommodates) && $0.roomType == "Entire home/apt" }
                .compactMap { $0.fees?.cleaningFee?.minorUnits }
            return Double(amounts.reduce(0, +)) / Double(max(1, amounts.count))
        }
        #expect(meanCleaning(6...16) > 1.5 * meanCleaning(1...2))
    }
}
