import StaySearch
import Testing

@Suite struct ScanPartsTests {
    /// Parts cover every row once, in order, about equally, and each part's values start after the rows
    /// of the parts before it.
    @Test(arguments: [1, 2, 3, 5, 64])
    func partsCoverEveryRowOnce(count: Int) {
        let ranges = [0..<10, 20..<25, 30..<100, 100..<101, 200..<333]
        let rows = ranges.reduce(0) { $0 + $1.count }
        let parts = ScanParts(ranges: ranges, rowCount: rows, count: count)
        #expect(parts.count >= 1 && parts.count <= count)
        #expect(parts.ranges.flatMap { $0 }.flatMap { Array($0) } == ranges.flatMap { Array($0) })
        let sizes = parts.ranges.map { $0.reduce(0) { $0 + $1.count } }
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= (rows + count - 1) / count })
        if count <= 5 { #expect(parts.count == count) }
        #expect(parts.valueStarts == sizes.indices.map { sizes[..<$0].reduce(0, +) })
    }
}
