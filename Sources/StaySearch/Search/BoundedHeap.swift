/// The `capacity` smallest elements offered, kept in a binary max-heap so that each offer costs
/// O(log capacity) and the largest kept element is always at hand to beat.
struct BoundedHeap<Element: Comparable> {
    private var storage: [Element] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage.reserveCapacity(min(capacity, 4_096))
    }

    /// Keeps `element` if it is among the `capacity` smallest offered so far.
    /// - Complexity: O(log *capacity*).
    mutating func offer(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
            siftUp(storage.count - 1)
        } else if capacity > 0, element < storage[0] {
            storage[0] = element
            siftDown(0)
        }
    }

    /// The largest kept element once `capacity` elements are kept; nil before.
    var largestWhenFull: Element? { storage.count == capacity && capacity > 0 ? storage[0] : nil }

    /// The kept elements, smallest first.
    func sorted() -> [Element] { storage.sorted() }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[parent] < storage[child] else { return }
            storage.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var largest = parent
            let left = 2 * parent + 1, right = left + 1
            if left < storage.count, storage[largest] < storage[left] { largest = left }
            if right < storage.count, storage[largest] < storage[right] { largest = right }
            guard largest != parent else { return }
            storage.swapAt(parent, largest)
            parent = largest
        }
    }
}
