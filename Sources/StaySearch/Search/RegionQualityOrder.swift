/// The rows of one region's ``UndatedPopulation`` by the quality part of the `recommended` score, highest
/// first, with their prices side by side: the `recommended` page of a search without dates in that region
/// walks these until no row left could reach it, as ``UndatedQualityOrder`` does for every row. (Walking every
/// row of the index by quality instead passes over the other regions' rows down to the region's page: 1.5–3.6
/// ms for a city of a 1M-listing index, where this walk stops after a few hundred of the city's rows.)
struct RegionQualityOrder: Sendable {
    /// The ``UndatedPopulation/key`` of the population it orders.
    let key: [Int]
    /// The rows, highest quality first.
    let rows: [Int32]
    /// Their qualities (thousandths of a point).
    let qualities: [Int32]
    /// Their prices without dates (minor units).
    let values: [Int32]

    /// The rows of `population` by `rowQualities` (one a row of the index).
    /// - Complexity: O(*n* log *n*) for the *n* rows of `population`.
    init(of population: UndatedPopulation, qualities rowQualities: [Int32]) {
        key = population.key
        // A quality is at least 0: its distance below 2^31 − 1 above the position orders the keys.
        var keys = population.rows.enumerated().map { position, row in
            UInt64(UInt32(Int32.max - rowQualities[Int(row)])) << 32 | UInt64(position)
        }
        keys.sort()
        let positions = keys.map { Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        rows = positions.map { population.rows[$0] }
        qualities = rows.map { rowQualities[Int($0)] }
        values = positions.map { population.values[$0] }
    }
}
