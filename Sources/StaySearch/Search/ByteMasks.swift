import StaySearchKernels

/// Tests of a one-byte column for 64 rows at once, answered as a bit mask (bit *i*: row *i* passes).
///
/// Sixteen bytes are compared in one SSE2 register and their answers gathered by a movemask
/// (``staysearch_bytes_at_least``, ``staysearch_bytes_equal``): a word of candidates costs about 33
/// instructions with the call and no branch, where testing each candidate cost a load, a comparison and a
/// branch that mispredicts whenever the rows are mixed (and eight bytes at a time in a 64-bit word with
/// integer arithmetic cost about 106).
package enum ByteMasks {
    /// The rows among 64 bytes from `bytes` whose value is at least `threshold`.
    package static func atLeast(_ threshold: Int, in bytes: UnsafePointer<UInt8>) -> UInt64 {
        guard threshold > 0 else { return ~0 }
        guard threshold <= 255 else { return 0 }
        return staysearch_bytes_at_least(bytes, Int32(threshold))
    }

    /// The rows among 64 bytes from `bytes` whose value is `value`.
    package static func equal(to value: Int, in bytes: UnsafePointer<UInt8>) -> UInt64 {
        guard (0...255).contains(value) else { return 0 }
        return staysearch_bytes_equal(bytes, Int32(value))
    }
}
