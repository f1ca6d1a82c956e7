/// Consecutive calendar nights of one listing with the same values, as the builder keeps them and the
/// assembler reads them: 32 bytes.
struct NightRun {
    /// Where the first night came from, packed (see ``RecordOrigin``).
    var origin: UInt64
    /// The listing's position in the builder.
    var listing: Int32
    /// The first night, in days since 1970-01-01.
    var day: Int32
    /// Minor units, clamped as the index stores them, or -1: the listing's price applies.
    var price: Int32
    /// `minimum_nights` and `maximum_nights`, or -1: the listing's own apply.
    var minimum: Int32
    var maximum: Int32
    var isAvailable: Bool
    /// Nights in this run: the same values on consecutive dates from consecutive lines.
    var count: UInt16
}
