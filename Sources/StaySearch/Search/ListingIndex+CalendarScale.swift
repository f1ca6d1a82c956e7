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
    package var calendarScale: UInt8 { calendarSampleValue.get(sampleCalendarPrices).scale }

    /// A typical row's dearest night, in minor units: the median, over the same rows, of each priced row's
    /// dearest night (0 without one). It sizes a calendar sample's slots (``calendarSlotShift(nights:unit:)``),
    /// never its answers; worked out once per index, with ``calendarScale``.
    package var calendarDearNight: Int64 { calendarSampleValue.get(sampleCalendarPrices).dearNight }

    /// ``calendarScale`` and ``calendarDearNight`` from one pass over the sampled rows' nights.
    private func sampleCalendarPrices() -> (scale: UInt8, dearNight: Int64) {
        let step = max(1, count / Self.calendarScaleSampleRows)
        // Per scale, the sampled priced rows whose every price it divides; each priced row's dearest night.
        var divided = [Int](repeating: 0, count: Int(NightPrices.largestScale) + 1)
        var dearest: [Int64] = []
        let nights = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, dayCount))
        defer { nights.deallocate() }
        for row in stride(from: 0, to: count, by: step) {
            nightPrices.values(row: row, from: 0, to: dayCount, into: nights)
            var scale = Int(NightPrices.largestScale), dearNight: Int64 = -1
            for day in 0..<dayCount where nights[day] >= 0 {
                let price = nightPrices.amount(ofStored: nights[day])
                dearNight = max(dearNight, price)
                while scale > 0, price % NightPrices.unitOfScale[scale] != 0 { scale -= 1 }
            }
            guard dearNight >= 0 else { continue }
            divided[scale] += 1
            dearest.append(dearNight)
        }
        dearest.sort()
        let dearNight = dearest.isEmpty ? 0 : dearest[dearest.count / 2]
        var rows = 0
        for scale in stride(from: Int(NightPrices.largestScale), to: Int(NightPrices.wholeUnitScale), by: -1) {
            rows += divided[scale]
            if !dearest.isEmpty, Double(rows) >= Self.calendarScaleShare * Double(dearest.count) { return (UInt8(scale), dearNight) }
        }
        return (NightPrices.wholeUnitScale, dearNight)
    }

    /// The slot shift of a price calendar's sample of stays of `nights` nights counted in units of `unit` minor
    /// units (``CalendarTally/init(samplingFor:unit:slotShift:)``): the least whose ``CalendarTally/sampleSlots``
    /// slots reach twice a stay of ``calendarDearNight`` a night. Relative to what the stays cost, not to the
    /// currency: a month's 7-night stays in won (₩1.2M, 12,000 units of ₩100) are sampled in slots of 16 units,
    /// in dollars ($900) of one, both holding each day's median.
    package func calendarSlotShift(nights: Int, unit: Int64) -> Int {
        let reach = 2 * Int64(max(1, nights)) * calendarDearNight / max(1, unit)
        var shift = 0
        while shift < 19, Int64(CalendarTally.sampleSlots) << Int64(shift) < reach { shift += 1 }
        return shift
    }
}
