/// What a guest pays for a stay: the nights' sum, less a length-of-stay discount, plus extra guests, the
/// cleaning fee and the platform's service fee (the **trip price**, "all fees, before taxes"), then the
/// city's taxes on it. Every amount in minor units, each rounding half up to the minor unit.
public struct TripPrice: Sendable, Equatable {
    /// Which length-of-stay discount a stay takes.
    public enum DiscountKind: String, Sendable {
        case weekly, monthly
    }

    /// The nights' prices summed (S).
    public var nightlySubtotal: Int64
    /// The discount taken, its basis points and amount (D), or nil.
    public var discount: (kind: DiscountKind, basisPoints: Int, amount: Int64)?
    /// Guests above those included, the fee a night for each, and the amount over the stay (E), or nil.
    public var extraGuests: (guests: Int, feePerNight: Int64, amount: Int64)?
    /// The cleaning fee (C), 0 when none.
    public var cleaningFee: Int64
    /// The service fee's basis points and amount (F).
    public var serviceFeeBasisPoints: Int
    public var serviceFee: Int64
    /// T = S − D + E + C + F.
    public var tripPrice: Int64
    /// The city's tax basis points and amount (X).
    public var taxBasisPoints: Int
    public var taxes: Int64
    /// T + X.
    public var totalWithTaxes: Int64

    /// Works out a stay of `nights` nights for `guests` guests whose nights sum to `nightlySubtotal`.
    /// - Parameters:
    ///   - fees: the listing's fees, nil for none.
    ///   - serviceFee: the platform's service fee in basis points.
    ///   - tax: the city's tax in basis points.
    public init(nightlySubtotal: Int64, nights: Int, guests: Int, fees: ListingFees?, serviceFee: Int = 0, tax: Int = 0) {
        self.nightlySubtotal = nightlySubtotal
        var discount: (kind: DiscountKind, basisPoints: Int, amount: Int64)?
        var extra: (guests: Int, feePerNight: Int64, amount: Int64)?
        if let fees {
            if nights >= 28, fees.monthlyDiscountBasisPoints > 0 {
                discount = (.monthly, fees.monthlyDiscountBasisPoints, TripPrice.share(nightlySubtotal, fees.monthlyDiscountBasisPoints))
            } else if nights >= 7, fees.weeklyDiscountBasisPoints > 0 {
                discount = (.weekly, fees.weeklyDiscountBasisPoints, TripPrice.share(nightlySubtotal, fees.weeklyDiscountBasisPoints))
            }
            let above = guests - max(1, fees.guestsIncluded)
            if above > 0, let fee = fees.extraGuestFee, fee.minorUnits > 0 {
                extra = (above, fee.minorUnits, Int64(above) * fee.minorUnits * Int64(nights))
            }
        }
        self.discount = discount
        self.extraGuests = extra
        cleaningFee = fees?.cleaningFee?.minorUnits ?? 0
        let beforeService = nightlySubtotal - (discount?.amount ?? 0) + (extra?.amount ?? 0) + cleaningFee
        serviceFeeBasisPoints = serviceFee
        self.serviceFee = TripPrice.share(beforeService, serviceFee)
        tripPrice = beforeService + self.serviceFee
        taxBasisPoints = tax
        taxes = TripPrice.share(tripPrice, tax)
        totalWithTaxes = tripPrice + taxes
    }

    /// ⌊(amount · basisPoints + 5000) / 10000⌋: a share of a non-negative amount, half up.
    @inlinable
    public static func share(_ amount: Int64, _ basisPoints: Int) -> Int64 {
        (amount &* Int64(basisPoints) &+ 5_000) / 10_000
    }

    public static func == (a: TripPrice, b: TripPrice) -> Bool {
        a.nightlySubtotal == b.nightlySubtotal && a.discount?.kind == b.discount?.kind
            && a.discount?.basisPoints == b.discount?.basisPoints && a.discount?.amount == b.discount?.amount
            && a.extraGuests?.guests == b.extraGuests?.guests && a.extraGuests?.feePerNight == b.extraGuests?.feePerNight
            && a.extraGuests?.amount == b.extraGuests?.amount && a.cleaningFee == b.cleaningFee
            && a.serviceFeeBasisPoints == b.serviceFeeBasisPoints && a.serviceFee == b.serviceFee && a.tripPrice == b.tripPrice
            && a.taxBasisPoints == b.taxBasisPoints && a.taxes == b.taxes && a.totalWithTaxes == b.totalWithTaxes
    }
}
