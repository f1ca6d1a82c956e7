import StaySearch

/// The currency generated listings are priced in: the same listings as in dollars, each price converted at
/// a fixed rate and rounded the way hosts there price.
///
/// - `USD`: whole dollars (the calibration's own).
/// - `KRW`: ₩1,350 a dollar, as Seoul's Inside Airbnb files price in won. A host's own price and fees are
///   rounded to ₩1,000 (`₩84,000`); a pricing tool's nightly prices to ₩100 (`₩91,300`). A night costs
///   about ₩80,000–₩200,000, a cleaning fee ₩30,000–₩70,000.
/// - `JPY`: ¥150 a dollar: a host's prices and fees to ¥100, a pricing tool's to ¥10.
/// - `VND`: ₫25,000 a dollar: a host's prices and fees to ₫10,000, a pricing tool's to ₫1,000. A night costs
///   about ₫2,000,000–₫5,000,000; the dearest (a $900 night) pass ₫20,800,000, the wide prices of an index
///   (``WidePrices``). An extra-guest fee stops at 167,772.15, its bound in any currency.
///
/// No night is priced above ₩/¥20,000,000 or ₫1,000,000,000 (``Money/largest``).
public enum SyntheticCurrency: String, Sendable, CaseIterable {
    case usd = "USD", krw = "KRW", jpy = "JPY", vnd = "VND"

    /// Units of the currency per dollar.
    var rate: Double {
        switch self {
        case .usd: 1
        case .krw: 1_350
        case .jpy: 150
        case .vnd: 25_000
        }
    }

    /// The step of a host's own prices and fees, in whole units.
    var hostStep: Int64 {
        switch self {
        case .usd: 1
        case .krw: 1_000
        case .jpy: 100
        case .vnd: 10_000
        }
    }

    /// The step of a pricing tool's nightly prices, in whole units.
    var toolStep: Int64 {
        switch self {
        case .usd: 1
        case .krw: 100
        case .jpy: 10
        case .vnd: 1_000
        }
    }

    /// The dearest night generated, in whole units.
    var dearestNight: Int64 { self == .vnd ? Money.largest.minorUnits / 100 : 20_000_000 }

    /// `dollars` in this currency, rounded to `step` whole units (at least one step), as minor units.
    func minorUnits(ofDollars dollars: Double, step: Int64) -> Int64 {
        let units = max(Double(step), min((dollars * rate / Double(step)).rounded() * Double(step), Double(dearestNight)))
        return Int64(units) * 100
    }
}
