import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct BitMatrixTests {
    @Test(arguments: 0..<20)
    func transposeMovesEveryBit(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let rows = (0..<64).map { _ in seed == 0 ? UInt64(1) << 5 : UInt64.random(in: 0...UInt64.max, using: &random) }
        let matrix = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
        defer { matrix.deallocate() }
        matrix.initialize(from: rows, count: 64)
        BitMatrix.transpose(matrix)
        for row in 0..<64 {
            for column in 0..<64 {
                #expect((matrix[column] >> UInt64(row)) & 1 == (rows[row] >> UInt64(column)) & 1)
            }
        }
    }
}
