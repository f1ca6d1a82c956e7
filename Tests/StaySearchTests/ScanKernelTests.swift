import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The scan's C kernels (AVX2 where the processor has it) against plain loops, on random input with the
/// edges of their arithmetic among it.
@Suite struct ScanKernelTests {
    static let edges: [Int64] = [0, 1, -1, 99, 100, 101, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 1 << 40, -(1 << 40)]

    static func values(count: Int, seed: Int) -> [Int64] {
        var random = SeededGenerator(seed: UInt64(seed))
        return (0..<count).map { _ in
            random.chance(0.2) ? random.pick(edges) : Int64.random(in: 0...5_000, using: &random)
        }
    }

    @Test(arguments: 0..<40)
    func foldingAgreesWithALoop(seed: Int) {
        let values = Self.values(count: seed * 3 % 71, seed: seed).map { $0 & 0xFFFF_FFFF }   // sums must not overflow
        var sum: Int64 = 5, smallest = seed % 2 == 0 ? Int64.max : 17, largest = seed % 2 == 0 ? Int64.min : 17
        var expectedSum: Int64 = 5, expectedSmallest = smallest, expectedLargest = largest
        for value in values {
            expectedSum += value
            expectedSmallest = min(expectedSmallest, value)
            expectedLargest = max(expectedLargest, value)
        }
        values.withUnsafeBufferPointer { staysearch_fold($0.baseAddress, $0.count, &sum, &smallest, &largest) }
        #expect(sum == expectedSum)
        #expect(smallest == expectedSmallest)
        #expect(largest == expectedLargest)
    }

    @Test(arguments: 0..<40)
    func rangesAgreeWithALoop(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 1_000)
        let values = Self.values(count: seed * 5 % 83, seed: seed)
        for _ in 0..<20 {
            let a = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
            let b = random.chance(0.3) ? random.pick(Self.edges) : Int64.random(in: -10...5_010, using: &random)
            let (lowest, highest) = (min(a, b), max(a, b))
            let inside = values.map { $0 >= lowest && $0 <= highest }
            values.withUnsafeBufferPointer { buffer in
                #expect(staysearch_count_in_range(buffer.baseAddress, buffer.count, lowest, highest) == inside.filter { $0 }.count)
                let start = values.isEmpty ? 0 : Int.random(in: 0..<values.count, using: &random)
                let expected = (start..<values.count).first { inside[$0] } ?? values.count
                #expect(staysearch_first_in_range(buffer.baseAddress, start, buffer.count, lowest, highest) == expected)
            }
        }
    }

    @Test(arguments: [1, 2, 15, 16, 17, 100, 240, 241, 255])
    func verdictsAgreeWithATableLookup(classCount: Int) {
        var random = SeededGenerator(seed: UInt64(classCount))
        for _ in 0..<50 {
            let verdicts = (0..<256).map { $0 == 255 ? UInt8(2) : UInt8(random.chance(0.5) ? 1 : 0) }
            let classes = (0..<64).map { _ in random.chance(0.1) ? UInt8(255) : UInt8(Int.random(in: 0..<classCount, using: &random)) }
            let packed = (0..<32).map { byte in
                (0..<8).reduce(UInt8(0)) { bits, bit in verdicts[byte * 8 + bit] == 1 ? bits | 1 << UInt8(bit) : bits }
            }
            var allowed: UInt64 = 0, check: UInt64 = 0
            for (row, rowClass) in classes.enumerated() {
                if verdicts[Int(rowClass)] == 1 { allowed |= 1 << UInt64(row) }
                if rowClass == 255 { check |= 1 << UInt64(row) }
            }
            var foundCheck: UInt64 = 0
            let found = classes.withUnsafeBufferPointer { classes in
                packed.withUnsafeBufferPointer { staysearch_verdict_bits(classes.baseAddress, $0.baseAddress, &foundCheck) }
            }
            #expect(found == allowed)
            #expect(foundCheck == check)
        }
    }
}
