/// What a listing's calendar says of one night.
public enum NightStatus: String, Sendable {
    /// Free and priced: bookable.
    case available
    /// Priced but not available.
    case booked
    /// In the calendar but without a price (and the listing has none): not bookable.
    case unpriced
    /// A day the data covers (its calendars, or the window from today on) that no calendar row of the listing
    /// covers — as the days a rolling window adds: not bookable.
    case noCalendarRow = "no calendar row"
    /// Outside the days the data covers: not bookable.
    case outsideCalendar = "outside the calendar"
    /// Before today (a calendar's view; no stay checks in then): not bookable.
    case past
}

/// One night of a listing's calendar, decoded: its status and its price.
public struct ListingNight: Sendable, Equatable {
    /// The night (the date one checks in on for that night).
    public var day: Day
    /// Whether it can be booked, and if not, why.
    public var status: NightStatus
    /// The night's price (the calendar's, else the listing's), when it has one.
    public var price: Money?

    /// Creates a night.
    public init(day: Day, status: NightStatus, price: Money?) {
        self.day = day
        self.status = status
        self.price = price
    }
}
