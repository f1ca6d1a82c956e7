/// The `capacity` smallest elements offered, kept in a binary max-heap so that each offer costs
/// O(log capacity) and the largest kept element is always at hand to beat.
package struct BoundedHeap<Element: Comparable> {
    private var storage: [Element] = []
    let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
        storage.reserveCapacity(min(capacity, 4_096))
    }

    /// Keeps `element` if it is among the `capacity` smallest offered so far.
    /// - Complexity: O(log *capacity*).
    package mutating func offer(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
            storage.withUnsafeMutableBufferPointer { BoundedHeap.siftUp(element, from: $0.count - 1, in: $0) }
        } else if capacity > 0, element < storage[0] {
            storage.withUnsafeMutableBufferPointer { BoundedHeap.siftDown(element, from: 0, in: $0) }
        }
    }

    /// The largest kept element once `capacity` elements are kept; nil before.
    package var largestWhenFull: Element? { storage.count == capacity && capacity > 0 ? storage[0] : nil }

    /// The kept elements, smallest first.
    package func sorted() -> [Element] { storage.sorted() }

    /// Places `element` at `start` or above it: each parent smaller than it moves down into the hole, and it
    /// fills the hole left (one store a level, not a swap).
    private static func siftUp(_ element: Element, from start: Int, in heap: UnsafeMutableBufferPointer<Element>) {
        var hole = start
        while hole > 0 {
            let parent = (hole &- 1) / 2
            guard heap[parent] < element else { break }
            heap[hole] = heap[parent]
            hole = parent
        }
        heap[hole] = element
    }

    /// Places `element` at `start` or below it: the larger child moves up into the hole while it is larger
    /// than `element`, which fills the hole left.
    private static func siftDown(_ element: Element, from start: Int, in heap: UnsafeMutableBufferPointer<Element>) {
        var hole = start
        let count = heap.count
        while true {
            let left = 2 &* hole &+ 1
            guard left < count else { break }
            let right = left &+ 1
            let child = right < count && heap[left] < heap[right] ? right : left
            guard element < heap[child] else { break }
            heap[hole] = heap[child]
            hole = child
        }
        heap[hole] = element
    }
}
