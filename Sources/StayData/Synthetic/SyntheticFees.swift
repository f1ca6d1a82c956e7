import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// The fees of generated listings, shaped like the older Inside Airbnb files' (where 68 % of listings
/// have a cleaning fee and 43 % a fee per extra guest):
///
/// In another currency each is converted and rounded as ``SyntheticCurrency`` says.
///
/// - a cleaning fee on 68 % of listings: $20 plus $8 a guest the listing accommodates, half that for a
///   room, times a log-normal factor (σ 0.4) and the city's price factor, in whole units;
/// - a fee per extra guest on 43 %: $10–$40 a night times the city's price factor, with 1 guest included
///   (40 % of them), 2 (45 %) or half the capacity (15 %), never more than the listing accommodates;
/// - a weekly discount on 30 % (5, 10, 15, 20 or 25 %) and a monthly discount on 25 % (10–40 % in steps of
///   5, at least the weekly one);
/// - no security deposit (a `fees.csv` has no column for it, and the same seed gives the same data as an
///   index and as files).
enum SyntheticFees {
    /// The fees of `listing` in a city whose prices are `priceFactor` times Antwerp's; nil for a listing that
    /// draws none.
    static func fees(of listing: ListingRecord, priceFactor: Double, currency: SyntheticCurrency = .usd,
                     random: inout SplitMix64) -> ListingFees? {
        var fees = ListingFees()
        let isEntire = listing.roomType == "Entire home/apt"
        if random.chance(0.68) {
            let base = (20 + 8 * Double(listing.accommodates)) * (isEntire ? 1 : 0.5)
            let units = (base * exp(0.4 * random.normal()) * priceFactor).rounded()
            let fee = currency.minorUnits(ofDollars: max(5, min(units, 2_000)), step: currency.hostStep)
            fees.cleaningFee = Money(minorUnits: min(fee, ListingFees.largestAmount.minorUnits / (currency.hostStep * 100) * (currency.hostStep * 100)))
        }
        if random.chance(0.43) {
            let fee = currency.minorUnits(ofDollars: (Double(10 + random.next() % 31) * priceFactor).rounded(), step: currency.hostStep)
            fees.extraGuestFee = Money(minorUnits: min(fee, ListingFees.largestExtraGuestFee.minorUnits
                                                       / (currency.hostStep * 100) * (currency.hostStep * 100)))
            let included = [1, 2, max(1, listing.accommodates / 2)][random.pick(weights: [40, 45, 15])]
            fees.guestsIncluded = max(1, min(included, listing.accommodates))
        }
        if random.chance(0.30) { fees.weeklyDiscountBasisPoints = 500 * (1 + Int(random.next() % 5)) }
        if random.chance(0.25) {
            fees.monthlyDiscountBasisPoints = max(fees.weeklyDiscountBasisPoints, 1_000 + 500 * Int(random.next() % 7))
        }
        return fees.isEmpty ? nil : fees
    }
}
