import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Nightly prices the way professional hosts' pricing tools (Airbnb's Smart Pricing, PriceLabs, Beyond)
/// set them: a price that changes most days.
///
/// Each listing gets, from its own seed: a Friday and Saturday uplift of 10–25 %; a smooth seasonal
/// curve of ±20–30 % peaking on its city's ``SyntheticCity/seasonPeak``; its city's events (four a year,
/// 2–6 days each at +50–100 %, the same for every listing of the city); a last-minute discount of 5–20 %
/// on the first 1–14 days of the calendar; and small adjustments (±1–5 %) on about a third of the nights.
/// Prices are rounded to whole units (to the currency's pricing-tool step: ``SyntheticCurrency``), and never
/// below 10 dollars' worth.
struct DynamicPricing {
    /// One city event: days from the calendar's first day, and the uplift.
    struct Event {
        var start: Int
        var length: Int
        var uplift: Double
    }

    let weekendUplift: Double
    let seasonAmplitude: Double
    let seasonPeak: Int
    let lastMinuteDays: Int
    let lastMinuteDiscount: Double
    let events: [Event]

    /// The pricing of one listing of `city`, drawn from `random`; events come from the city and `seed`.
    init(city: SyntheticCity, cityNumber: Int, seed: UInt64, dayCount: Int, random: inout SplitMix64) {
        weekendUplift = 0.10 + 0.15 * random.unit()
        seasonAmplitude = 0.20 + 0.10 * random.unit()
        seasonPeak = city.seasonPeak
        lastMinuteDays = 1 + Int(random.next() % 14)
        lastMinuteDiscount = 0.05 + 0.15 * random.unit()
        var cityRandom = SplitMix64(seed: seed ^ (UInt64(cityNumber + 1) &* 0x9E37_79B9_7F4A_7C15))
        events = (0..<4).map { _ in
            Event(start: Int(cityRandom.next() % UInt64(max(1, dayCount))), length: 2 + Int(cityRandom.next() % 5),
                  uplift: 0.5 + 0.5 * cityRandom.unit())
        }
    }

    /// The price of the night `day`, `offset` days into the calendar, for a listing whose base price is
    /// `base` minor units of `currency`; `random` draws the night's small adjustment.
    func price(base: Int64, day: Day, offset: Int, random: inout SplitMix64, currency: SyntheticCurrency = .usd) -> Int64 {
        var factor = 1.0
        let weekday = day.weekdayFromMonday
        if weekday == 4 || weekday == 5 { factor *= 1 + weekendUplift }
        let dayOfYear = Double(day.daysSinceEpoch - Day(year: day.components.year, month: 1, day: 1)!.daysSinceEpoch + 1)
        factor *= 1 + seasonAmplitude * cos(2 * Double.pi * (dayOfYear - Double(seasonPeak)) / 365.25)
        for event in events where offset >= event.start && offset < event.start + event.length { factor *= 1 + event.uplift }
        if offset < lastMinuteDays { factor *= 1 - lastMinuteDiscount }
        if random.chance(0.33) { factor *= 1 + (random.chance(0.5) ? 1 : -1) * (0.01 + 0.04 * random.unit()) }
        guard currency != .usd else { return Int64(max(10, (Double(base) / 100 * factor).rounded())) * 100 }
        return currency.minorUnits(ofDollars: max(10, Double(base) / 100 * factor / currency.rate), step: currency.toolStep)
    }
}
