/// One check-in day of a ``PriceCalendar``.
public struct PriceCalendarDay: Sendable, Equatable {
    /// Whether stays from this day can be searched at all.
    public enum Status: String, Sendable, Equatable {
        /// Searched: ``PriceCalendarDay/count`` stays (perhaps none).
        case open
        /// The check-in is before today: past nights cannot be booked.
        case beforeToday = "before_today"
        /// The stay leaves the days the data covers.
        case outsideData = "outside_data"
    }

    /// The check-in day; the stay runs to ``checkIn`` + the calendar's nights.
    public var checkIn: Day
    public var status: Status
    /// How many stays match: the `total` of the exact search for this check-in (0 unless open).
    public var count: Int
    /// The lowest total of those stays, and the median (of an even count, the lower middle one); nil
    /// without stays.
    public var lowest: Money?
    public var median: Money?

    public init(checkIn: Day, status: Status, count: Int = 0, lowest: Money? = nil, median: Money? = nil) {
        self.checkIn = checkIn
        self.status = status
        self.count = count
        self.lowest = lowest
        self.median = median
    }
}
