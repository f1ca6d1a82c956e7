import StaySearch

/// Every listing's days of a snapshot, held compactly until the index is built from them: the prices in one
/// buffer, the open nights as bits, the stay rules as runs of equal days (a listing's rules seldom change
/// from day to day). About a quarter of the memory of the listings held whole.
package struct HeldDays {
    let dayCount: Int
    private let wordsPerListing: Int
    /// Each day's price, 32 bits (a price from ``WidePrices/firstReference`` up refers to `widePrices`).
    private var prices: [Int32] = []
    private var widePrices = WidePrices()
    private var open: [UInt64] = []
    /// The rule runs of every listing, in order: each run's first day and its packed rule.
    private var runDays: [Int32] = []
    private var runRules: [UInt32] = []
    /// Where each listing's runs begin in `runDays` (one more entry than listings).
    private var runStarts: [Int] = [0]

    package init(dayCount: Int) {
        self.dayCount = dayCount
        wordsPerListing = (dayCount + 63) / 64
    }

    /// How many listings are held.
    package var count: Int { runStarts.count - 1 }

    /// Holds the days of `listing` (its days must number `dayCount`).
    package mutating func append(_ listing: EditableListing) {
        for price in listing.prices { prices.append(price < 0 ? Int32(price) : widePrices.stored(minorUnits: price)) }
        var words = [UInt64](repeating: 0, count: wordsPerListing)
        for (day, isOpen) in listing.bookable.enumerated() where isOpen { words[day >> 6] |= 1 << UInt64(day & 63) }
        open.append(contentsOf: words)
        for (day, rule) in listing.rules.enumerated() where day == 0 || rule != listing.rules[day - 1] {
            runDays.append(Int32(day))
            runRules.append(rule)
        }
        runStarts.append(runDays.count)
    }

    /// The listing held at `position`, whole again, with its fields `record`.
    package func listing(at position: Int, record: ListingRecord) -> EditableListing {
        let first = position * dayCount
        let words = position * wordsPerListing
        let bookable = (0..<dayCount).map { open[words + $0 >> 6] >> UInt64($0 & 63) & 1 == 1 }
        var rules = [UInt32](repeating: 0, count: dayCount)
        let runs = runStarts[position]..<runStarts[position + 1]
        for run in runs {
            let end = run + 1 < runs.upperBound ? Int(runDays[run + 1]) : dayCount
            for day in Int(runDays[run])..<end { rules[day] = runRules[run] }
        }
        let amounts = widePrices.amounts.withUnsafeBufferPointer { wide in
            prices[first..<(first + dayCount)].map { WidePrices.amount(ofStored: $0, in: wide.baseAddress) }
        }
        return EditableListing(record: record, prices: amounts, bookable: bookable, rules: rules)
    }
}
