/// A run of a listing's days set whole (``CalendarChange/days(_:)``): for each day from `from`, its
/// price (minor units, up to ``Money/largest``; ``ListingIndex/unpricedNight`` for none, which only a listing without a price of its
/// own may have; ``ListingIndex/noCalendarRow``: the day left as it is), whether it is open, and the packed
/// ``StayRule`` of a check-in on it (a minimum above the maximum allowed: a scrape's night may have one).
public struct ListingDays: Sendable, Equatable {
    public var id: Int64
    public var from: Day
    public var prices: [Int64]
    public var open: [Bool]
    public var rules: [UInt32]

    public init(id: Int64, from: Day, prices: [Int64], open: [Bool], rules: [UInt32]) {
        self.id = id
        self.from = from
        self.prices = prices
        self.open = open
        self.rules = rules
    }

    /// Why the days cannot be set on a listing with `price` of its own, if they cannot.
    func problem(listingPrice price: Money?) -> ChangeError? {
        guard open.count == prices.count, rules.count == prices.count else { return .invalidField("days: one price, open and rule a day") }
        for (day, value) in prices.enumerated() where value != ListingIndex.noCalendarRow {
            if value < ListingIndex.unpricedNight || value > IndexBuilder.largestPrice.minorUnits {
                return .invalidField("days: price must be from 0 to \(IndexBuilder.largestPrice.decimalText)")
            }
            if value == ListingIndex.unpricedNight, price != nil || open[day] {
                return .invalidField("days: only a listing without a price has nights without one, closed")
            }
            if rules[day] >> 16 == 0 || rules[day] & 0xFFFF == 0 { return .invalidField("days: stay rules must be at least one night") }
        }
        return nil
    }
}
