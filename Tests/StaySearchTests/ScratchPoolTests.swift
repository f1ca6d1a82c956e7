import StaySearch
import Dispatch
import Testing

/// The pool of large working buffers: what it lends, what it keeps, what it frees.
@Suite struct ScratchPoolTests {
    static let large = ScratchPool.smallestPooledBytes / MemoryLayout<Int64>.stride

    @Test func aBufferGivenBackIsLentAgainWithoutAllocating() {
        let pool = ScratchPool(keeping: 2)
        let first = pool.take(Int64.self, count: Self.large)
        #expect(first.count == Self.large)
        first[Self.large - 1] = 7
        let address = UnsafeMutableRawPointer(first.baseAddress!)
        pool.giveBack(first)
        #expect(pool.freeBytes == Self.large * 8)
        // Of another type: the same memory, seen with the count asked for.
        let second = pool.take(Int32.self, count: 2 * Self.large)
        #expect(UnsafeMutableRawPointer(second.baseAddress!) == address)
        #expect(second.count == 2 * Self.large)
        #expect(pool.freeBytes == 0)
        pool.giveBack(second)
        #expect(pool.freeBytes == Self.large * 8)
    }

    @Test func theSmallestBufferLargeEnoughIsLent() {
        let pool = ScratchPool(keeping: 4)
        let big = pool.take(Int64.self, count: 4 * Self.large), small = pool.take(Int64.self, count: Self.large)
        let smallAddress = small.baseAddress!, bigAddress = big.baseAddress!
        pool.giveBack(big)
        pool.giveBack(small)
        let again = pool.take(Int64.self, count: Self.large / 2 + ScratchPool.smallestPooledBytes / 8)
        #expect(again.baseAddress == bigAddress)      // the small one is not large enough
        let last = pool.take(Int64.self, count: Self.large)
        #expect(last.baseAddress == smallAddress)
        pool.giveBack(again)
        pool.giveBack(last)
    }

    @Test func beyondItsKeepingThePoolFreesTheSmallest() {
        let pool = ScratchPool(keeping: 2)
        let buffers = [1, 3, 2].map { pool.take(Int64.self, count: $0 * Self.large) }
        for buffer in buffers { pool.giveBack(buffer) }
        #expect(pool.freeBytes == (3 + 2) * Self.large * 8)
    }

    @Test func smallBuffersAreNotKept() {
        let pool = ScratchPool(keeping: 2)
        let small = pool.take(Int32.self, count: 100)
        #expect(small.count == 100)
        pool.giveBack(small)
        let empty = pool.take(Int64.self, count: 0)
        #expect(empty.count == 1)
        pool.giveBack(empty)
        #expect(pool.freeBytes == 0)
    }

    /// Threads taking and giving back at once never share a buffer: each fills its own with its number
    /// and finds only that number in it before giving it back.
    @Test func threadsNeverShareABuffer() {
        let pool = ScratchPool(keeping: 3)
        let clashes = Clashes()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                let buffer = pool.take(Int64.self, count: Self.large * (1 + (thread + round) % 3))
                buffer.initialize(repeating: Int64(thread))
                if buffer.contains(where: { $0 != Int64(thread) }) { clashes.record() }
                pool.giveBack(buffer)
            }
        }
        #expect(clashes.count == 0)
        #expect(pool.freeBytes <= 3 * 3 * Self.large * 8)
    }
}

/// A counter several threads add to.
private final class Clashes: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var counted = 0
    func record() { lock.writing { counted += 1 } }
    var count: Int { lock.reading { counted } }
}
