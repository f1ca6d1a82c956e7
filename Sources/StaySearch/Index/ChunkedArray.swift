/// A growing array kept in chunks of 65,536 elements: appending never moves what is there, and at most
/// one chunk's room is unused. A doubling array holds up to twice its elements at rest and three times
/// while it grows, which at the peak of a large import is gigabytes of nothing.
package struct ChunkedArray<Element> {
    private static var chunkShift: Int { 16 }
    private static var chunkMask: Int { (1 << chunkShift) - 1 }

    private var chunks: [[Element]] = []
    /// The number of elements.
    package private(set) var count = 0

    /// An empty array.
    package init() {}

    /// Appends `element`.
    package mutating func append(_ element: Element) {
        if count & ChunkedArray.chunkMask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(1 << ChunkedArray.chunkShift)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// The element at `index` (`0 ..< count`).
    package subscript(index: Int) -> Element {
        chunks[index >> ChunkedArray.chunkShift][index & ChunkedArray.chunkMask]
    }

    /// The last element, if any.
    package var last: Element? { count == 0 ? nil : self[count - 1] }
}
