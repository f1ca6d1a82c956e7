/// Consecutive calendar nights of one listing from consecutive lines with the same stay rules, as the
/// builder keeps them and the assembler reads them: 32 bytes.
///
/// A run whose nights also share their price and availability holds them itself; one whose prices or
/// availability change from night to night (prices set by pricing tools) keeps them in the builder's
/// ``NightValues``, one value a night, so a year of daily prices costs 5 bytes a night, not a run each.
struct NightRun {
    /// Where the first night came from, packed (see ``RecordOrigin``).
    var origin: UInt64
    /// The listing's position in the builder.
    var listing: Int32
    /// The first night, in days since 1970-01-01.
    var day: Int32
    /// Minor units, clamped as the index stores them, or -1: the listing's price applies. For a run of
    /// per-night values, the position of its first night in ``NightValues`` instead.
    var price: Int32
    /// `minimum_nights` and `maximum_nights`, or -1: the listing's own apply.
    var minimum: Int32
    var maximum: Int32
    /// Whether the nights are available (for a run of per-night values: see ``NightValues``).
    var isAvailable: Bool
    /// Whether the prices and availability are in ``NightValues``, one a night.
    var hasNightValues: Bool
    /// Nights in this run.
    var count: UInt16

    /// Where the run's first night is in ``NightValues``, when it has night values.
    var nightValuesStart: Int { Int(UInt32(bitPattern: price)) }

    /// The night at `offset` as a run of one with its own values.
    func night(at offset: Int, in values: NightValues) -> NightRun {
        var night = self
        night.day += Int32(offset)
        night.origin += UInt64(offset)
        night.count = 1
        if hasNightValues {
            night.price = values.price(at: nightValuesStart + offset)
            night.isAvailable = values.isAvailable(at: nightValuesStart + offset)
            night.hasNightValues = false
        }
        return night
    }
}
