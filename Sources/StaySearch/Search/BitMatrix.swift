/// A 64 × 64 matrix of bits, one `UInt64` a row, transposed in place: bit *c* of row *r* becomes bit *r*
/// of row *c*.
///
/// Flexible dates keep, per check-in, a word of the rows bookable for it; a row wants the opposite, a
/// word of the check-ins it is bookable for. Transposing a block of 64 rows costs 6 × 32 swaps of masked
/// bits (Hacker's Delight, 7–3) instead of one test per row and check-in.
package enum BitMatrix {
    /// Transposes the 64 words at `rows`.
    @inline(__always)
    package static func transpose(_ rows: UnsafeMutablePointer<UInt64>) {
        var width = 32
        var mask: UInt64 = 0x0000_0000_FFFF_FFFF
        while width != 0 {
            var row = 0
            while row < 64 {
                // Swap the high `width` bits of each low row with the low bits of its partner `width` rows on.
                let t = ((rows[row] &>> UInt64(width)) ^ rows[row &+ width]) & mask
                rows[row] ^= t &<< UInt64(width)
                rows[row &+ width] ^= t
                row = (row &+ width &+ 1) & ~width
            }
            width >>= 1
            mask ^= mask &<< UInt64(width)
        }
    }
}
