/// The price of a stay at one listing, night by night, and whether it can be booked, or why not.
public struct StayQuote: Sendable, Equatable {
    /// What the calendar says of one night.
    public enum NightStatus: String, Sendable {
        /// Free and priced: bookable.
        case available
        /// Priced but not available.
        case booked
        /// In the calendar but without a price (and the listing has none): not bookable.
        case unpriced
        /// Not in the listing's calendar: not bookable.
        case outsideCalendar = "outside the calendar"
    }

    /// One night of the stay.
    public struct Night: Sendable, Equatable {
        public var day: Day
        public var status: NightStatus
        /// The night's price, when it has one.
        public var price: Money?
    }

    /// Why a stay cannot be booked.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        case nightNotAvailable(Day, NightStatus)
        case tooFewNights(minimum: Int, nights: Int)
        case tooManyNights(maximum: Int, nights: Int)
        case tooManyGuests(guests: Int, capacity: Int)

        public var description: String {
            switch self {
            case let .nightNotAvailable(day, status):
                return "the night of \(day) is \(status == .booked ? "booked" : status.rawValue)"
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
    /// The sum of the nights' prices, when every night has one.
    public var total: Money?
    /// The total ÷ nights, rounded half up to the cent.
    public var averageNightlyPrice: Money?
    /// The stay rule of the check-in day.
    public var rule: StayRule
    /// Why the stay cannot be booked; empty when it can.
    public var problems: [Problem]

    /// Whether the stay can be booked.
    public var isBookable: Bool { problems.isEmpty }
}

extension ListingIndex {
    /// Quotes a stay at row `row`: each night with its price and status, the total, and every reason
    /// the stay cannot be booked, checked by the same rules as ``search(_:)``.
    /// - Complexity: O(*n* log *r*) for *n* nights and *r* price runs of the row.
    public func quote(row: Int, checkIn: Day, checkOut: Day, guests: Int) -> StayQuote {
        var nights: [StayQuote.Night] = []
        var problems: [StayQuote.Problem] = []
        var total: Int64 = 0
        var allPriced = true
        var day = checkIn
        while day < checkOut {
            let price = nightPrice(row: row, day: day)
            let status: StayQuote.NightStatus = price == -2 ? .outsideCalendar : price == -1 ? .unpriced
                : isBookable(row: row, day: day) ? .available : .booked
            if price >= 0 { total += price } else { allPriced = false }
            if status != .available { problems.append(.nightNotAvailable(day, status)) }
            nights.append(.init(day: day, status: status, price: price >= 0 ? Money(minorUnits: price) : nil))
            day = day.advanced(by: 1)
        }
        let count = nights.count
        let rule = stayRule(row: row, day: checkIn)
        if count < rule.minimumNights { problems.append(.tooFewNights(minimum: rule.minimumNights, nights: count)) }
        if count > rule.maximumNights { problems.append(.tooManyNights(maximum: rule.maximumNights, nights: count)) }
        if guests > Int(accommodates[row]) { problems.append(.tooManyGuests(guests: guests, capacity: Int(accommodates[row]))) }
        return StayQuote(
            nights: nights, total: allPriced && count > 0 ? Money(minorUnits: total) : nil,
            averageNightlyPrice: allPriced && count > 0 ? Money.average(of: total, over: Int64(count)) : nil,
            rule: rule, problems: problems)
    }
}
