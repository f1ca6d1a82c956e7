import StaySearch
import StaySearchTestSupport
import Testing

/// The word-at-a-time byte tests against a byte-by-byte loop, at every edge of their arithmetic.
@Suite struct ByteMasksTests {
    /// 64 bytes at random, with every edge value somewhere among them.
    static func bytes(seed: Int) -> [UInt8] {
        var random = SeededGenerator(seed: UInt64(seed))
        let edges: [UInt8] = [0, 1, 2, 6, 16, 126, 127, 128, 129, 200, 254, 255]
        return (0..<64).map { position in
            seed % 3 == 0 && position < edges.count ? edges[position] : random.chance(0.5) ? random.pick(edges)
                : UInt8.random(in: 0...255, using: &random)
        }.shuffled(using: &random)
    }

    static func expectedMask(_ bytes: [UInt8], _ passes: (UInt8) -> Bool) -> UInt64 {
        var mask: UInt64 = 0
        for (position, byte) in bytes.enumerated() where passes(byte) { mask |= 1 << UInt64(position) }
        return mask
    }

    @Test(arguments: 0..<40)
    func atLeastMatchesAByteLoop(seed: Int) {
        let bytes = Self.bytes(seed: seed)
        for threshold in [-1, 0, 1, 2, 3, 6, 7, 16, 17, 100, 127, 128, 129, 200, 254, 255, 256, 1_000] {
            let mask = bytes.withUnsafeBufferPointer { ByteMasks.atLeast(threshold, in: $0.baseAddress!) }
            #expect(mask == Self.expectedMask(bytes) { Int($0) >= threshold }, "threshold \(threshold)")
        }
    }

    @Test(arguments: 0..<40)
    func equalMatchesAByteLoop(seed: Int) {
        let bytes = Self.bytes(seed: seed)
        for value in [-1, 0, 1, 2, 6, 127, 128, 129, 254, 255, 256] {
            let mask = bytes.withUnsafeBufferPointer { ByteMasks.equal(to: value, in: $0.baseAddress!) }
            #expect(mask == Self.expectedMask(bytes) { Int($0) == value }, "value \(value)")
        }
    }
}
