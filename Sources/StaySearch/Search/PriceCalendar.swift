/// For a query and a number of nights, each check-in day of a range with how many stays can be booked and
/// from what total: what one exact search per check-in day would count and price
/// (``ListingIndex/priceCalendar(_:threads:)``, docs/query-semantics.md, "Price calendar").
public struct PriceCalendar: Sendable, Equatable {
    /// The nights of every stay.
    public var nights: Int
    /// Today, when the query had one.
    public var today: Day?
    /// The first day the data covers and the day after its last.
    public var firstDay: Day
    public var endDay: Day
    /// Every check-in day of the range, in order.
    public var days: [PriceCalendarDay]

    public init(nights: Int, today: Day?, firstDay: Day, endDay: Day, days: [PriceCalendarDay]) {
        self.nights = nights
        self.today = today
        self.firstDay = firstDay
        self.endDay = endDay
        self.days = days
    }
}
