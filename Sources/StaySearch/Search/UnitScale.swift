/// Whole units of an offset, ⌊offset ÷ unit⌋, by one multiplication (Granlund and Montgomery): with
/// M = ⌈2^64 ÷ unit⌉, ⌊offset · M ÷ 2^64⌋ is exact while offset · unit < 2^64.
package struct UnitScale: Sendable {
    /// The unit (1: offsets are their own units).
    let unit: UInt64
    /// M = ⌈2^64 ÷ unit⌉ (unused for a unit of 1).
    let magic: UInt64

    package init(unit: Int64) {
        self.unit = UInt64(max(1, unit))
        magic = self.unit == 1 ? 0 : UInt64.max / self.unit + 1
    }

    /// ⌊`offset` ÷ unit⌋, for offset · unit < 2^64.
    @inline(__always)
    package func units(_ offset: UInt64) -> UInt64 {
        unit == 1 ? offset : offset.multipliedFullWidth(by: magic).high
    }

    /// The offsets whose whole units lie in `units`.
    package func offsets(ofUnits units: ClosedRange<UInt64>) -> ClosedRange<UInt64> {
        let (end, overflow) = (units.upperBound &+ 1).multipliedReportingOverflow(by: unit)
        return (units.lowerBound &* unit)...(overflow ? UInt64.max : end &- 1)
    }
}
