/// A stay rule of one check-in day: `minimum_nights` (capped at 32,767) and `maximum_nights` (capped
/// at 65,535; no calendar is that long, so capping changes no answer), packed into one `UInt32`
/// whose top bit stays clear.
public struct StayRule: Hashable, Sendable {
    /// The packed form: minimum in the high 16 bits, maximum in the low 16 bits.
    public var packed: UInt32

    /// Packs a rule, capping both numbers and flooring them at 0.
    @inlinable
    public init(minimumNights: Int32, maximumNights: Int32) {
        let minimum = UInt32(min(max(minimumNights, 0), 32_767))
        let maximum = UInt32(min(max(maximumNights, 0), 65_535))
        packed = minimum << 16 | maximum
    }

    /// Wraps a packed rule.
    @inlinable
    public init(packed: UInt32) { self.packed = packed }

    /// The fewest nights a stay may have.
    @inlinable
    public var minimumNights: Int { Int(packed >> 16) }

    /// The most nights a stay may have.
    @inlinable
    public var maximumNights: Int { Int(packed & 0xFFFF) }

    /// Whether a stay of `nights` nights is allowed.
    @inlinable
    public func allows(nights: Int) -> Bool {
        nights >= minimumNights && nights <= maximumNights
    }
}
