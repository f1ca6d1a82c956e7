/// The price of a stay at one listing, night by night, and whether it can be booked, or why not.
public struct StayQuote: Sendable, Equatable {
    /// What the calendar says of one night.
    public typealias NightStatus = StaySearch.NightStatus

    /// One night of the stay.
    public typealias Night = ListingNight

    /// Why a stay cannot be booked.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        case nightNotAvailable(Day, NightStatus)
        case tooFewNights(minimum: Int, nights: Int)
        case tooManyNights(maximum: Int, nights: Int)
        case tooManyGuests(guests: Int, capacity: Int)

        public var description: String {
            switch self {
            case let .nightNotAvailable(day, status):
                switch status {
                case .noCalendarRow: return "the night of \(day) has no calendar row"
                case .past: return "the night of \(day) is past"
                default: return "the night of \(day) is \(status.rawValue)"
                }
            case let .tooFewNights(minimum, nights):
                return "a stay checking in that day must be at least \(minimum) nights (this one is \(nights))"
            case let .tooManyNights(maximum, nights):
                return "a stay checking in that day may be at most \(maximum) nights (this one is \(nights))"
            case let .tooManyGuests(guests, capacity):
                return "\(guests) guests is more than the \(capacity) the listing takes"
            }
        }
    }

    /// Every night from check-in to the night before check-out.
    public var nights: [Night]
    /// What the guest pays (``TripPrice/tripPrice``: the nights' sum with the listing's fees and the
    /// service fee, before taxes), when every night has a price; the nights' sum for a listing without fees
    /// and no service fee.
    public var total: Money?
    /// The total ÷ nights, rounded half up to the cent.
    public var averageNightlyPrice: Money?
    /// The total's lines (nights, discount, extra guests, cleaning fee, service fee, taxes), when there is a total.
    public var trip: TripPrice?
    /// The listing's security deposit: shown, never charged.
    public var securityDeposit: Money?
    /// The stay rule of the check-in day.
    public var rule: StayRule
    /// Why the stay cannot be booked; empty when it can.
    public var problems: [Problem]

    /// Whether the stay can be booked.
    public var isBookable: Bool { problems.isEmpty }
}

extension ListingIndex {
    /// Quotes a stay at row `row`: each night with its price and status, the total, and every reason
    /// the stay cannot be booked, checked by the same rules as ``search(_:)``. The data covers the
    /// calendars' days and, with `coveredUntil`, the days of a window that rolled past them (their nights have
    /// no calendar row).
    /// - Complexity: O(*n* log *r*) for *n* nights and *r* price runs of the row.
    /// The total is the trip price with `platform`'s service fee, and its taxes those of the listing's city.
    public func quote(row: Int, checkIn: Day, checkOut: Day, guests: Int, coveredUntil: Day? = nil,
                      platform: PlatformFees = PlatformFees()) -> StayQuote {
        let nights = self.nights(ofRow: row, from: checkIn, to: checkOut, coveredUntil: coveredUntil)
        var problems: [StayQuote.Problem] = []
        var total: Int64 = 0
        var allPriced = true
        for night in nights {
            if let price = night.price { total += price.minorUnits } else { allPriced = false }
            if night.status != .available { problems.append(.nightNotAvailable(night.day, night.status)) }
        }
        let count = nights.count
        let rule = stayRule(row: row, day: checkIn)
        if count < rule.minimumNights { problems.append(.tooFewNights(minimum: rule.minimumNights, nights: count)) }
        if count > rule.maximumNights { problems.append(.tooManyNights(maximum: rule.maximumNights, nights: count)) }
        let capacity = Int(storage.accommodates[row])
        if guests > capacity { problems.append(.tooManyGuests(guests: guests, capacity: capacity)) }
        let fees = self.fees(ofRow: row)
        let trip = allPriced && count > 0
            ? TripPrice(nightlySubtotal: total, nights: count, guests: guests, fees: fees, serviceFee: platform.serviceFeeBasisPoints,
                        tax: platform.taxBasisPoints(city: regionPath(ofRow: row).city))
            : nil
        return StayQuote(
            nights: nights, total: trip.map { Money(minorUnits: $0.tripPrice) },
            averageNightlyPrice: trip.map { Money.average(of: $0.tripPrice, over: Int64(count)) },
            trip: trip, securityDeposit: fees?.securityDeposit, rule: rule, problems: problems)
    }
}
