/// The totals of the stays a price calendar found, by check-in day (its position in the range): every
/// total is kept, for the exact median.
struct CalendarTotals {
    /// The totals of each check-in day, in minor units, in no order.
    var totals: [[Int64]]

    init(days: Int) {
        totals = Array(repeating: [], count: days)
    }

    /// Adds the stays of `other` (another part of the same scan).
    mutating func merge(_ other: CalendarTotals) {
        for day in totals.indices { totals[day].append(contentsOf: other.totals[day]) }
    }

    /// The count, lowest and lower-median total of check-in day `day`; reorders that day's totals.
    mutating func summary(ofDay day: Int) -> (count: Int, lowest: Money?, median: Money?) {
        let count = totals[day].count
        guard count > 0 else { return (0, nil, nil) }
        let lowest = totals[day].min()!
        let median = totals[day].withUnsafeMutableBufferPointer { Selection.quickSelect(atRank: (count - 1) / 2, in: $0) }
        return (count, Money(minorUnits: lowest), Money(minorUnits: median))
    }
}
