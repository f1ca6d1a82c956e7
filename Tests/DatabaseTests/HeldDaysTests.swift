import StaySearchDB
import StaySearch
import StaySearchTestSupport
import Testing

/// The compact holding of a snapshot's days gives every listing back as it was held.
@Suite struct HeldDaysTests {
    @Test(arguments: [1, 63, 64, 65, 365])
    func listingsComeBackAsHeld(dayCount: Int) {
        var random = SeededGenerator(seed: UInt64(dayCount) * 31 + 7)
        var held = HeldDays(dayCount: dayCount)
        var listings: [EditableListing] = []
        for id in 0..<40 {
            let record = ListingRecord(id: Int64(id), name: "L\(id)", region: RegionPath(city: "C", neighbourhood: "N"),
                                       roomType: "Entire home/apt", accommodates: 2, price: nil)
            // Rules in runs of random lengths, or changing every day; prices and open nights at random.
            var rules: [UInt32] = []
            var rule = StayRule(minimumNights: 1, maximumNights: 30).packed
            for _ in 0..<dayCount {
                if Int.random(in: 0..<(id % 3 == 0 ? 1 : 20), using: &random) == 0 {
                    rule = StayRule(minimumNights: Int32.random(in: 1...7, using: &random), maximumNights: Int32.random(in: 7...365, using: &random)).packed
                }
                rules.append(rule)
            }
            // Prices of every magnitude: sentinels, cents, and wide prices up to a billion.
            let prices = (0..<dayCount).map { _ in
                random.chance(0.1) ? Int64.random(in: 2_080_374_000...100_000_000_000, using: &random) : Int64.random(in: -2...90_000, using: &random)
            }
            let listing = EditableListing(record: record, prices: prices,
                                          bookable: (0..<dayCount).map { _ in Bool.random(using: &random) }, rules: rules)
            listings.append(listing)
            held.append(listing)
        }
        #expect(held.count == listings.count)
        for (position, listing) in listings.enumerated() {
            let back = held.listing(at: position, record: listing.record)
            #expect(back.prices == listing.prices && back.bookable == listing.bookable && back.rules == listing.rules && back.record == listing.record,
                    "listing \(position), \(dayCount) days")
        }
    }
}
