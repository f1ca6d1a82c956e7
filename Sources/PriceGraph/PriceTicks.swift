import StaySearch

/// Round numbers for axes: steps of 1, 2, 2.5 or 5 times a power of ten.
public enum PriceTicks {
    /// The round step that puts closest to `count` ticks over `span` (> 0).
    public static func step(for span: Double, count: Int) -> Double {
        let raw = span / Double(max(count, 1))
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        // The round step closest to the ideal one (by ratio).
        return [1.0, 2.0, 2.5, 5.0, 10.0].map { $0 * power }.min { max($0 / raw, raw / $0) < max($1 / raw, raw / $1) }!
    }

    /// Tick values (in major units) from the first multiple of the step at or above `low` up to `high`.
    public static func ticks(from low: Double, to high: Double, count: Int) -> [Double] {
        guard high > low else { return [low] }
        let step = step(for: high - low, count: count)
        var value = (low / step).rounded(.up) * step
        var values: [Double] = []
        while value <= high + step * 1e-9 {
            values.append(value)
            value += step
        }
        return values
    }

    /// A price label for a tick: `$1,250`, or `$12.50` when it is not whole (`₩85,000`: won are whole).
    public static func label(_ value: Double, style: DisplayStyle = .standard) -> String {
        let money = Money(minorUnits: Int64((value * 100).rounded()))
        return style.money(money, showsCents: money.minorUnits % 100 != 0)
    }
}
