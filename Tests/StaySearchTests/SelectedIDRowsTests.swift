import StaySearch
import StaySearchTestSupport
import Testing

/// The replay's id lookup against a linear search of the column.
@Suite struct SelectedIDRowsTests {
    @Test(arguments: 0..<20)
    func findsTheFirstRowOfEveryChosenID(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let rowCount = Int.random(in: 0...5_000, using: &random)
        // Small ids collide often (repeats in the column), huge and negative ones test the hash.
        let ids = (0..<rowCount).map { _ in
            random.chance(0.8) ? Int64.random(in: 1...Int64(rowCount * 2 + 1), using: &random) : Int64.random(in: Int64.min...Int64.max, using: &random)
        }
        let present = ids.isEmpty ? [] : (0..<300).map { _ in ids[Int.random(in: 0..<ids.count, using: &random)] }
        let absent = (0..<300).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) }
        let wanted = (present + present.prefix(50) + absent).shuffled(using: &random)
        let selected = SelectedIDRows(seed % 4 == 0 ? [] : wanted, in: Column(ids))
        for id in wanted + [0, -1, Int64.max] {
            let expected = seed % 4 == 0 ? nil : wanted.contains(id) ? ids.firstIndex(of: id) : nil
            #expect(selected.row(of: id) == expected, "id \(id)")
        }
    }
}
