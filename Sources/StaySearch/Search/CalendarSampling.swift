/// How a price calendar brackets each day's median before its full pass (see ``CalendarTally``): it reads
/// one word of 64 rows in ``every``, and brackets a day by the sample's median give or take
/// ``standardErrors`` of its standard errors (√*n* / 2 of its *n* totals); a day with fewer than
/// ``minimumStays`` sampled stays keeps every total.
package struct CalendarSampling: Sendable {
    package var every: Int
    package var minimumStays: Int
    package var standardErrors: Double

    package init(every: Int, minimumStays: Int, standardErrors: Double) {
        self.every = every
        self.minimumStays = minimumStays
        self.standardErrors = standardErrors
    }

    /// One word in 32, four standard errors, at least 64 sampled stays.
    package static let standard = CalendarSampling(every: 32, minimumStays: 64, standardErrors: 4)
}
