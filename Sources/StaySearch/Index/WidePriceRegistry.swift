import Synchronization

/// The wide prices (``WidePrices``) that builders collecting one index's nights on several threads refer to, shared
/// by them so that a night's reference means the same amount in every builder: ``IndexBuilder/appendNights(of:shiftingLinesBy:)``
/// moves nights between builders of one registry as they are.
package final class WidePriceRegistry: Sendable {
    private let table = Mutex(WidePrices())

    /// An empty registry.
    package init() {}

    /// The stored value of an amount of `minorUnits` (see ``WidePrices/stored(minorUnits:)``); locks only for an
    /// amount from ``WidePrices/firstReference`` up.
    package func stored(minorUnits: Int64) -> Int32 {
        if minorUnits < Int64(WidePrices.firstReference) { return Int32(max(0, minorUnits)) }
        return table.withLock { $0.stored(minorUnits: minorUnits) }
    }

    /// The table as it is now.
    package var snapshot: WidePrices { table.withLock { $0 } }
}
