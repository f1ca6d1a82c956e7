/// ⌊(*v* − low) · bins / width⌋ capped at the last bin, exactly, without a division per value: a
/// table lookup and one comparison.
///
/// The offsets 0…width are cut into buckets of 2^*s* offsets, *s* the largest with 2^*s* ≤ ⌊width / bins⌋,
/// so that no bucket holds two bin boundaries (boundaries are at least ⌊width / bins⌋ apart) and there
/// are fewer than 2 · bins + 1 buckets. Each bucket keeps the bin of its first offset and the boundary
/// of the next bin: a value's bin is the first, plus one when it reaches that boundary.
package struct ExactBinning {
    let low: Int64
    let width: Int64
    let bins: Int64
    /// log2 of the bucket size.
    let shift: Int64
    /// Per bucket *b*: at 2*b*, the bin of its first offset; at 2*b* + 1, the first offset of the bin
    /// after it (`Int64.max` past the last bin).
    let buckets: [Int64]

    package init(low: Int64, width: Int64, bins: Int) {
        let width = max(1, width), bins = max(1, bins)
        self.low = low
        self.width = width
        self.bins = Int64(bins)
        let binWidth = width / Int64(bins)
        shift = binWidth == 0 ? 0 : Int64(63 - binWidth.leadingZeroBitCount)
        let bucketCount = Int(width >> shift) + 1
        // The first offset of bin k: ⌈k · width / bins⌉ (in 128 bits: k · width may pass 2^63).
        func boundary(_ bin: Int64) -> Int64 {
            guard bin < Int64(bins) else { return Int64.max }
            let product = Int128(bin) * Int128(width)
            return Int64((product + Int128(bins) - 1) / Int128(bins))
        }
        var buckets = [Int64](repeating: 0, count: 2 * bucketCount)
        var bin: Int64 = 0
        var next = boundary(1)
        for bucket in 0..<bucketCount {
            let first = Int64(bucket) << shift
            while first >= next {
                bin += 1
                next = boundary(bin + 1)
            }
            buckets[2 * bucket] = bin
            buckets[2 * bucket + 1] = next
        }
        self.buckets = buckets
    }

    /// The bin of `value`, for low ≤ value ≤ low + width.
    @inline(__always)
    package func bin(of value: Int64) -> Int {
        let offset = value &- low
        let bucket = Int(truncatingIfNeeded: offset &>> shift) &<< 1
        return buckets.withUnsafeBufferPointer { buckets in
            Int(truncatingIfNeeded: buckets[bucket] &+ (offset >= buckets[bucket &+ 1] ? 1 : 0))
        }
    }

    /// Counts `values` into `counts`: bins 0..<bins, then below `low`, then above `low + width`.
    func count(_ values: UnsafeBufferPointer<Int64>, into counts: UnsafeMutableBufferPointer<Int>) {
        let low = self.low, span = UInt64(bitPattern: width), shift = self.shift
        let below = Int(bins), above = Int(bins) + 1
        buckets.withUnsafeBufferPointer { buckets in
            for value in values {
                let offset = value &- low
                // One unsigned comparison tells a value inside low ... low + width from one on either side.
                if UInt64(bitPattern: offset) <= span {
                    let bucket = Int(truncatingIfNeeded: offset &>> shift) &<< 1
                    counts[Int(truncatingIfNeeded: buckets[bucket] &+ (offset >= buckets[bucket &+ 1] ? 1 : 0))] &+= 1
                } else {
                    counts[offset < 0 ? below : above] &+= 1
                }
            }
        }
    }
}
