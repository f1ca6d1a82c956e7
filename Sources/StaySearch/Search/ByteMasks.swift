/// Tests of a one-byte column for 64 rows at once, answered as a bit mask (bit *i*: row *i* passes).
///
/// Eight bytes are tested in one 64-bit word with integer arithmetic (SWAR) and their eight answers
/// gathered by one multiplication: a word of candidates costs about 60 instructions and no branch,
/// where testing each candidate cost a load, a comparison and a branch that mispredicts whenever the
/// rows are mixed.
enum ByteMasks {
    /// The high bit of every byte.
    static let highBits: UInt64 = 0x8080_8080_8080_8080
    /// The low bit of every byte (a byte value times this fills every byte with it).
    static let lowBits: UInt64 = 0x0101_0101_0101_0101

    /// The rows among 64 bytes from `bytes` whose value is at least `threshold`.
    static func atLeast(_ threshold: Int, in bytes: UnsafePointer<UInt8>) -> UInt64 {
        guard threshold > 0 else { return ~0 }
        guard threshold <= 128 else {
            var mask: UInt64 = 0
            for i in 0..<64 where Int(bytes[i]) >= threshold { mask |= 1 << UInt64(i) }
            return mask
        }
        // (x | 0x80) − t cannot borrow from the next byte when t ≤ 128, and keeps the high bit exactly
        // when the low seven bits are ≥ t; a byte ≥ 128 is ≥ t anyway.
        let repeated = UInt64(threshold) &* lowBits
        let raw = UnsafeRawPointer(bytes)
        var mask: UInt64 = 0
        for k in 0..<8 {
            let x = raw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self)
            mask |= gatherHighBits((((x | highBits) &- repeated) | x) & highBits) &<< UInt64(k &* 8)
        }
        return mask
    }

    /// The rows among 64 bytes from `bytes` whose value is `value`.
    static func equal(to value: Int, in bytes: UnsafePointer<UInt8>) -> UInt64 {
        guard (0...255).contains(value) else { return 0 }
        let repeated = UInt64(value) &* lowBits
        let low = ~highBits
        let raw = UnsafeRawPointer(bytes)
        var mask: UInt64 = 0
        for k in 0..<8 {
            let x = raw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self) ^ repeated
            // A byte of x is zero exactly when neither its low seven bits plus 127 nor it reach bit 7.
            mask |= gatherHighBits(~(((x & low) &+ low) | x) & highBits) &<< UInt64(k &* 8)
        }
        return mask
    }

    /// The high bits of the eight bytes of `word` (nothing else set) as the eight low bits, byte 0 first.
    @inline(__always)
    static func gatherHighBits(_ word: UInt64) -> UInt64 {
        ((word &>> 7) &* 0x0102_0408_1020_4080) &>> 56
    }
}
