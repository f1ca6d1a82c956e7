/// The prices an index holds at or above ``firstReference`` minor units (about 21.3 million in any currency: a
/// luxury villa's night in rupiah or dong), which its 32-bit price columns cannot count: each is kept once, as a
/// 64-bit amount, in a table (``IndexStorage/widePrices``), and a stored price refers to it as
/// `firstReference + position`.
///
/// A reference is a positive stored value like any price, so everything that asks whether a night is priced, open
/// or the same as the next reads it unchanged; only what adds or compares amounts resolves it
/// (``NightPrices/amount(ofStored:)``). A row holding one whose prices change most days is dense like any other,
/// in its own unit (a dong row priced to ₫1,000 counts codes of ₫1,000, whatever their size); any other is stored
/// as plain runs (never a weekly pattern) and priced run by run, in 64 bits, by every search, calendar and
/// flexible-date path: whatever its currency, a night of up to ``Money/largest`` and a stay of 365 such nights
/// are exact.
package struct WidePrices: Sendable {
    /// The least stored value that refers to the table: 2^31 − 2^26 (2,080,374,784 minor units). Any amount from it
    /// up is kept in the table, so a stored value below it is always its own amount.
    package static let firstReference: Int32 = Int32.max - (1 << 26) + 1
    /// How many different amounts the table can hold: 2^26.
    package static let capacity = 1 << 26

    /// The amounts, in minor units, by position.
    package private(set) var amounts: [Int64] = []
    private var positions: [Int64: Int32] = [:]

    /// An empty table.
    package init() {}

    /// The stored value of an amount of `minorUnits` (held at ``Money/largest``): itself below ``firstReference``,
    /// else a reference to it in the table (added the first time).
    package mutating func stored(minorUnits: Int64) -> Int32 {
        if minorUnits < Int64(WidePrices.firstReference) { return Int32(max(0, minorUnits)) }
        // An amount above the bound (loaders refuse it; a caller of the builder may not) is held at the bound.
        let amount = min(minorUnits, Money.largest.minorUnits)
        if let known = positions[amount] { return known }
        precondition(amounts.count < WidePrices.capacity, "more than 2^26 different prices above 20 million")
        let reference = WidePrices.firstReference + Int32(amounts.count)
        amounts.append(amount)
        positions[amount] = reference
        return reference
    }

    /// The stored value of `money`, or ``ListingIndex/noPrice`` for none.
    package mutating func stored(_ money: Money?) -> Int32 {
        guard let money else { return ListingIndex.noPrice }
        return stored(minorUnits: money.minorUnits)
    }

    /// The amount a stored value stands for (a sentinel, below 0, is itself), given the table's amounts.
    @inline(__always)
    package static func amount(ofStored value: Int32, in table: UnsafePointer<Int64>?) -> Int64 {
        value < firstReference ? Int64(value) : table.unsafelyUnwrapped[Int(value &- firstReference)]
    }
}

extension WidePrices {
    /// The table with its amounts in ascending order, and for each old position its new one: references made in the
    /// order the prices came are renumbered so that stored values order as their amounts do (a search without dates
    /// sorts stored prices as they are).
    package func sortedByAmount() -> (table: WidePrices, positions: [Int32]) {
        let order = amounts.indices.sorted { amounts[$0] < amounts[$1] }
        var positions = [Int32](repeating: 0, count: amounts.count)
        var sorted = WidePrices()
        for (rank, old) in order.enumerated() {
            positions[old] = Int32(rank)
            sorted.amounts.append(amounts[old])
            sorted.positions[amounts[old]] = WidePrices.firstReference + Int32(rank)
        }
        return (sorted, positions)
    }

    /// `values` with each reference renumbered by `positions` (``sortedByAmount()``).
    package static func renumber(_ values: UnsafeMutableBufferPointer<Int32>, positions: [Int32]) {
        for index in values.indices where values[index] >= firstReference {
            values[index] = firstReference + positions[Int(values[index] - firstReference)]
        }
    }
}
