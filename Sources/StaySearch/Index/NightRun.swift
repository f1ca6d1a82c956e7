/// Consecutive calendar nights of one listing from consecutive lines with the same stay rules, as the
/// builder keeps them and the assembler reads them: 32 bytes.
///
/// A run whose nights also share their price and availability holds them itself; one whose prices or
/// availability change from night to night (prices set by pricing tools) keeps them in the builder's
/// ``NightValues``, one value a night, so a year of daily prices costs 5 bytes a night, not a run each.
package struct NightRun {
    /// Where the first night came from, packed (see ``RecordOrigin``).
    package var origin: UInt64
    /// The listing's position in the builder.
    package var listing: Int32
    /// The first night, in days since 1970-01-01.
    package var day: Int32
    /// Minor units, clamped as the index stores them, or -1: the listing's price applies. For a run of
    /// per-night values, the position of its first night in ``NightValues`` instead.
    package var price: Int32
    /// `minimum_nights` and `maximum_nights`, or -1: the listing's own apply.
    package var minimum: Int32
    package var maximum: Int32
    /// Whether the nights are available (for a run of per-night values: see ``NightValues``).
    package var isAvailable: Bool
    /// Whether the prices and availability are in ``NightValues``, one a night.
    package var hasNightValues: Bool
    /// Nights in this run.
    package var count: UInt16

    /// Where the run's first night is in ``NightValues``, when it has night values.
    package var nightValuesStart: Int { Int(UInt32(bitPattern: price)) }

    /// A run of `count` nights from `day` with these values.
    package init(origin: UInt64, listing: Int32, day: Int32, price: Int32, minimum: Int32, maximum: Int32,
                 isAvailable: Bool, hasNightValues: Bool, count: UInt16) {
        self.origin = origin
        self.listing = listing
        self.day = day
        self.price = price
        self.minimum = minimum
        self.maximum = maximum
        self.isAvailable = isAvailable
        self.hasNightValues = hasNightValues
        self.count = count
    }

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
