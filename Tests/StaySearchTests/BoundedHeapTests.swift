import StaySearch
import StaySearchTestSupport
import Testing

/// The heap that keeps a page: whatever the order of the offers, it keeps the `capacity` smallest, and its
/// largest kept is at hand once full.
@Suite struct BoundedHeapTests {
    @Test(arguments: 0..<40)
    func keepsTheSmallestOffered(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) + 12_000)
        let capacity = [0, 1, 2, 3, 7, 20, 64, 500][seed % 8]
        let count = Int.random(in: 0...2_000, using: &random)
        // Few distinct keys, so that ties go by id; ids distinct.
        let offers = (0..<count).map { id in
            RankedRow(key: Int64.random(in: 0...(seed % 2 == 0 ? 30 : 1_000_000), using: &random), id: Int64(id), row: Int32(id), value: 0)
        }.shuffled(using: &random)
        var heap = BoundedHeap<RankedRow>(capacity: capacity)
        var smallest: [RankedRow] = []
        for (position, offer) in offers.enumerated() {
            heap.offer(offer)
            // The reference: the smallest so far, kept sorted by insertion.
            if capacity > 0, smallest.count < capacity || offer < smallest.last! {
                smallest.insert(offer, at: smallest.firstIndex { offer < $0 } ?? smallest.count)
                if smallest.count > capacity { smallest.removeLast() }
            }
            if position % 97 == 0 || position == count - 1 {
                #expect(heap.sorted() == smallest, "seed \(seed) after \(position + 1) offers")
                #expect(heap.largestWhenFull == (smallest.count == capacity && capacity > 0 ? smallest.last : nil), "seed \(seed)")
            }
        }
        #expect(heap.sorted().map(\.id) == Array(offers.sorted().prefix(capacity)).map(\.id), "seed \(seed)")
    }
}
