/// One live change to a listing or its calendar, as `staysearch update` reads it (docs/query-semantics.md, "Live changes").
/// Nights are `[from, to)`, like a stay.
public enum CalendarChange: Sendable, Equatable {
    /// Book a stay: accepted only when it is bookable now by the search rules (and, with `guests`, takes
    /// them); its nights then become unavailable.
    case book(id: Int64, checkIn: Day, checkOut: Day, guests: Int?)
    /// Cancel a stay: its nights become available again.
    case cancel(id: Int64, checkIn: Day, checkOut: Day)
    /// Set the nights' availability.
    case availability(id: Int64, from: Day, to: Day, available: Bool)
    /// Set the nights' price; `nil`: no price of their own (the listing's price, if it has one). A night
    /// that had no price keeps its availability closed; a day without a calendar row gets one (closed,
    /// with the listing's stay rules).
    case price(id: Int64, from: Day, to: Day, price: Money?)
    /// Set the stay rules for stays checking in on the days of the calendar (not days without a calendar
    /// row); `nil` keeps that bound.
    case rules(id: Int64, from: Day, to: Day, minimumNights: Int32?, maximumNights: Int32?)
    /// Add a listing, or set fields of one. (Boxed: the other changes stay a few words each, which a
    /// replay of 100,000 of them feels.)
    indirect case listing(ListingChange)
    /// Remove a listing: it no longer appears anywhere.
    case remove(id: Int64)
    /// Set a run of days whole, as a new scrape has them (a fleet's refresh; no client sends one).
    indirect case days(ListingDays)

    /// The listing it changes.
    public var id: Int64 {
        switch self {
        case let .book(id, _, _, _), let .cancel(id, _, _), let .availability(id, _, _, _), let .price(id, _, _, _),
             let .rules(id, _, _, _, _), let .remove(id):
            return id
        case let .listing(change):
            return change.id
        case let .days(days):
            return days.id
        }
    }

    /// The nights it touches, for the changes of a calendar.
    public var nights: (from: Day, to: Day)? {
        switch self {
        case let .book(_, from, to, _), let .cancel(_, from, to), let .availability(_, from, to, _), let .price(_, from, to, _),
             let .rules(_, from, to, _, _):
            return (from, to)
        case let .days(days):
            return (days.from, days.from.advanced(by: days.prices.count))
        case .listing, .remove:
            return nil
        }
    }

    /// Whether it changes only availability (the changes that flip bits in place).
    public var changesOnlyAvailability: Bool {
        switch self {
        case .book, .cancel, .availability: return true
        case .price, .rules, .listing, .remove, .days: return false
        }
    }
}
