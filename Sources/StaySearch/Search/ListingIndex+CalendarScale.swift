extension ListingIndex {
    /// The rows (evenly spaced) whose nights choose ``calendarScale``.
    static let calendarScaleSampleRows = 4_096

    /// The share of the sampled rows whose every night's price must be a whole number of the chosen unit.
    static let calendarScaleShare = 0.95

    /// The unit a price calendar counts its totals in, as a power of ten of minor units (2: whole units):
    /// the largest that divides every night's price of at least 95 % of up to 4,096 rows evenly spaced —
    /// whole dollars for prices in whole dollars, ₩100 for won priced to the ₩100 (a month's stays of
    /// ₩84,300 a night count 843 units each, as many as dollars do). It decides what the calendar's fast
    /// paths can hold, never its answers: a price that is not a whole number of units is totalled stay by
    /// stay, exactly. Chosen by what divides the prices, not by their size; worked out once per index.
    package var calendarScale: UInt8 {
        calendarScaleValue.get {
            let step = max(1, count / Self.calendarScaleSampleRows)
            // Per scale, the sampled priced rows whose every price it divides.
            var divided = [Int](repeating: 0, count: Int(NightPrices.largestScale) + 1)
            var priced = 0
            let nights = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, dayCount))
            defer { nights.deallocate() }
            for row in stride(from: 0, to: count, by: step) {
                nightPrices.values(row: row, from: 0, to: dayCount, into: nights)
                var scale = Int(NightPrices.largestScale), any = false
                for day in 0..<dayCount where nights[day] >= 0 {
                    any = true
                    let price = Int64(nights[day])
                    while scale > 0, price % NightPrices.unitOfScale[scale] != 0 { scale -= 1 }
                }
                guard any else { continue }
                priced += 1
                divided[scale] += 1
            }
            var rows = 0
            for scale in stride(from: Int(NightPrices.largestScale), to: Int(NightPrices.wholeUnitScale), by: -1) {
                rows += divided[scale]
                if priced > 0, Double(rows) >= Self.calendarScaleShare * Double(priced) { return UInt8(scale) }
            }
            return NightPrices.wholeUnitScale
        }
    }
}
