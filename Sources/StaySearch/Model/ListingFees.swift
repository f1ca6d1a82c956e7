/// What a listing charges beside its nights: a cleaning fee once a stay, a fee a night for each guest
/// above those included, weekly and monthly discounts, and a security deposit that is shown but never
/// charged. Every part is optional; a listing without any has no fees (`nil` in ``ListingRecord``).
///
/// Amounts are exact minor units; discounts are in basis points (12.5 % is 1,250), at most
/// ``largestDiscount``. Each amount is at most ``largestAmount``, and an extra-guest fee at most
/// ``largestExtraGuestFee`` (the index keeps a listing's fees in 16 bytes).
public struct ListingFees: Sendable, Hashable {
    /// Charged once a stay.
    public var cleaningFee: Money?
    /// Guests (adults and children) the nightly price covers; at least 1.
    public var guestsIncluded: Int
    /// Charged a night for each guest above ``guestsIncluded``.
    public var extraGuestFee: Money?
    /// Off the nights' sum of a stay of 7 nights or more, in basis points (0: none).
    public var weeklyDiscountBasisPoints: Int
    /// Off the nights' sum of a stay of 28 nights or more, in basis points (0: none).
    public var monthlyDiscountBasisPoints: Int
    /// Shown in the quote, never charged, never counted in a price.
    public var securityDeposit: Money?

    /// The largest discount, 99 %.
    public static let largestDiscount = 9_900
    /// The largest cleaning fee or deposit: 21,474,836.47 in any currency.
    public static let largestAmount = Money(minorUnits: Int64(Int32.max))
    /// The largest extra-guest fee a night: 167,772.15 in any currency.
    public static let largestExtraGuestFee = Money(minorUnits: (1 << 24) - 1)
    /// The most guests a listing's price may include.
    public static let largestGuestsIncluded = 255

    /// Creates a listing's fees.
    public init(cleaningFee: Money? = nil, guestsIncluded: Int = 1, extraGuestFee: Money? = nil,
                weeklyDiscountBasisPoints: Int = 0, monthlyDiscountBasisPoints: Int = 0, securityDeposit: Money? = nil) {
        self.cleaningFee = cleaningFee
        self.guestsIncluded = guestsIncluded
        self.extraGuestFee = extraGuestFee
        self.weeklyDiscountBasisPoints = weeklyDiscountBasisPoints
        self.monthlyDiscountBasisPoints = monthlyDiscountBasisPoints
        self.securityDeposit = securityDeposit
    }

    /// Whether nothing is charged or shown beside the nights (no part given, or every part zero).
    public var isEmpty: Bool {
        (cleaningFee?.minorUnits ?? 0) == 0 && (extraGuestFee?.minorUnits ?? 0) == 0 && weeklyDiscountBasisPoints == 0
            && monthlyDiscountBasisPoints == 0 && (securityDeposit?.minorUnits ?? 0) == 0
    }

    /// A length-of-stay discount in basis points from a listing's nightly `price` and its price for
    /// `nights` nights (`weekly_price` for 7, `monthly_price` for 30): ⌊(n·p − w) · 10000 / (n·p)⌋, none
    /// (0) unless above 0, at most ``largestDiscount``.
    public static func discount(nightlyPrice: Money, priceFor nights: Int, is stayPrice: Money) -> Int {
        let full = nightlyPrice.minorUnits * Int64(nights)
        guard full > 0 else { return 0 }
        let basisPoints = (full - stayPrice.minorUnits) * 10_000 / full
        return basisPoints > 0 ? Int(min(basisPoints, Int64(largestDiscount))) : 0
    }
}
