/// One live change to a listing's calendar, as `staysearch update` reads it (SPEC "Live calendars").
/// Nights are `[from, to)`, like a stay.
public enum CalendarChange: Sendable, Equatable {
    /// Book a stay: accepted only when it is bookable now by the search rules (and, with `guests`, takes
    /// them); its nights then become unavailable.
    case book(id: Int64, checkIn: Day, checkOut: Day, guests: Int?)
    /// Cancel a stay: its nights become available again.
    case cancel(id: Int64, checkIn: Day, checkOut: Day)
    /// Set the nights' availability.
    case availability(id: Int64, from: Day, to: Day, available: Bool)

    /// The listing it changes.
    public var id: Int64 {
        switch self {
        case let .book(id, _, _, _), let .cancel(id, _, _), let .availability(id, _, _, _): return id
        }
    }

    /// The nights it touches.
    public var nights: (from: Day, to: Day) {
        switch self {
        case let .book(_, from, to, _), let .cancel(_, from, to), let .availability(_, from, to, _): return (from, to)
        }
    }
}
