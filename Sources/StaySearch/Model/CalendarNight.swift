/// One row of a listing's calendar: one night, whether it is free, and its price and stay rules.
public struct CalendarNight: Sendable, Equatable {
    /// The night (the date one checks in on for that night).
    public var day: Day
    /// Whether the night can be booked (`available` = `t`).
    public var isAvailable: Bool
    /// The night's price, if the row has one; otherwise the listing's price applies.
    public var price: Money?
    /// `minimum_nights` for a stay that checks in on this day, if the row has it.
    public var minimumNights: Int32?
    /// `maximum_nights` for a stay that checks in on this day, if the row has it.
    public var maximumNights: Int32?

    /// Creates a calendar row.
    @inlinable
    public init(day: Day, isAvailable: Bool, price: Money?, minimumNights: Int32? = nil, maximumNights: Int32? = nil) {
        self.day = day
        self.isAvailable = isAvailable
        self.price = price
        self.minimumNights = minimumNights
        self.maximumNights = maximumNights
    }
}
