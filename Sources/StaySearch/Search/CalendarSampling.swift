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

    /// One word in 64, three standard errors, at least 64 sampled stays. (A bracket's totals are counted by
    /// unit, so a wider bracket costs little; the sample's totals are kept one by one, so a smaller sample
    /// saves more: 1M listings, every listing, 3 nights, 8–12 % fewer instructions than one word in 32 and
    /// four standard errors.)
    package static let standard = CalendarSampling(every: 64, minimumStays: 64, standardErrors: 3)
}
